"""Widgets for the shared Scenario's knobs, built with ``from_param`` so they stay in sync."""

from __future__ import annotations

import math

import panel as pn
from bokeh.models import CustomJSTickFormatter

from core import MODELS, TIERS
from core.catalog.custom import CUSTOM
from core.scenario.knobs import opening_knobs
from labs.page import format as fmt
from labs.page.text import LiveHTML
from labs.widgets.release import release_picker

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
    "run_requests": "requests in the run",
    "batch_limit": "batch limit the benchmark sets",
    "memory_share": "memory share the engine keeps",
    "recv_interval": "steps between SGLang's polls",
    "serving_mode": "serving mode",
    "kv_link": "KV link",
    "engine": "serving engine",
    "engine_version": "engine release",
    "layout": "node layout",
    "traffic": "traffic",
    "burstiness": "burstiness",
    "tpot_slo_s": "time-per-token target",
    "replicas": "nodes",
}
REALISM_LABELS = {"whiteboard": "whiteboard", "real engine": "engine"}
SERVING_MODE_LABELS = {"whole": "aggregated", "chunked": "chunked", "split P/D": "disaggregated"}
ENGINE_LABELS = {"TensorRT-LLM": "tensorrt-llm", "vLLM": "vllm", "SGLang": "sglang"}
LAYOUT_LABELS = {"TP": "tp", "TP + EP": "ep", "DEP": "dep"}


# The range each shared knob's widget offers; links are clamped to it too.
UI_RANGES = {"seats": (1, 256), "prompt_tokens": (100, 1_048_576)}


def knob_label(knob: str) -> str:
    """The name a student reads for a knob."""
    return KNOB_LABELS.get(knob, knob.replace("_", " "))


def knob_value(knob: str, value) -> str:
    """A knob's value as the page writes it."""
    if value is None:
        if knob == "model":
            return "none: the tier decides"
        if knob == "cards":
            return "the model's usual"
        if knob == "replicas":
            return "sized for the peak"
        return "from the workload" if knob in ("answer_tokens", "arrivals_per_min") else "default"
    if knob == "prefix_hit_rate":
        return fmt.percent(value)
    if knob == "prompt_tokens":
        return fmt.plural(value, "token")
    if knob == "seats":
        return fmt.plural(value, "seat")
    if knob == "tier":
        return f"{value} ({TIERS[value].name})"
    if knob == "model" and value == CUSTOM:
        return PASTED
    return str(value)


def seats_slider(scenario, label: str = "Batch size (seats)"):
    # A plain slider: the editable variant adds a linked text box whose echo costs more
    # server time per change than the whole capacity model.
    low, high = UI_RANGES["seats"]
    return pn.widgets.IntSlider.from_param(
        scenario.param.seats, start=low, end=high, label=label, sizing_mode="stretch_width"
    )


def prompt_slider(scenario):
    """Prompt length over its whole range: a log-scale slider and a number box to type into."""
    return LogSlider(
        scenario, "prompt_tokens", UI_RANGES["prompt_tokens"], "Prompt length (tokens)"
    )


def round_figures(count: float, bounds: tuple[int, int], figures: int = 3) -> int:
    """A slider position as a count people would type: three significant figures, inside ``bounds``."""
    low, high = bounds
    count = min(max(float(count), low), high)
    return int(min(max(round(count, figures - 1 - math.floor(math.log10(count))), low), high))


