"""The node a lab runs: model (named, or pasted as a config.json), card (named, or typed in),
card count and weight storage, all on the session's shared Scenario."""

from __future__ import annotations

from html import escape

import panel as pn

from core import GPUS, Scenario
from core.catalog import WEIGHT_FORMATS
from core.catalog.cards import CUSTOM_CARD_USD_PER_HOUR
from core.catalog.config_json import DerivedModel, compact_config, parse_config
from core.catalog.custom import CUSTOM, scenario_shape
from core.foundation.units import giga
from core.whiteboard.layer_kinds import kv_layers, layer_kind_rows
from labs.page import format as fmt
from labs.page.a11y import aria_name
from labs.page.text import LiveHTML
from labs.widgets import knobs as ui

TYPED = "my own card"
WEIGHT_LABELS = {
    f"{name} \u00b7 {fmt_.bits_per_weight:g} b": name for name, fmt_ in WEIGHT_FORMATS.items()
}
# What a model's usual card count depends on (a pasted model's: its card and weight storage).
USUAL_CARDS_KNOBS = ["tier", "model", "model_config", "gpu", "weight_dtype", "card_memory_gb"]
CONFIG_PLACEHOLDER = '{"model_type": "llama", "num_hidden_layers": 32, ...}'


def layers_text(layers: int, kinds: list) -> str:
    """A model's layers, split by kind where it has more than one (a hybrid's attention/state)."""
    if len(kinds) <= 1:
        return fmt.count(layers)
    split = ", ".join(f"{fmt.count(row.layers)} {escape(row.kind)}" for row in kinds)
    return f"{fmt.count(layers)}: {split}"


def derived_html(derived: DerivedModel) -> str:
    """What a pasted config says, every figure from :func:`core.catalog.config_json.parse_config`."""
    shape = derived.shape
    attention = shape.attention
    if shape.kv_lora_rank:
        attention += f": latent {shape.kv_lora_rank} + rotary key {shape.qk_rope_head_dim}"
    kinds = layer_kind_rows(shape, 1.0, 1.0)  # only each kind's count of layers is read here
    heads = f"{shape.query_heads} / {shape.kv_heads} ({attention})"
    if kv_layers(shape) < shape.layers:  # a hybrid: heads only on the layers that attend
        heads += f", on its {fmt.count(kv_layers(shape))} attention layers"
    rows = [
        ("layers", layers_text(shape.layers, kinds)),
        ("query / KV heads", heads),
        ("head dim", fmt.count(shape.head_dim)),
        ("hidden / MLP", f"{fmt.count(shape.hidden)} / {fmt.count(shape.intermediate)}"),
        ("vocabulary", f"{fmt.count(shape.vocab)}, {'tied' if derived.tied_embeddings else 'untied'}"),
    ]  # fmt: skip
    if shape.is_moe:
        shared = f", {derived.shared_experts} shared" if derived.shared_experts else ""
        rows.append(("experts", f"{shape.experts_per_token} of {shape.experts}{shared} in "
                                f"{derived.moe_layers} layers"))  # fmt: skip
    if shape.window_layers:
        rows.append(("sliding window", f"{fmt.count(shape.sliding_window)} tokens on "
                                       f"{shape.window_layers} of {shape.layers} layers"))  # fmt: skip
    counted = (
        f"{giga(derived.params_total):,.2f}B total, {giga(derived.params_active):,.2f}B active"
    )
    rows.append(("parameters, counted", counted))
    if derived.stated is not None:
        stated = derived.stated
        card = f"{giga(stated.params):,.4g}B total, {giga(stated.active_params):,.4g}B active"
        rows.append((f"model card ({escape(stated.name)})", card))
    body = "".join(f"<tr><th>{escape(k)}</th><td>{v}</td></tr>" for k, v in rows)
    notes = "".join(f"<li>{escape(n)}</li>" for n in derived.notes)
    return (
        f'<div class="lab small" data-derived><table class="grid">{body}</table>'
        + (f'<ul class="facts muted">{notes}</ul>' if notes else "")
        + '<p class="muted">Active parameters leave out the experts a token skips and the '
        "input embedding (a lookup, not a multiply).</p></div>"
    )


