"""The batching lab's knobs as widgets, and the column that holds them."""

from __future__ import annotations

from html import escape

import panel as pn

from labs.batching.view import NODE_KNOBS
from labs.page import format as fmt
from labs.page.layout import knob_column, note
from labs.page.text import LiveHTML
from labs.widgets import knobs as ui
from labs.widgets.fold import Fold
from labs.widgets.node_picker import NodePicker

POLICY_LABELS = {"static": "static", "continuous": "continuous"}
LAYOUT_LABELS = {"reserved": "reserved", "paged": "paged"}
ARRIVAL_LABELS = {"Poisson stream": "poisson", "offline batch": "offline"}
BUTTONS = {"color": "primary", "variant": "outline", "sizing_mode": "stretch_width"}
WIDE = {"sizing_mode": "stretch_width"}
# An engine knob's slider sets its knob when the handle is released: each value a drag passes
# would rerun the four engines (a drag of B from 256 to 1 queued 27 s of server work).
ENGINE_SLIDER = {**WIDE, "throttled": True}


def _editable(parameter, label: str, **options):
    """A slider with a number box, fixed to the parameter's whole range, set on release."""
    low, high = parameter.bounds
    options = {"start": low, "end": high, **options}
    return pn.widgets.EditableIntSlider.from_param(
        parameter, label=label, fixed_start=low, fixed_end=high, **options, **ENGINE_SLIDER
    )


def widgets(lab) -> dict:
    """Every widget of the lab, by the knob it drives."""
    p, s = lab.param, lab.scenario
    return {
        "policy": pn.widgets.RadioButtonGroup.from_param(
            p.policy, options=POLICY_LABELS, label="Scheduler", **BUTTONS
        ),
        "kv_layout": pn.widgets.RadioButtonGroup.from_param(
            p.kv_layout, options=LAYOUT_LABELS, label="KV layout", **BUTTONS
        ),
        "batch_size": _editable(p.batch_size, "Batch size B (seats)"),
        "wait_cap_s": pn.widgets.FloatSlider.from_param(
            p.wait_cap_s, label="Static wave wait cap (s)", step=0.05, **ENGINE_SLIDER
        ),
        "arrival": pn.widgets.RadioButtonGroup.from_param(
            p.arrival, options=ARRIVAL_LABELS, **BUTTONS
        ),
        "arrival_rate": pn.widgets.FloatSlider.from_param(
            p.arrival_rate, label="Arrivals per second", step=0.5, **ENGINE_SLIDER
        ),
        "requests": pn.widgets.IntSlider.from_param(
            p.requests, label="Requests", step=10, **ENGINE_SLIDER
        ),
        "seed": pn.widgets.IntInput.from_param(p.seed, label="Seed", **WIDE),
        "prompt_tokens": _editable(p.prompt_tokens, "Prompt (tokens)", step=16),
        "answer": pn.widgets.Select.from_param(p.answer, label="Answer lengths", **WIDE),
        "answer_mean": _editable(p.answer_mean, "Mean answer (tokens)"),
        # the slider stops at 4,096 (a drag's useful range); the box takes the whole range
        "answer_cap": _editable(p.answer_cap, "Answer cap (max_tokens)", end=4096),
        "tier": tier_buttons(s),
        "model": ui.model_select(s),
        "gpu": pn.widgets.Select.from_param(s.param.gpu, label="Card", **WIDE),
        "kv_dtype": ui.dtype_buttons(s),
        "draft_tokens": pn.widgets.IntSlider.from_param(
            p.draft_tokens, label="Draft length k", **WIDE
        ),
        "acceptance": pn.widgets.FloatSlider.from_param(
            p.acceptance, label="Acceptance", step=0.01, format="0%", **WIDE
        ),
        "draft_cost": pn.widgets.FloatSlider.from_param(
            p.draft_cost, label="Draft step cost", step=0.01, format="0%", **WIDE
        ),
    }


