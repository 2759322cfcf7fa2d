"""A pasted config.json's dimensions and the parameters counted from them.

:mod:`core.catalog.config_json` reads a config in order: load it, check it is a decoder, then
here the attention's dimensions (:func:`attention_dims`), the MLP's, dense or a mixture of
experts (:func:`mlp_dims`), and the parameter count of both (:func:`attention_params`,
:func:`count_params`). Each field is read by :mod:`core.catalog.config_fields`, strictly and
within the plausible range of published models.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.catalog.config_fields import (
    SPANS,
    check_params,
    error,
    first_width,
    flag,
    found,
    items,
    optional,
    required,
    whole,
)
from core.catalog.config_layers import moe_layer_flags

# Model types whose MLP has two matrices (GPT-2's up and down), not a gated MLP's three.
UNGATED = {
    "gpt2",
    "gpt_neox",
    "gptj",
    "opt",
    "falcon",
    "bloom",
    "phi",
    "starcoder2",
    "gpt_bigcode",
    "nemotron_h",
}


@dataclass(frozen=True)
class Attention:
    """The dimensions every later step reads: layers, widths, heads and vocabulary, checked."""

    layers: int
    hidden: int
    heads: int
    kv_heads: int
    head_dim: int
    vocab: int


@dataclass(frozen=True)
class Mlp:
    """The feed-forward part: dense or a mixture of experts, and which layers hold experts."""

    experts: int
    per_token: int
    dense_ffn: int
    expert_ffn: int
    gated: int  # matrices in one MLP: 3 for a gated (SwiGLU) MLP, 2 for GPT-2's
    moe_layers: int
    shared: int
    shared_ffn: int


def attention_dims(data: dict) -> Attention:
    """Layers, hidden size, heads, head dimension and vocabulary, each in its plausible range."""
    layers = required(data, "layers")
    hidden = required(data, "hidden")
    heads = required(data, "heads")
    vocab = required(data, "vocab")
    multi_query = flag(data, "multi_query")
    kv_heads = 1 if multi_query else optional(data, "num_key_value_heads", heads, high=heads)
    if heads % kv_heads:
        raise error(
            f"has {heads:,} query heads and {kv_heads:,} KV heads: the query heads must be a "
            "whole multiple of the KV heads ('num_key_value_heads')"
        )
    if data.get("head_dim") is not None:
        head_dim = whole("head_dim", data["head_dim"])
    elif data.get("attention_head_dim") is not None:  # Nemotron-H's name for it
        head_dim = whole("attention_head_dim", data["attention_head_dim"])
    else:  # the head dimension is the hidden size split among the heads
        fewest = SPANS["head_dim"].low
        head_dim = hidden // heads
        if head_dim < fewest:
            name = found(data, "heads")[0]
            raise error(
                f"'s '{name}' is {heads:,}: with a hidden size of {hidden:,} and no 'head_dim', "
                f"a head would have {head_dim} of the {fewest} dimensions it needs at least; it "
                f"must be 1 to {hidden // fewest:,}, or the config must state 'head_dim'"
            )
    return Attention(layers, hidden, heads, kv_heads, head_dim, vocab)


def _experts(data: dict) -> tuple[int, int]:
    """(experts, experts each token takes); (1, 1) for a dense model."""
    experts = 0
    for name in ("num_local_experts", "num_experts", "n_routed_experts"):
        if data.get(name) is not None:
            experts = whole(name, data[name])
            break
    if experts <= 1:
        return 1, 1
    for name in ("num_experts_per_tok", "experts_per_token"):
        value = data.get(name)
        if value is None:
            continue
        if value == experts and not isinstance(value, bool):
            raise error(
                f"'s '{name}' is {experts:,}, every one of its {experts:,} experts: a model whose "
                f"tokens all take every expert is dense; it must be 1 to {experts - 1:,}"
            )
        return experts, whole(name, value, high=experts - 1)
    raise error("has experts but no 'num_experts_per_tok': a mixture of experts needs the field")


def _expert_layers(data: dict, layers: int, model_type: str) -> list[bool]:
    """Which layers hold experts: DeepSeek's leading dense layers, Qwen's and Llama 4's steps."""
    first_dense = optional(data, "first_k_dense_replace")
    step = optional(data, "interleave_moe_layer_step") or optional(data, "decoder_sparse_step")
    step = step or optional(data, "moe_layer_freq", 1, low=1)
    dense_only = set(items(data, "mlp_only_layers", int))
    if moe_layer_flags(data, layers) is not None:
        return moe_layer_flags(data, layers)  # Jamba's expert_layer_period
    if model_type.startswith("llama4") and step > 1:
        return [(i + 1) % step == 0 for i in range(layers)]  # Llama 4: the last of each step
    return [i >= first_dense and (i - first_dense) % step == 0 and i not in dense_only
            for i in range(layers)]  # fmt: skip