class LogSlider(pn.viewable.Viewer):
    """An integer knob whose range spans decades: an editable number above a log-scale slider.

    A linear slider over 100 to 64,000 moves about 200 tokens a pixel; on a log scale every
    decade gets the same length, and the box takes an exact figure. Both follow the parameter.
    """

    def __init__(self, owner, name: str, bounds: tuple[int, int], label: str, **params):
        super().__init__(**params)
        self._owner, self._name, self._bounds = owner, name, bounds
        low, high = bounds
        value = self._clamped(getattr(owner, name))
        self.slider = pn.widgets.FloatSlider(
            label="",
            start=math.log10(low),
            end=math.log10(high),
            step=0.005,
            value=math.log10(value),
            format=CustomJSTickFormatter(
                code="return Math.round(10 ** tick).toLocaleString('en-US')"
            ),
            show_value=False,
            sizing_mode="stretch_width",
            tags=[label],  # the label shows on the box; benches find the slider by this tag
            css_classes=["log-scale"],  # assets/a11y.js reads its position out as the count
        )
        self.box = pn.widgets.IntInput(
            label=label, value=value, start=low, end=high, width=150, margin=(5, 10, 0, 10)
        )
        self.slider.param.watch(self._slid, "value")
        self.box.param.watch(self._typed, "value")
        owner.param.watch(self._follow, name)
        self._layout = pn.Column(self.box, self.slider, sizing_mode="stretch_width", margin=0)

    def _clamped(self, value) -> int:
        low, high = self._bounds
        return int(min(max(value, low), high))

    def _slid(self, event) -> None:
        # A jump from elsewhere (a typed figure, a link) moves the slider too: leave it exact.
        if abs(math.log10(self._clamped(getattr(self._owner, self._name))) - event.new) <= 0.003:
            return
        setattr(self._owner, self._name, round_figures(10**event.new, self._bounds))

    def _typed(self, event) -> None:
        if event.new is not None:
            setattr(self._owner, self._name, self._clamped(event.new))

    def _follow(self, event) -> None:
        value = self._clamped(event.new)
        if self.box.value != value:
            self.box.value = value
        position = math.log10(value)
        # During a drag the slider leads; only a jump from elsewhere moves it.
        if abs(position - self.slider.value) > 0.003:
            self.slider.value = position

    def __panel__(self):
        return self._layout


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


EXACT = "exact:"  # prefix of the tier row's value for an exact model chosen elsewhere


def tier_buttons(scenario):
    """The tier as buttons; an exact model, when one runs, is a third button, the one selected.

    The scenario decides which model runs (its exact model if set, else its tier), and the
    row shows that, so a tier button never stays lit over an exact model. A tier button
    clears the exact model. Linked by hand: the row's options change with the model.
    """

    def options() -> dict:
        exact = {f"{scenario.model} \u00b7 exact": EXACT + scenario.model} if scenario.model else {}
        return {**TIER_LABELS, **exact}

    def current() -> str:
        return EXACT + scenario.model if scenario.model else scenario.tier

    row = pn.widgets.RadioButtonGroup(
        options=options(),
        value=current(),
        label="Model tier",
        color="primary",
        variant="outline",
        sizing_mode="stretch_width",
    )

    def to_scenario(event):
        if event.new in TIERS:
            scenario.param.update(tier=event.new, model=None)

    def to_row(*_events):
        row.param.update(options=options(), value=current())

    row.param.watch(to_scenario, "value")
    scenario.param.watch(to_row, ["tier", "model"])
    return row


def choice_buttons(scenario, knob: str, options: dict):
    """A full-width row of outlined buttons for one of ``scenario``'s choice knobs."""
    return pn.widgets.RadioButtonGroup.from_param(
        scenario.param[knob],
        options=options,
        color="primary",
        variant="outline",
        sizing_mode="stretch_width",
    )


def noted_choice(scenario, knob: str, options: dict, note: str):
    """A row of buttons for one of ``scenario``'s choice knobs, with a line saying what it does."""
    line = LiveHTML(f'<div class="lab small muted">{note}</div>', sizing_mode="stretch_width",
                    margin=(0, 10))  # fmt: skip
    return pn.Column(choice_buttons(scenario, knob, options), line, sizing_mode="stretch_width",
                     margin=0)  # fmt: skip


