"""The model pasted as a config.json and the card entered by hand, as catalog entries.

A scenario names them ``"custom"``; their figures come from the scenario's own knobs
(``model_config``, ``card_memory_gb``, ``card_tb_per_s``, ``card_tflops``), so each page
owns its own and a link carries them.
"""

from __future__ import annotations

import functools
from dataclasses import replace

import numpy as np

from core.catalog.cards import (
    CUSTOM_CARD_LINK_BYTES_PER_S,
    CUSTOM_CARD_USD_PER_HOUR,
    DEFAULT_GPU,
    GB,
    GPUS,
    H100_MEASURED_SHARES,
    Gpu,
)
from core.catalog.config_json import DerivedModel, parse_config
from core.catalog.models import ModelShape
from core.foundation.validation import knob_error

CUSTOM = "custom"
# Distinct pasted configs a process keeps parsed (each at most MAX_CONFIG_CHARS of text).
_PARSED_CONFIGS = 32


@functools.lru_cache(maxsize=_PARSED_CONFIGS)
def parsed_config(text: str) -> DerivedModel:
    """:func:`core.catalog.config_json.parse_config` of ``text``, parsed once per process.

    A scenario's pasted config is read by its validation, its evaluation and the step
    engine's costs; keyed by the text, each reads the one frozen record. A text that does
    not parse raises every time (errors are not kept).
    """
    return parse_config(text)


def custom_gpu(knobs: dict) -> Gpu:
    """The card the scenario's form describes: memory, bandwidth, one dense peak.

    The peak is used for every weight format; what kernels reach at the engine level is the
    H100's measured share of each peak, and the card-to-card link is NVLink-class.
    """
    memory = float(knobs["card_memory_gb"]) * GB
    bandwidth = float(knobs["card_tb_per_s"]) * 1e12
    flops = float(knobs["card_tflops"]) * 1e12
    shares = H100_MEASURED_SHARES
    return Gpu(
        CUSTOM,
        memory_bytes=memory,
        hbm_bytes_per_s=bandwidth,
        bf16_flops=flops,
        fp8_flops=flops,
        usd_per_hour=CUSTOM_CARD_USD_PER_HOUR,
        source="entered by hand",
        price_source="entered by hand, or assumed when left empty",
        achieved_hbm_bytes_per_s=bandwidth * shares["bw"],
        achieved_bf16_flops=flops * shares["bf16"],
        achieved_fp8_flops=flops * shares["fp8"],
        achieved_source="the H100's measured shares of its peaks",
        link_bytes_per_s=CUSTOM_CARD_LINK_BYTES_PER_S,
        link_source="assumed NVLink-class, as the H100's",
        fp4_flops=flops,
        achieved_fp4_flops=flops * shares["fp8"],
    )


# Headroom a pasted model's usual node leaves beside its weights: a tenth of its memory.
USUAL_CARDS_HEADROOM = 0.9
MOST_CARDS = 64


def usual_cards(weight_bytes: float, card_memory_bytes: float) -> int:
    """Fewest cards, a power of two, whose memory holds the weights with a tenth to spare.

    Notes
    -----
    .. math:: c = \\min\\{2^i : W \\le 0.9\\, c\\, M\\}, \\quad c \\le 64
    """
    cards = 1
    while cards < MOST_CARDS and weight_bytes > USUAL_CARDS_HEADROOM * cards * card_memory_bytes:
        cards *= 2
    return cards


def custom_model(knobs: dict) -> ModelShape:
    """The model the scenario's pasted config.json describes.

    Its usual card count is :func:`usual_cards` on the scenario's card and weight storage
    (an H100 in bf16 when either is swept).

    Raises
    ------
    ValueError
        Naming ``model_config`` when no config is pasted or it does not parse.
    """
    from core.catalog import BYTES_PER_WEIGHT

    text = knobs.get("model_config") or ""
    if not text:
        raise knob_error("model_config", "", "a pasted config.json when model is 'custom'")
    shape = parsed_config(text).shape
    gpu, dtype = knobs.get("gpu", DEFAULT_GPU), knobs.get("weight_dtype", "bf16")
    if not isinstance(gpu, str) or not isinstance(dtype, str):
        gpu, dtype = DEFAULT_GPU, "bf16"
    memory = custom_gpu(knobs).memory_bytes if gpu == CUSTOM else GPUS[gpu].memory_bytes
    return replace(shape, cards=usual_cards(shape.params * BYTES_PER_WEIGHT[dtype], memory))


def _names(keys) -> set:
    if isinstance(keys, str):
        return {keys}
    return set(np.asarray(keys[0]).tolist())


def with_custom(table: dict, keys, knobs: dict, make=custom_model) -> dict:
    """``table`` plus the ``"custom"`` entry built from ``knobs`` when ``keys`` name it."""
    if CUSTOM not in _names(keys):
        return table
    return {**table, CUSTOM: make(knobs)}


def scenario_shape(scenario) -> ModelShape:
    """The dimensions ``scenario`` runs: its pasted model, its named model, or its tier's."""
    from core.catalog import model_shape  # the catalog re-exports this module's neighbours

    if scenario.model == CUSTOM:
        return custom_model(scenario.knobs())
    return model_shape(scenario.model, scenario.tier)


def scenario_gpu(scenario) -> Gpu:
    """The card ``scenario`` runs on: the catalog's, or the one entered by hand."""
    from core.catalog import GPUS

    return custom_gpu(scenario.knobs()) if scenario.gpu == CUSTOM else GPUS[scenario.gpu]