class NodePicker(pn.viewable.Viewer):
    """Pick the model, the card, how many cards and how weights are stored; or bring your own."""

    def __init__(self, scenario: Scenario, show_model: bool = True, **params):
        super().__init__(**params)
        self.scenario = s = scenario
        self.show_model = show_model
        wide = {"sizing_mode": "stretch_width"}
        self.model = ui.model_select(s)
        self.gpu = pn.widgets.Select(label="Card", options=[*GPUS, TYPED], **wide)
        # Empty (or 0) is the model's usual count, which the box shows greyed as its hint.
        self.cards = pn.widgets.IntInput(
            label="Cards per node", start=0, end=64, value=None, **wide,
            description="Empty or 0: the model's usual count, shown greyed in the box.",
        )  # fmt: skip
        self.weights = aria_name(
            pn.widgets.RadioButtonGroup.from_param(
                s.param.weight_dtype,
                options=WEIGHT_LABELS,
                color="primary",
                variant="outline",
                **wide,
            ),
            "Weight format",
        )
        self.config_text = aria_name(
            pn.widgets.TextAreaInput(
                placeholder=CONFIG_PLACEHOLDER, height=120, max_length=200_000, **wide
            ),
            "Your model's config.json",
        )
        self.use_config = pn.widgets.Button(label="Use this config.json", color="primary")
        self.config_status = LiveHTML("", sizing_mode="stretch_width", margin=(4, 0))
        self.card_inputs: dict = {}  # built when the card form is first opened
        self._sync_from_scenario()
        self._show_usual()
        self.gpu.param.watch(self._gpu_chosen, "value")
        self.cards.param.watch(self._cards_chosen, "value")
        self.use_config.on_click(self._paste)
        s.param.watch(self._sync_from_scenario, ["model_config", "gpu", "cards"])
        s.param.watch(self._show_usual, USUAL_CARDS_KNOBS)
        self._layout = self._build()

    # -- scenario <-> widgets ------------------------------------------------------------
    def _sync_from_scenario(self, *events) -> None:
        s = self.scenario
        changed = {event.name for event in events} or {"gpu", "cards", "model_config"}
        if "gpu" in changed:
            self.gpu.value = TYPED if s.gpu == CUSTOM else s.gpu
        if "cards" in changed:
            self.cards.value = s.cards
        if "model_config" in changed:
            if s.model_config and not self.config_text.value:
                self.config_text.value = s.model_config
            self._show_pasted()

    def _show_usual(self, *_events) -> None:
        usual = scenario_shape(self.scenario).cards
        self.cards.placeholder = f"usual: {usual}"

    def _gpu_chosen(self, event) -> None:
        value = CUSTOM if event.new == TYPED else event.new
        if self.scenario.gpu != value:
            self.scenario.gpu = value

    def _cards_chosen(self, event) -> None:
        value = event.new or None
        if self.scenario.cards != value:
            self.scenario.cards = value

    def _paste(self, _event=None) -> None:
        """Read the text box; on success the scenario runs the pasted model."""
        try:
            compact = compact_config(self.config_text.value)
            parse_config(compact)
        except ValueError as error:  # a ConfigError says what is wrong in the student's words
            message = getattr(error, "message", str(error))
            message = message[:1].upper() + message[1:]
            self.config_status.object = (
                f'<div class="lab"><div class="notice" data-config-error>{escape(message)}'
                "</div></div>"
            )
            return
        with pn.io.hold():
            self.scenario.param.update(model_config=compact, model=CUSTOM)

    def _show_pasted(self) -> None:
        text = self.scenario.model_config
        self.config_status.object = derived_html(parse_config(text)) if text else ""

    # -- layout --------------------------------------------------------------------------
    def own_model(self) -> pn.Column:
        """The text box for a pasted config.json and what it derives."""
        return pn.Column(
            LiveHTML(
                '<div class="lab small muted">Paste a Hugging Face config.json. Nothing is '
                "fetched: the shape is read from the text.</div>",
                margin=(0, 0),
            ),
            self.config_text,
            self.use_config,
            self.config_status,
            sizing_mode="stretch_width",
            margin=0,
        )

    def own_card(self) -> pn.Column:
        """The form for a card typed in by hand (used when the card is 'my own card')."""
        s, form = self.scenario, {"sizing_mode": "stretch_width"}
        w = self.card_inputs = {
            "card_memory_gb": pn.widgets.FloatInput.from_param(s.param.card_memory_gb, label="memory (GB)", **form),
            "card_tb_per_s": pn.widgets.FloatInput.from_param(s.param.card_tb_per_s, label="bandwidth (TB/s)", **form),
            "card_tflops": pn.widgets.FloatInput.from_param(s.param.card_tflops, label="peak (TFLOP/s)", **form),
            "usd_per_gpu_hour": pn.widgets.FloatInput.from_param(s.param.usd_per_gpu_hour, label="$ per hour", **form),
        }  # fmt: skip
        return pn.Column(
            pn.Row(w["card_memory_gb"], w["card_tb_per_s"], sizing_mode="stretch_width", margin=0),
            pn.Row(w["card_tflops"], w["usd_per_gpu_hour"], sizing_mode="stretch_width", margin=0),
            LiveHTML(
                '<div class="lab small muted">Pick "my own card" above to run on it. The '
                "peak is used whatever the weight storage; with no price the lab assumes "
                f"${CUSTOM_CARD_USD_PER_HOUR:.2f} an hour.</div>",
                margin=(0, 0),
            ),
            sizing_mode="stretch_width",
            margin=0,
        )

    def _build(self) -> pn.Column:
        # The "bring your own" forms are built on first opening: most sessions never open
        # them, and even two collapsed panels would double what the picker costs to build.
        self.own = None
        self.own_toggle = pn.widgets.Toggle(
            label="Bring your own model or card", color="primary", variant="outline",
            sizing_mode="stretch_width", margin=(8, 10, 4, 10),
        )  # fmt: skip
        self.own_toggle.param.watch(self._toggle_own, "value")
        return pn.Column(
            *([self.model] if self.show_model else []),
            pn.Row(self.gpu, self.cards, sizing_mode="stretch_width", margin=0),
            self.weights,
            self.own_toggle,
            sizing_mode="stretch_width",
            margin=0,
        )

    def _toggle_own(self, event) -> None:
        if self.own is None and event.new:
            self.own = pn.Column(
                ui.heading("Your model: a config.json"), self.own_model(),
                ui.heading("Your card"), self.own_card(),
                sizing_mode="stretch_width", margin=0,
            )  # fmt: skip
            self._layout.append(self.own)
        elif self.own is not None:
            self.own.visible = event.new

    def __panel__(self):
        return self._layout