def tier_buttons(scenario) -> pn.widgets.RadioButtonGroup:
    """The tier buttons, showing no tier while an exact model runs; a click on any tier runs it.

    Linked by hand: with an exact model set, the scenario's tier does not say what runs, so
    the buttons show none selected, and choosing a tier clears the exact model with it.
    """
    buttons = pn.widgets.RadioButtonGroup(
        options=ui.TIER_LABELS,
        value=None if scenario.model else scenario.tier,
        label="Model tier",
        **BUTTONS,
    )

    def to_scenario(event):
        if event.new is not None:
            scenario.param.update(tier=event.new, model=None)

    def to_widget(*_events):
        buttons.value = None if scenario.model else scenario.tier

    buttons.param.watch(to_scenario, "value")
    scenario.param.watch(to_widget, ["tier", "model"])
    return buttons


def running_html(name: str) -> str:
    """The line under the node's knobs naming what runs."""
    return f'<div class="lab small" data-running>Running: <b>{escape(name)}</b></div>'


def _button(label: str, colour: str, action) -> pn.widgets.Button:
    button = pn.widgets.Button(
        label=label, color=colour, sizing_mode="stretch_width", margin=(4, 0)
    )
    button.on_click(lambda _event: action())
    return button


def _caption(text: str, margin) -> LiveHTML:
    return LiveHTML(f'<div class="lab small muted">{text}</div>', margin=margin)


TRAFFIC_KNOBS = (
    "arrival", "arrival_rate", "requests", "seed",
    "prompt_tokens", "answer", "answer_mean", "answer_cap",
)  # fmt: skip


def workload_summary(lab) -> str:
    """The folded traffic and request shape in one line: what the engines serve."""
    traffic = (
        "every request at once"
        if lab.arrival == "offline"
        else f"Poisson, {lab.arrival_rate:g} a second"
    )
    answers = f"{escape(lab.answer)} answers of mean {fmt.count(lab.answer_mean)}"
    if lab.answer == "capped exponential":
        answers += f", capped at {fmt.count(lab.answer_cap)}"
    return (
        f'<div class="lab small muted" data-fold-summary>{traffic} \u00b7 '
        f"{fmt.plural(lab.requests, 'request')} \u00b7 {fmt.count(lab.prompt_tokens)}-token "
        f"prompts \u00b7 {answers} (tokens) \u00b7 seed {lab.seed}</div>"
    )


def workload_fold(lab, w: dict) -> Fold:
    """Traffic, request shape and node, folded to one line until opened; open by itself
    whenever one of them leaves its default (a link, a preset, another lab's node)."""

    def rows() -> list:
        return [
            ui.heading("Traffic"),
            w["arrival"], w["arrival_rate"], w["requests"], w["seed"],
            ui.heading("Request shape"),
            w["prompt_tokens"], w["answer"], w["answer_mean"], w["answer_cap"],
            ui.heading("Node (shared with every lab)"),
            w["tier"], w["model"],
            NodePicker(lab.scenario, show_model=False),
            w["kv_dtype"],
        ]  # fmt: skip

    fold = Fold("Traffic, request shape and node", rows, lab, TRAFFIC_KNOBS,
                summary=workload_summary)  # fmt: skip
    fold.follow(lab.scenario, NODE_KNOBS)
    return fold


def knob_panel(lab, w: dict, workload: Fold) -> pn.Column:
    """The knob column: the preset buttons and the engine, then ``workload`` (traffic,
    request shape and node, folded to one line)."""
    return knob_column(
        ui.heading("The published comparison"),
        _button("Load the published 13B comparison", "primary", lab.load_published),
        _button("Back to the defaults", "default", lab.restore_defaults),
        ui.heading("Engine"),
        _caption("Scheduler", (0, 10)),
        w["policy"],
        _caption("KV layout", (4, 10, 0, 10)),
        w["kv_layout"],
        w["batch_size"],
        w["wait_cap_s"],
        workload,
        lab.running,
        note(
            "The engine prefills new prompts and writes one token per running seat each "
            "step, priced by the same timing model as the pool lab."
        ),
    )
