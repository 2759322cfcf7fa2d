"""Bring your own model: the shape of a decoder-only transformer read from its config.json.

A student pastes a Hugging Face ``config.json``; nothing is fetched. :func:`parse_config` reads
the dimensions the capacity model needs (layers, heads, head dim, hidden and MLP sizes,
vocabulary, tied embeddings, experts, multi-head latent attention, sliding windows) and counts
the parameters from them, and :func:`compact_config` keeps only the fields it read, small
enough to live in a shareable link. Bad input raises ``ValueError`` naming the field.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, replace

from core.catalog import MODELS, ModelShape
from core.foundation.validation import knob_error

KNOB = "model_config"
MAX_CONFIG_CHARS = 200_000
# Fields read (each with the names configs use for it); the compact form keeps these only.
_ALIASES = {
    "layers": ("num_hidden_layers", "n_layer", "n_layers", "num_layers"),
    "hidden": ("hidden_size", "n_embd", "d_model"),
    "heads": ("num_attention_heads", "n_head", "num_heads"),
    "vocab": ("vocab_size",),
}
_KEPT = {
    "model_type", "architectures", "_name_or_path", "is_encoder_decoder", "num_hidden_layers",
    "n_layer", "n_layers", "num_layers", "hidden_size", "n_embd", "d_model", "num_attention_heads",
    "n_head", "num_heads", "num_key_value_heads", "multi_query", "head_dim", "intermediate_size",
    "intermediate_size_mlp", "n_inner", "ffn_dim", "vocab_size", "tie_word_embeddings",
    "attention_bias", "num_local_experts", "num_experts", "n_routed_experts",
    "num_experts_per_tok", "experts_per_token", "moe_intermediate_size", "n_shared_experts",
    "shared_expert_intermediate_size", "first_k_dense_replace", "moe_layer_freq",
    "decoder_sparse_step", "mlp_only_layers", "interleave_moe_layer_step", "kv_lora_rank",
    "q_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim", "sliding_window",
    "use_sliding_window", "sliding_window_pattern", "layer_types", "attention_chunk_size",
    "no_rope_layers", "text_config",
}  # fmt: skip
_NOT_DECODER = {
    "bert", "roberta", "deberta", "deberta-v2", "distilbert", "electra", "albert", "t5", "mt5",
    "bart", "mbart", "pegasus", "marian", "whisper", "vit", "clip", "siglip", "wav2vec2",
}  # fmt: skip
_UNGATED = {
    "gpt2",
    "gpt_neox",
    "gptj",
    "opt",
    "falcon",
    "bloom",
    "phi",
    "starcoder2",
    "gpt_bigcode",
}
_WINDOW_TYPES = {"sliding_attention", "chunked_attention", "local_attention"}


@dataclass(frozen=True)
class DerivedModel:
    """What a config.json says about a model, and the parameters counted from it.

    ``shape`` is what the capacity model runs; ``params_total`` and ``params_active`` are
    counted from the dimensions (active leaves out the experts a token skips and the input
    embedding, a lookup that costs no multiply); ``stated`` is the catalog model with the same
    dimensions, whose model card gives its own count, or None.
    """

    shape: ModelShape
    params_total: float
    params_active: float
    embedding_params: float
    tied_embeddings: bool
    shared_experts: int
    moe_layers: int
    stated: ModelShape | None
    notes: tuple[str, ...]


def _error(reason: str) -> ValueError:
    return knob_error(KNOB, "(pasted config.json)", reason)


def _load(text: str) -> dict:
    if not isinstance(text, str) or not text.strip():
        raise _error("a Hugging Face config.json: paste the file's text")
    if len(text) > MAX_CONFIG_CHARS:
        raise _error(f"at most {MAX_CONFIG_CHARS:,} characters long")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise _error(
            f"valid JSON ({error.msg} at line {error.lineno}, column {error.colno})"
        ) from None
    if not isinstance(data, dict):
        raise _error("a JSON object (a config.json starts with '{')")
    text_config = data.get("text_config")
    if isinstance(text_config, dict) and not _find(data, "layers"):
        # multimodal configs (Llama 4, Qwen-VL, Gemma 3) nest the language model's shape
        data = {**text_config, "model_type": text_config.get("model_type", data.get("model_type"))}
    return data


def _find(data: dict, what: str):
    for name in _ALIASES[what]:
        if data.get(name) is not None:
            return data[name]
    return None


def _whole(data: dict, name: str, value, low: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise _error(f"a config whose '{name}' is a whole number (it is {value!r})")
    if value != int(value) or value < low:
        raise _error(
            f"a config whose '{name}' is a whole number of at least {low} (it is {value!r})"
        )
    return int(value)


def _required(data: dict, what: str) -> int:
    value = _find(data, what)
    if value is None:
        names = " or ".join(f"'{name}'" for name in _ALIASES[what][:2])
        raise _error(f"a config with {names}: the field is missing")
    return _whole(data, _ALIASES[what][0], value)


def _optional(data: dict, name: str, default: int = 0, low: int = 0) -> int:
    value = data.get(name)
    return default if value is None else _whole(data, name, value, low)


def _check_decoder(data: dict) -> None:
    model_type = str(data.get("model_type", "")).lower()
    architectures = " ".join(str(a) for a in data.get("architectures") or [])
    if data.get("is_encoder_decoder") or model_type in _NOT_DECODER:
        raise _error(f"a decoder-only transformer's config; model_type '{model_type}' is not one")
    if any(
        word in architectures for word in ("ForMaskedLM", "ForSequenceClassification", "Encoder")
    ):
        raise _error(f"a decoder-only transformer's config; '{architectures}' is not one")


def _experts(data: dict) -> tuple[int, int]:
    experts = 0
    for name in ("num_local_experts", "num_experts", "n_routed_experts"):
        if data.get(name) is not None:
            experts = _whole(data, name, data[name], 0)
            break
    if experts <= 1:
        return 1, 1
    for name in ("num_experts_per_tok", "experts_per_token"):
        if data.get(name) is not None:
            per_token = _whole(data, name, data[name])
            if per_token > experts:
                raise _error(
                    f"a config whose '{name}' ({per_token}) is at most its experts ({experts})"
                )
            return experts, per_token
    raise _error(
        "a config with 'num_experts_per_tok': the field is missing for a mixture of experts"
    )


def _moe_layer_flags(data: dict, layers: int) -> list[bool]:
    """Which layers hold experts: DeepSeek's leading dense layers, Qwen's and Llama 4's steps."""
    first_dense = _optional(data, "first_k_dense_replace")
    step = _optional(data, "interleave_moe_layer_step", 0) or _optional(
        data, "decoder_sparse_step", 0
    )
    step = step or _optional(data, "moe_layer_freq", 1, 1)
    dense_only = set(data.get("mlp_only_layers") or [])
    if str(data.get("model_type", "")).startswith("llama4") and step > 1:
        return [(i + 1) % step == 0 for i in range(layers)]  # Llama 4: the last of each step
    return [i >= first_dense and (i - first_dense) % step == 0 and i not in dense_only
            for i in range(layers)]  # fmt: skip


