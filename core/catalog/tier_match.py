"""Which walkthrough tier a model is: the named or pasted model that has a tier's own shape.

A famous failure's goal keeps "the 70B model"; the exact ``Llama-3-70B`` picked by name keeps it
too, since the tier is that model's shape with its parameters rounded.
"""

from __future__ import annotations

from core.catalog.models import TIERS, ModelShape

# The dimensions that must match exactly; the parameter count may differ by its rounding.
_SHAPE_FIELDS = (
    "layers", "kv_heads", "head_dim", "query_heads", "hidden", "intermediate", "vocab",
    "experts", "experts_per_token", "kv_lora_rank", "sliding_window", "window_layers",
)  # fmt: skip
PARAMS_ROUNDING = 0.02  # the tiers round 8.03e9 and 70.55e9 to 8e9 and 70e9: under 1 %


def tier_of(shape: ModelShape) -> str | None:
    """The tier whose shape ``shape`` has, or None when it is another model.

    Notes
    -----
    A shape is tier ``t`` when every dimension in ``_SHAPE_FIELDS`` equals the tier's and
    ``|params - params_t| <= PARAMS_ROUNDING * params_t``.
    """
    for key, tier in TIERS.items():
        same = all(getattr(shape, name) == getattr(tier, name) for name in _SHAPE_FIELDS)
        if same and abs(shape.params - tier.params) <= PARAMS_ROUNDING * tier.params:
            return key
    return None
