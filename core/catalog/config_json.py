"""Bring your own model: the shape of a decoder-only transformer read from its config.json.

A student pastes a Hugging Face ``config.json``; nothing is fetched. :func:`parse_config` reads
the dimensions the capacity model needs (layers, heads, head dim, hidden and MLP sizes,
vocabulary, tied embeddings, experts, multi-head latent attention, sliding windows) and counts
the parameters from them, and :func:`compact_config` keeps only the fields it read, small
enough to live in a shareable link. Bad input raises :class:`ConfigError` (a ``ValueError``)
naming the field; :mod:`core.catalog.config_fields` reads each field strictly, within the
plausible range of published models, and :mod:`core.catalog.config_dims` counts the parameters.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

from core.catalog import MODELS, ModelShape
from core.catalog.checkpoints import checkpoint_format
from core.catalog.config_dims import attention_dims, attention_params, count_params, mlp_dims
from core.catalog.config_fields import (
    KNOB,
    ConfigError,
    error,
    flag,
    found,
    items,
    model_name,
    optional,
    shown,
    text,
    whole,
)
from core.catalog.config_layers import KEPT as _LAYER_FIELDS
from core.catalog.config_layers import shape_layer_fields

__all__ = ["KNOB", "ConfigError", "DerivedModel", "compact_config", "custom_shape", "parse_config"]

MAX_CONFIG_CHARS = 200_000
# Fields read; the compact form keeps these only.
_KEPT = {
    "quantization_config", "model_type", "architectures", "_name_or_path", "is_encoder_decoder", "num_hidden_layers",
    "n_layer", "n_layers", "num_layers", "hidden_size", "n_embd", "d_model", "num_attention_heads",
    "n_head", "num_heads", "num_key_value_heads", "multi_query", "head_dim", "intermediate_size",
    "intermediate_size_mlp", "n_inner", "ffn_dim", "vocab_size", "tie_word_embeddings",
    "attention_bias", "num_local_experts", "num_experts", "n_routed_experts",
    "num_experts_per_tok", "experts_per_token", "moe_intermediate_size", "n_shared_experts",
    "shared_expert_intermediate_size", "first_k_dense_replace", "moe_layer_freq",
    "decoder_sparse_step", "mlp_only_layers", "interleave_moe_layer_step", "kv_lora_rank",
    "q_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim", "sliding_window",
    "use_sliding_window", "sliding_window_pattern", "layer_types", "attention_chunk_size",
    "no_rope_layers", "text_config", "index_topk", "index_head_dim", "index_n_heads",
    *_LAYER_FIELDS,
}  # fmt: skip
_NOT_DECODER = {
    "bert", "roberta", "deberta", "deberta-v2", "distilbert", "electra", "albert", "t5", "mt5",
    "bart", "mbart", "pegasus", "marian", "whisper", "vit", "clip", "siglip", "wav2vec2",
}  # fmt: skip
_WINDOW_TYPES = {"sliding_attention", "chunked_attention", "local_attention"}
# model types whose attention has sinks, a learned logit per head (transformers'
# GptOssAttention holds ``sinks``; its config.json states no field for them)
SINK_MODEL_TYPES = frozenset({"gpt_oss"})


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


def _load(text: str) -> dict:
    """The config's JSON object, the language model's part of a multimodal one."""
    if not isinstance(text, str):
        raise error("is not text: paste the text of a Hugging Face config.json")
    if not text.strip():
        raise error("is empty: paste the text of a Hugging Face config.json")
    if len(text) > MAX_CONFIG_CHARS:
        raise error(f"is {len(text):,} characters long: it must be at most {MAX_CONFIG_CHARS:,}")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as failure:
        reason = failure.msg[:1].lower() + failure.msg[1:]
        raise error(
            f"is not valid JSON: line {failure.lineno}, column {failure.colno} ({reason})"
        ) from None
    except RecursionError:
        raise error("is not a config.json: its lists or objects nest too deeply") from None
    except ValueError:  # Python refuses to read an integer of thousands of digits
        raise error("is not a config.json: it holds a number with thousands of digits") from None
    if not isinstance(data, dict):
        raise error("is not a JSON object: a config.json starts with '{'")
    text_config = data.get("text_config")
    if text_config is not None and not isinstance(text_config, dict):
        raise error(f"has a 'text_config' of {shown(text_config)}: it must be a JSON object")
    if text_config and found(data, "layers") is None:
        # multimodal configs (Llama 4, Qwen-VL, Gemma 3) nest the language model's shape
        data = {**text_config, "model_type": text_config.get("model_type", data.get("model_type"))}
    return data


def _check_decoder(data: dict) -> str:
    """The config's model type, once it is known to be a decoder-only transformer's."""
    model_type = text(data, "model_type").lower()
    architectures = " ".join(items(data, "architectures", str))
    if flag(data, "is_encoder_decoder") or model_type in _NOT_DECODER:
        raise error(
            f"describes a {shown(model_type)} model: only a decoder-only transformer's config "
            "can be served here"
        )
    if any(
        word in architectures for word in ("ForMaskedLM", "ForSequenceClassification", "Encoder")
    ):
        raise error(
            f"describes {shown(architectures)}: only a decoder-only transformer's config can be "
            "served here"
        )
    return model_type


def _windows(data: dict, layers: int, model_type: str) -> tuple[int, int]:
    """(window in tokens, layers that keep only the window)."""
    name = "sliding_window" if data.get("sliding_window") else "attention_chunk_size"
    window = whole(name, data[name]) if data.get(name) else 0
    types = items(data, "layer_types", str, length=layers)
    if types:
        return (window, sum(kind in _WINDOW_TYPES for kind in types)) if window else (0, 0)
    if not window or not flag(data, "use_sliding_window", True):
        return 0, 0
    if model_type.startswith("llama4"):
        if data.get("no_rope_layers") is None:
            return window, layers - layers // 4
        rope = items(data, "no_rope_layers", int, length=layers)  # 1 marks a chunked layer
        return window, sum(map(bool, rope))
    pattern = optional(data, "sliding_window_pattern")
    return window, layers - layers // pattern if pattern > 1 else layers


def parse_config(text: str) -> DerivedModel:
    """The model a pasted config.json describes.

    Each field is read as its JSON type and within the plausible range of
    :mod:`core.catalog.config_fields`, before any work that grows with the model is done.

    Raises
    ------
    ConfigError
        A ``ValueError`` naming the knob (``model_config``) and, in words for the student,
        what is wrong: not JSON, not a decoder-only transformer, or a field missing, of the
        wrong type or outside its plausible range, named.

    Notes
    -----
    Parameters are counted from the dimensions: embeddings :math:`V d` (twice unless tied);
    per layer, attention (:math:`d\\,d_h (2H + 2H_{kv})`, or MLA's projections), two norms,
    and a gated MLP :math:`3 d f` (dense), or :math:`(E + E_{shared})\\,3 d f_e + d E` with a
    router (mixture). Active parameters leave out the :math:`E - k` experts a token skips and
    the input embedding, which is looked up, not multiplied.
    """
    data = _load(text)
    model_type = _check_decoder(data)
    dims = attention_dims(data)
    mlp = mlp_dims(data, model_type, dims.layers)
    tied = flag(data, "tie_word_embeddings")
    notes = (
        [] if "tie_word_embeddings" in data else ["tie_word_embeddings not stated: counted untied"]
    )
    attention, mla = attention_params(data, dims)
    total, active = count_params(dims, mlp, attention, tied)
    window, window_layers = _windows(data, dims.layers, model_type)
    dense_mlp = mlp.gated * dims.hidden * mlp.dense_ffn
    change, layer_fields = shape_layer_fields(
        data, dims.layers, dims.hidden, attention, dense_mlp, latent=bool(mla)
    )
    total, active = total + change, active + change
    checkpoint, bf16_params = checkpoint_format(
        data.get("quantization_config"), layers=dims.layers, attention_params=attention,
        moe_layers=mlp.moe_layers, hidden=dims.hidden, experts=mlp.experts, vocab=dims.vocab,
        tied=tied,
    )  # fmt: skip
    shape = ModelShape(
        name=f"{model_name(data, model_type)} (pasted)",
        layers=dims.layers,
        kv_heads=dims.kv_heads,
        head_dim=mla.get("head_dim", dims.head_dim),
        params=total,
        active_params=active,
        cards=1,
        source="a pasted config.json: parameters counted from its dimensions",
        query_heads=dims.heads,
        hidden=dims.hidden,
        intermediate=mlp.expert_ffn,
        vocab=dims.vocab,
        experts=mlp.experts,
        experts_per_token=mlp.per_token,
        kv_lora_rank=mla.get("kv_lora_rank", 0),
        qk_rope_head_dim=mla.get("qk_rope_head_dim", 0),
        sliding_window=window if window_layers else 0,
        window_layers=window_layers if window else 0,
        shared_experts=mlp.shared,
        bf16_params=bf16_params,
        checkpoint_dtype=checkpoint,
        tied_embeddings=tied,
        attention_sinks=model_type in SINK_MODEL_TYPES,
        **layer_fields,
    )
    return DerivedModel(
        shape=shape,
        params_total=total,
        params_active=active,
        embedding_params=float(dims.vocab * dims.hidden),
        tied_embeddings=tied,
        shared_experts=mlp.shared,
        moe_layers=mlp.moe_layers,
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
    if isinstance(kept.get("quantization_config"), dict):  # only what the storage reads
        kept["quantization_config"] = {
            key: value for key, value in kept["quantization_config"].items()
            if key in ("quant_method", "modules_to_not_convert")
        }  # fmt: skip
    return json.dumps(kept, separators=(",", ":"), sort_keys=True)


def custom_shape(text: str, cards: int | None = None) -> ModelShape:
    """The shape a scenario with ``model='custom'`` runs; ``cards`` sets its usual card count."""
    shape = parse_config(text).shape
    return shape if cards is None else replace(shape, cards=cards)