def engine_level_rows(scenario):
    """Serving mode, engine and layout: shown at the engine level only, where they act.

    At the whiteboard level they change no figure, so the column holds nothing (no greyed
    rows); it is filled the first time the level is the engine's, and emptied again after.
    """
    column = pn.Column(sizing_mode="stretch_width", margin=0)
    rows = []

    def show(*_events):
        if scenario.realism == "engine" and not rows:
            rows.extend([serving_mode_buttons(scenario), engine_buttons(scenario),
                         release_picker(scenario), layout_buttons(scenario)])  # fmt: skip
        column.objects = list(rows) if scenario.realism == "engine" else []

    show()
    scenario.param.watch(show, "realism")
    return column


def serving_mode_buttons(scenario):
    """Prompts whole, in chunks, or on prefill nodes of their own (the engine level only)."""
    return noted_choice(
        scenario,
        "serving_mode",
        SERVING_MODE_LABELS,
        "How prompts share the cards: whole between decode "
        "steps, in chunks inside them, or on prefill nodes that ship the cache to decode "
        "nodes. The real engine level prices it; the whiteboard's prefill is free.",
    )


def engine_buttons(scenario):
    """The serving engine a benchmark ran (the engine level only)."""
    return noted_choice(
        scenario,
        "engine",
        ENGINE_LABELS,
        "The engine behind the figures: its API server and "
        "eager prefill add to every first token, and its scheduler sizes the cache and the "
        "batch its own way.",
    )


def layout_buttons(scenario):
    """How the node spreads the model over its cards (the engine level only)."""
    return noted_choice(
        scenario,
        "layout",
        LAYOUT_LABELS,
        "TP splits every layer over the cards; TP + EP keeps "
        "each expert whole on one card; DEP runs attention data-parallel, so every card "
        "holds the shared weights and its own requests' cache, and tokens travel to their "
        "experts and back.",
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
PASTED = "pasted config.json"


def _model_options(scenario) -> list[str]:
    return [USE_TIER, *MODELS, *([PASTED] if scenario.model_config else [])]


def model_select(scenario):
    """A picker over the named catalog models; its first entry clears the choice back to the tier.

    Linked by hand rather than with ``from_param``: a ``None`` option renders as a blank
    entry in the browser, so the widget shows a label and the scenario keeps ``None``. A
    pasted config.json, once there is one, is the last entry.
    """
    select = pn.widgets.Select(
        label="Exact model",
        options=_model_options(scenario),
        value=_model_label(scenario.model),
        sizing_mode="stretch_width",
    )

    def to_scenario(event):
        value = {USE_TIER: None, PASTED: CUSTOM}.get(event.new, event.new)
        if scenario.model != value:
            # A named model opens as core's Scenario(model=...) opens it: in its published
            # checkpoint's format (gpt-oss's MXFP4 experts, DeepSeek's fp8).
            scenario.param.update(**opening_knobs(value))

    def to_widget(*_events):
        select.options = _model_options(scenario)
        select.value = _model_label(scenario.model)

    select.param.watch(to_scenario, "value")
    scenario.param.watch(to_widget, ["model", "model_config"])
    return select


def _model_label(model) -> str:
    return PASTED if model == CUSTOM else model or USE_TIER


def heading(text: str) -> pn.pane.HTML:
    """A small section heading inside a knob column."""
    return LiveHTML(
        f'<div class="lab"><h3>{text}</h3></div>', margin=(8, 0, 0, 0), sizing_mode="stretch_width"
    )


def realism_buttons(scenario):
    """Whiteboard arithmetic or what a real engine would measure, for every lab at once."""
    return choice_buttons(scenario, "realism", REALISM_LABELS)


OFFLOAD_LABELS = {
    "off: cached prefixes stay in HBM": "off",
    "host memory over PCIe Gen5": "host-pcie",
    "host memory over NVLink-C2C (Grace)": "host-c2c",
    "host memory, then local NVMe": "host-nvme",
}


def offload_select(scenario):
    """Where cached prefixes go when HBM lets them go (the KV offload knob), in one line."""
    return pn.widgets.Select.from_param(
        scenario.param.kv_offload, options=OFFLOAD_LABELS, name="KV offload (reuse copies back)",
        sizing_mode="stretch_width",
    )  # fmt: skip