def mlp_dims(data: dict, model_type: str, layers: int) -> Mlp:
    """The MLP of every layer: its widths, and for a mixture its experts and shared experts."""
    experts, per_token = _experts(data)
    moe = experts > 1
    dense_names = ("intermediate_size_mlp", "intermediate_size", "n_inner", "ffn_dim")
    stated = next((name for name in dense_names if data.get(name) is not None), None)
    dense_ffn = None if stated is None else whole(stated, data[stated])
    expert_ffn = (
        first_width(data, ("moe_intermediate_size", "intermediate_size")) if moe else dense_ffn
    )
    if dense_ffn is None or expert_ffn is None:
        raise error("has no 'intermediate_size': a config needs the field")
    moe_layers = sum(_expert_layers(data, layers, model_type)) if moe else 0
    shared = optional(data, "n_shared_experts") or (1 if model_type.startswith("llama4") else 0)
    shared_ffn = shared * expert_ffn + optional(data, "shared_expert_intermediate_size")
    gated = 3 if model_type not in UNGATED else 2
    return Mlp(experts, per_token, dense_ffn, expert_ffn, gated, moe_layers, shared, shared_ffn)


def attention_params(data: dict, dims: Attention) -> tuple[float, dict]:
    """Parameters of one attention block, and the MLA dimensions when it has them."""
    hidden, heads, kv_heads, head_dim = dims.hidden, dims.heads, dims.kv_heads, dims.head_dim
    rank = optional(data, "kv_lora_rank")
    if rank:
        rope = optional(data, "qk_rope_head_dim")
        nope = optional(data, "qk_nope_head_dim", head_dim)
        v_dim = optional(data, "v_head_dim", nope)
        q_rank = optional(data, "q_lora_rank")
        q = (
            hidden * q_rank + q_rank + q_rank * heads * (nope + rope)
            if q_rank
            else hidden * heads * (nope + rope)
        )
        kv = hidden * (rank + rope) + rank + rank * heads * (nope + v_dim)
        mla = {"kv_lora_rank": rank, "qk_rope_head_dim": rope, "head_dim": v_dim}
        return q + kv + heads * v_dim * hidden, mla
    weights = hidden * head_dim * (2 * heads + 2 * kv_heads)
    bias = head_dim * (heads + 2 * kv_heads) + hidden if flag(data, "attention_bias") else 0
    return weights + bias, {}


def count_params(dims: Attention, mlp: Mlp, attention: float, tied: bool) -> tuple[float, float]:
    """(total, active) parameters counted from the dimensions.

    See :func:`core.catalog.config_json.parse_config` for the equations.
    """
    hidden = dims.hidden
    one_expert = mlp.gated * hidden * mlp.expert_ffn
    moe_block = (
        mlp.experts * one_expert + mlp.gated * hidden * mlp.shared_ffn + hidden * mlp.experts
    )
    embedding = dims.vocab * hidden
    total = embedding * (1 if tied else 2) + dims.layers * (attention + 2 * hidden) + hidden
    total += mlp.moe_layers * moe_block
    total += (dims.layers - mlp.moe_layers) * mlp.gated * hidden * mlp.dense_ffn
    skipped = mlp.moe_layers * (mlp.experts - mlp.per_token) * one_expert
    check_params(total)
    return float(total), float(total - skipped - (0 if tied else embedding))
