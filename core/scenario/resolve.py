"""Knob values for one evaluation: overrides checked against their ranges, catalog figures looked up by name."""

from __future__ import annotations

import numpy as np
import param

from core.catalog import BYTES_PER_NUMBER, GPUS, MODELS, TIERS, WEIGHT_FORMATS
from core.catalog.engine_versions import versions_of
from core.catalog.tiers import OFFLOADS
from core.catalog.workloads import WORKLOADS
from core.foundation.validation import check_array, check_choice, knob_error
from core.foundation.vector import is_array, where
from core.scenario.knobs import (
    CUSTOM,
    ENGINE_RELEASES,
    KNOBS,
    KV_LINKS,
    LAYOUTS,
    REALISMS,
    SERVING_ENGINES,
    SERVING_MODES,
    NamedChoice,
    Scenario,
    canonical_choice,
)

_CHOICES = {
    "workload": list(WORKLOADS),
    "tier": list(TIERS),
    "model": [None, *MODELS, CUSTOM],
    "gpu": [*GPUS, CUSTOM],
    "weight_dtype": list(WEIGHT_FORMATS),
    "kv_dtype": list(BYTES_PER_NUMBER),
    "realism": REALISMS,
    "serving_mode": SERVING_MODES,
    "kv_link": KV_LINKS,
    "engine": SERVING_ENGINES,
    "layout": LAYOUTS,
    "kv_offload": OFFLOADS,
    "engine_version": [None, *ENGINE_RELEASES],
}
# Every knob declared as a whole number (a Count) is refused as a fraction on every path.
_INTEGER_KNOBS = {name for name in KNOBS if isinstance(Scenario.param[name], param.Integer)}
# The custom card's knobs and the pasted config are one value per evaluation, never swept.
_SCALAR_KNOBS = {
    "model_config",
    "card_memory_gb",
    "card_tb_per_s",
    "card_tflops",
    "traffic",
    "router",
    "prefix_source",
}

# Tier names and model names share one table; they never clash.
SHAPES = {**TIERS, **MODELS}


def check_override(knob: str, value):
    """``value`` for ``knob`` once checked: a choice, a single value, or numbers in range.

    Raises
    ------
    ValueError
        Naming the knob, the value and what it allows.
    """
    spec = Scenario.param[knob]
    if isinstance(spec, NamedChoice):  # a choice that also takes its names as people write them
        value = canonical_choice(value, spec.objects, spec.aliases)
    if knob in _CHOICES:
        return check_choice(knob, value, _CHOICES[knob])
    if knob in _SCALAR_KNOBS:
        if is_array(value):
            raise knob_error(knob, value, "a single value (it cannot be swept)")
        spec = Scenario.param[knob]
        spec._validate(value)
        return value
    spec = Scenario.param[knob]
    integer = knob in _INTEGER_KNOBS
    missing = np.equal(np.asarray(value, dtype=object), None)
    if missing.any():
        if not spec.allow_None:
            raise knob_error(knob, None, "a number")
        if missing.ndim == 0:
            return None
        # None entries take the default; the others are checked as numbers.
        given = np.asarray(value, dtype=object)[~missing]
        check_array(knob, given, spec.bounds, spec.inclusive_bounds, integer)
        return np.asarray(value, dtype=object)
    return check_array(knob, value, spec.bounds, spec.inclusive_bounds, integer)


def checked_knobs(scenario: Scenario | None, overrides: dict) -> dict:
    """The scenario's knobs (``Scenario()`` when None) with each override checked and applied."""
    knobs = (scenario or Scenario()).knobs()
    for knob, value in overrides.items():
        if knob not in knobs:
            raise knob_error(knob, value, f"a knob of Scenario: one of {', '.join(KNOBS)}")
        knobs[knob] = check_override(knob, value)
    check_engine_release(knobs["engine"], knobs["engine_version"])
    return knobs


def check_engine_release(engine, release):
    """Check that each chosen release (None: the newest) is one its engine has in the catalog.

    Raises
    ------
    ValueError
        Naming ``engine_version``, the value and the engine's releases.
    """
    if release is None:
        return
    engines, releases = np.broadcast_arrays(
        np.asarray(engine, dtype=object), np.asarray(release, dtype=object)
    )
    for name, version in dict.fromkeys(zip(engines.flat, releases.flat, strict=True)):
        allowed = versions_of(name)
        if version is not None and version not in allowed:
            raise knob_error(
                "engine_version",
                version,
                f"None or a release of {name}: one of {', '.join(allowed)}",
            )


