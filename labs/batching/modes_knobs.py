"""The serving-modes card's knobs as widgets."""

from __future__ import annotations

import panel as pn
import param

LINK_LABELS = {"NVLink": "nvlink", "InfiniBand": "infiniband"}
# Each slider's label and step (None: the parameter's own), in the card's order.
SLIDERS = {
    "arrival_rate": ("Arrivals per second", 0.5),
    "requests": ("Requests", 10),
    "prompt_tokens": ("Short prompt (tokens)", 16),
    "answer_mean": ("Mean answer (tokens)", None),
    "long_every": ("One long prompt in every", 10),
    "long_prompt_tokens": ("Long prompt (tokens)", 1024),
    "batch_size": ("Seats per node", None),
    "prefill_cards": ("Prefill nodes x", None),
    "decode_cards": ("Decode nodes y", None),
    "chunk_tokens": ("Chunk budget (tokens a step)", 64),
}


def _slider(card, knob: str, **options):
    """The slider of ``knob``: whole numbers on an IntSlider, the rest on a FloatSlider."""
    label, step = SLIDERS[knob]
    whole = isinstance(card.param[knob], param.Integer)
    kind = pn.widgets.IntSlider if whole else pn.widgets.FloatSlider
    steps = {} if step is None else {"step": step}
    return kind.from_param(card.param[knob], label=label, **steps, **options)


def modes_widgets(card) -> dict:
    """The card's widgets, by the knob each drives."""
    wide = {"sizing_mode": "stretch_width"}
    # set on release: every value a drag passed would rerun the three designs
    sliders = {knob: _slider(card, knob, throttled=True, **wide) for knob in SLIDERS}
    return {
        **sliders,
        "link": pn.widgets.RadioButtonGroup.from_param(
            card.param.link,
            options=LINK_LABELS,
            color="primary",
            variant="outline",
            **wide,
        ),
        "seed": pn.widgets.IntInput.from_param(card.param.seed, label="Seed", **wide),
    }