def _windows(data: dict, layers: int) -> tuple[int, int]:
    """(window in tokens, layers that keep only the window)."""
    window = data.get("sliding_window") or data.get("attention_chunk_size") or 0
    window = _whole(data, "sliding_window", window, 0) if window else 0
    types = data.get("layer_types")
    if isinstance(types, list) and types:
        return (window, sum(str(t) in _WINDOW_TYPES for t in types)) if window else (0, 0)
    if not window or data.get("use_sliding_window") is False:
        return 0, 0
    if str(data.get("model_type", "")).startswith("llama4"):
        rope = data.get("no_rope_layers")  # 1 marks a chunked (rotary) layer
        return window, sum(map(bool, rope)) if isinstance(rope, list) else layers - layers // 4
    pattern = _optional(data, "sliding_window_pattern")
    return window, layers - layers // pattern if pattern > 1 else layers


def _attention_params(data, hidden, heads, kv_heads, head_dim) -> tuple[float, dict]:
    """Parameters of one attention block, and the MLA dimensions when it has them."""
    rank = _optional(data, "kv_lora_rank")
    if rank:
        rope = _optional(data, "qk_rope_head_dim")
        nope = _optional(data, "qk_nope_head_dim", head_dim)
        v_dim = _optional(data, "v_head_dim", nope)
        q_rank = _optional(data, "q_lora_rank")
        q = (
            hidden * q_rank + q_rank + q_rank * heads * (nope + rope)
            if q_rank
            else hidden * heads * (nope + rope)
        )
        kv = hidden * (rank + rope) + rank + rank * heads * (nope + v_dim)
        mla = {"kv_lora_rank": rank, "qk_rope_head_dim": rope, "head_dim": v_dim}
        return q + kv + heads * v_dim * hidden, mla
    weights = hidden * head_dim * (2 * heads + 2 * kv_heads)
    bias = head_dim * (heads + 2 * kv_heads) + hidden if data.get("attention_bias") else 0
    return weights + bias, {}