def factorize(keys):
    """A name as it is, or an array of names as (unique names, index of each)."""
    if isinstance(keys, str):
        return keys
    keys = np.asarray(keys)
    if keys.ndim == 0:
        return keys.item()
    unique, index = np.unique(
        keys.astype(str) if keys.dtype == object else keys, return_inverse=True
    )
    return unique, index.reshape(keys.shape)


def pick(keys, table: dict, attribute: str):
    """``table[key].attribute`` for a factorized name or array of names."""
    if isinstance(keys, str):
        return np.float64(getattr(table[keys], attribute))
    unique, index = keys
    return np.array([getattr(table[key], attribute) for key in unique], dtype=float)[index]


def pick_text(keys, table: dict, attribute: str):
    """``table[key].attribute`` for text attributes, as a name or an object array of names."""
    if isinstance(keys, str):
        return getattr(table[keys], attribute)
    unique, index = keys
    return np.array([getattr(table[key], attribute) for key in unique], dtype=object)[index]


def shape_keys(model, tier):
    """The catalog key giving the model's dimensions: the named model, else the tier."""
    if not is_array(model):
        model = np.asarray(model, dtype=object).item()
        if model is not None:
            return model
        return tier if is_array(tier) else np.asarray(tier, dtype=object).item()
    model, tier = np.broadcast_arrays(
        np.asarray(model, dtype=object), np.asarray(tier, dtype=object)
    )
    return np.where(np.equal(model, None), tier, model)


def with_default(value, default):
    """``value`` as floats where given, ``default`` where it is None (a number or an array)."""
    if value is None:
        return default
    if not is_array(value):
        return np.float64(np.asarray(value, dtype=object).item())
    value = np.asarray(value, dtype=object)
    missing = np.equal(value, None)
    return np.where(missing, default, np.where(missing, 0, value).astype(float))


def or_default(value, keys, table, attribute):
    """``value`` where given, else the catalog's figure for ``keys``."""
    return with_default(value, pick(keys, table, attribute))


def is_named(value, name):
    """Whether a choice (or each of an array of choices) is ``name``."""
    if isinstance(value, str):
        return value == name
    return np.equal(np.asarray(value, dtype=object), name)


def closed_loop_users(concurrency):
    """Closed-loop users as floats, NaN where the load is open-loop arrivals."""
    return with_default(concurrency, np.nan)


def run_length(run_requests):
    """The requests a closed-loop run sends in all, as floats; inf where it never stops."""
    return with_default(run_requests, np.inf)


def stated_batch_limit(batch_limit):
    """The batch limit a benchmark's command sets, as floats; inf where it sets none."""
    return with_default(batch_limit, np.inf)


def stated_memory_share(memory_share):
    """The share of each card's memory a benchmark's command gives the engine, as floats; NaN
    where it sets none (the release's own)."""
    return with_default(memory_share, np.nan)


def stated_recv_interval(recv_interval):
    """The decode steps between the scheduler's polls for new requests, as floats; 1 where the
    command sets none (every step)."""
    return with_default(recv_interval, 1.0)


def tensor_peak(gpu, gpus, weight, prefix):
    """The tensor rate a weight format multiplies at: bf16, fp8, or fp4 where the card has it.

    ``prefix`` is "" for datasheet peaks and "achieved_" for measured rates. A 4-bit weight on
    a card without fp4 tensor cores is unpacked and multiplied at the bf16 rate.
    """
    compute = pick_text(weight, WEIGHT_FORMATS, "compute")
    bf16 = pick(gpu, gpus, f"{prefix}bf16_flops")
    fp4 = pick(gpu, gpus, f"{prefix}fp4_flops")
    fp4 = where(fp4 > 0, fp4, bf16)
    return where(is_named(compute, "fp8"), pick(gpu, gpus, f"{prefix}fp8_flops"),
                 where(is_named(compute, "fp4"), fp4, bf16))  # fmt: skip
