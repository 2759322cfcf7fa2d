"""Widgets for the shared Scenario's knobs, built with ``from_param`` so they stay in sync."""

from __future__ import annotations

import panel as pn

from core import MODELS, TIERS
from labs import format as fmt
from labs.text import LiveHTML

TIER_LABELS = {f"{key} \u00b7 {shape.name}": key for key, shape in TIERS.items()}
DTYPE_LABELS = {"bf16 \u00b7 2 bytes": "bf16", "fp8 \u00b7 1 byte": "fp8"}

KNOB_LABELS = {
    "workload": "workload",
    "seats": "batch size",
    "tier": "model tier",
    "model": "exact model",
    "prompt_tokens": "prompt length",
    "prefix_hit_rate": "prefix hit rate",
    "kv_dtype": "cache storage",
    "weight_dtype": "weight storage",
    "gpu": "card",
    "cards": "cards per node",
    "answer_tokens": "answer length",
    "arrivals_per_min": "peak arrivals",
    "realism": "level of detail",
    "concurrency": "closed-loop users",
}
REALISM_LABELS = {"whiteboard": "whiteboard", "real engine": "engine"}


# The range each shared knob's widget offers; links are clamped to it too.
UI_RANGES = {"seats": (1, 256), "prompt_tokens": (100, 64_000)}


def knob_label(knob: str) -> str:
    """The name a student reads for a knob."""
    return KNOB_LABELS.get(knob, knob.replace("_", " "))


def knob_value(knob: str, value) -> str:
    """A knob's value as the page writes it."""
    if value is None:
        return "from the workload" if knob in ("answer_tokens", "arrivals_per_min") else "default"
    if knob == "prefix_hit_rate":
        return fmt.percent(value)
    if knob == "prompt_tokens":
        return fmt.plural(value, "token")
    if knob == "seats":
        return fmt.plural(value, "seat")
    if knob == "tier":
        return f"{value} ({TIERS[value].name})"
    return str(value)


def seats_slider(scenario, label: str = "Batch size (seats)"):
    # A plain slider: the editable variant adds a linked text box whose echo costs more
    # server time per change than the whole capacity model.
    low, high = UI_RANGES["seats"]
    return pn.widgets.IntSlider.from_param(
        scenario.param.seats, start=low, end=high, label=label, sizing_mode="stretch_width"
    )


def prompt_slider(scenario):
    low, high = UI_RANGES["prompt_tokens"]
    return pn.widgets.IntSlider.from_param(
        scenario.param.prompt_tokens,
        start=low,
        end=high,
        step=100,
        label="Prompt length (tokens)",
        sizing_mode="stretch_width",
    )


def hit_rate_slider(scenario):
    return pn.widgets.FloatSlider.from_param(
        scenario.param.prefix_hit_rate,
        start=0.0,
        end=1.0,
        step=0.01,
        format="0%",
        label="Prefix cache hit rate",
        sizing_mode="stretch_width",
    )


def tier_buttons(scenario):
    return pn.widgets.RadioButtonGroup.from_param(
        scenario.param.tier,
        options=TIER_LABELS,
        label="Model tier",
        color="primary",
        variant="outline",
        sizing_mode="stretch_width",
    )


def choice_buttons(scenario, knob: str, options: dict):
    """A full-width row of outlined buttons for one of ``scenario``'s choice knobs."""
    return pn.widgets.RadioButtonGroup.from_param(
        scenario.param[knob],
        options=options,
        color="primary",
        variant="outline",
        sizing_mode="stretch_width",
    )


def dtype_buttons(scenario, knob: str = "kv_dtype"):
    return choice_buttons(scenario, knob, DTYPE_LABELS)


def workload_buttons(scenario):
    return pn.widgets.RadioButtonGroup.from_param(
        scenario.param.workload,
        color="primary",
        variant="outline",
        sizing_mode="stretch_width",
    )


USE_TIER = "use the tier"


def model_select(scenario):
    """A picker over the named catalog models; its first entry clears the choice back to the tier.

    Linked by hand rather than with ``from_param``: a ``None`` option renders as a blank
    entry in the browser, so the widget shows a label and the scenario keeps ``None``.
    """
    select = pn.widgets.Select(
        label="Exact model",
        options=[USE_TIER, *MODELS],
        value=scenario.model or USE_TIER,
        sizing_mode="stretch_width",
    )

    def to_scenario(event):
        scenario.model = None if event.new == USE_TIER else event.new

    def to_widget(event):
        select.value = event.new or USE_TIER

    select.param.watch(to_scenario, "value")
    scenario.param.watch(to_widget, "model")
    return select


def heading(text: str) -> pn.pane.HTML:
    """A small section heading inside a knob column."""
    return LiveHTML(
        f'<div class="lab"><h3>{text}</h3></div>', margin=(8, 0, 0, 0), sizing_mode="stretch_width"
    )


def realism_buttons(scenario):
    """Whiteboard arithmetic or what a real engine would measure, for every lab at once."""
    return choice_buttons(scenario, "realism", REALISM_LABELS)
