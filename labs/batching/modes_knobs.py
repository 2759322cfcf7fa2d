"""The serving-modes card's knobs as widgets."""

from __future__ import annotations

import panel as pn

LINK_LABELS = {"NVLink": "nvlink", "InfiniBand": "infiniband"}


def modes_widgets(card) -> dict:
    """The card's widgets, by the knob each drives."""
    wide = {"sizing_mode": "stretch_width"}
    # set on release: every value a drag passed would rerun the three designs
    slider = {**wide, "throttled": True}
    return {
        "arrival_rate": pn.widgets.FloatSlider.from_param(
            card.param.arrival_rate, label="Arrivals per second", step=0.5, **slider
        ),
        "requests": pn.widgets.IntSlider.from_param(
            card.param.requests, label="Requests", step=10, **slider
        ),
        "prompt_tokens": pn.widgets.IntSlider.from_param(
            card.param.prompt_tokens, label="Short prompt (tokens)", step=16, **slider
        ),
        "answer_mean": pn.widgets.IntSlider.from_param(
            card.param.answer_mean, label="Mean answer (tokens)", **slider
        ),
        "long_every": pn.widgets.IntSlider.from_param(
            card.param.long_every, label="One long prompt in every", step=10, **slider
        ),
        "long_prompt_tokens": pn.widgets.IntSlider.from_param(
            card.param.long_prompt_tokens, label="Long prompt (tokens)", step=1024, **slider
        ),
        "batch_size": pn.widgets.IntSlider.from_param(
            card.param.batch_size, label="Seats per node", **slider
        ),
        "prefill_cards": pn.widgets.IntSlider.from_param(
            card.param.prefill_cards, label="Prefill nodes x", **slider
        ),
        "decode_cards": pn.widgets.IntSlider.from_param(
            card.param.decode_cards, label="Decode nodes y", **slider
        ),
        "chunk_tokens": pn.widgets.IntSlider.from_param(
            card.param.chunk_tokens, label="Chunk budget (tokens a step)", step=64, **slider
        ),
        "link": pn.widgets.RadioButtonGroup.from_param(
            card.param.link,
            options=LINK_LABELS,
            color="primary",
            variant="outline",
            **wide,
        ),
        "seed": pn.widgets.IntInput.from_param(card.param.seed, label="Seed", **wide),
    }