def parse_config(text: str) -> DerivedModel:
    """The model a pasted config.json describes.

    Raises
    ------
    ValueError
        Naming the knob (``model_config``) and what is wrong: not JSON, not a decoder-only
        transformer, or a missing or impossible field, named.

    Notes
    -----
    Parameters are counted from the dimensions: embeddings :math:`V d` (twice unless tied);
    per layer, attention (:math:`d\\,d_h (2H + 2H_{kv})`, or MLA's projections), two norms,
    and a gated MLP :math:`3 d f` (dense), or :math:`(E + E_{shared})\\,3 d f_e + d E` with a
    router (mixture). Active parameters leave out the :math:`E - k` experts a token skips and
    the input embedding, which is looked up, not multiplied.
    """
    data = _load(text)
    _check_decoder(data)
    layers = _required(data, "layers")
    hidden = _required(data, "hidden")
    heads = _required(data, "heads")
    vocab = _required(data, "vocab")
    kv_heads = 1 if data.get("multi_query") else _optional(data, "num_key_value_heads", heads, 1)
    if heads % kv_heads:
        raise _error(
            f"a config whose query heads ({heads}) are a multiple of its KV heads ({kv_heads})"
        )
    head_dim = _optional(data, "head_dim", hidden // heads, 1)
    experts, per_token = _experts(data)
    moe = experts > 1
    dense_ffn = next((data[n] for n in ("intermediate_size_mlp", "intermediate_size", "n_inner",
                                        "ffn_dim") if data.get(n) is not None), None)  # fmt: skip
    expert_ffn = data.get("moe_intermediate_size") or data.get("intermediate_size")
    if dense_ffn is None or (moe and expert_ffn is None):
        raise _error("a config with 'intermediate_size': the field is missing")
    dense_ffn = _whole(data, "intermediate_size", dense_ffn)
    expert_ffn = _whole(data, "moe_intermediate_size", expert_ffn) if moe else dense_ffn
    tied = bool(data.get("tie_word_embeddings", False))
    notes = (
        [] if "tie_word_embeddings" in data else ["tie_word_embeddings not stated: counted untied"]
    )

    attention, mla = _attention_params(data, hidden, heads, kv_heads, head_dim)
    model_type = str(data.get("model_type", "")).lower()
    gated = 3 if model_type not in _UNGATED else 2
    flags = _moe_layer_flags(data, layers) if moe else [False] * layers
    moe_layers = sum(flags)
    shared = _optional(data, "n_shared_experts") or (1 if model_type.startswith("llama4") else 0)
    shared_ffn = shared * expert_ffn + _optional(data, "shared_expert_intermediate_size")
    one_expert = gated * hidden * expert_ffn
    moe_block = experts * one_expert + gated * hidden * shared_ffn + hidden * experts
    embedding = vocab * hidden
    total = embedding * (1 if tied else 2) + layers * (attention + 2 * hidden) + hidden
    total += moe_layers * moe_block + (layers - moe_layers) * gated * hidden * dense_ffn
    skipped = moe_layers * (experts - per_token) * one_expert
    active = total - skipped - (0 if tied else embedding)

    window, window_layers = _windows(data, layers)
    name = str(data.get("_name_or_path") or model_type or "pasted model").split("/")[-1]
    shape = ModelShape(
        name=f"{name} (pasted)",
        layers=layers,
        kv_heads=kv_heads,
        head_dim=mla.get("head_dim", head_dim),
        params=float(total),
        active_params=float(active),
        cards=1,
        source="a pasted config.json: parameters counted from its dimensions",
        query_heads=heads,
        hidden=hidden,
        intermediate=expert_ffn,
        vocab=vocab,
        experts=experts,
        experts_per_token=per_token,
        kv_lora_rank=mla.get("kv_lora_rank", 0),
        qk_rope_head_dim=mla.get("qk_rope_head_dim", 0),
        sliding_window=window if window_layers else 0,
        window_layers=window_layers if window else 0,
    )
    return DerivedModel(
        shape=shape,
        params_total=float(total),
        params_active=float(active),
        embedding_params=float(embedding),
        tied_embeddings=tied,
        shared_experts=shared,
        moe_layers=moe_layers,
        stated=_stated(shape),
        notes=tuple(notes),
    )


def _stated(shape: ModelShape) -> ModelShape | None:
    """The catalog model with the same dimensions, whose model card states its parameters."""
    for model in MODELS.values():
        same = (model.layers, model.hidden, model.vocab, model.experts, model.query_heads)
        if same == (shape.layers, shape.hidden, shape.vocab, shape.experts, shape.query_heads):
            return model
    return None


def compact_config(text: str) -> str:
    """The config with only the fields :func:`parse_config` reads, as one line of JSON.

    Parsing the compact form gives the same model, and it is short enough for a link.
    """
    data = _load(text)
    kept = {key: value for key, value in data.items() if key in _KEPT and key != "text_config"}
    return json.dumps(kept, separators=(",", ":"), sort_keys=True)


def custom_shape(text: str, cards: int | None = None) -> ModelShape:
    """The shape a scenario with ``model='custom'`` runs; ``cards`` sets its usual card count."""
    shape = parse_config(text).shape
    return shape if cards is None else replace(shape, cards=cards)
