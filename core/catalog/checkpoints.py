"""A checkpoint's storage per tensor, as a pasted config.json's ``quantization_config`` states it.

gpt-oss ships its experts in MXFP4 and keeps attention, the router, the embeddings and the
output head in bf16 (its ``modules_to_not_convert``); DeepSeek-V3 ships fp8 with a scale per
128 x 128 block (``weight_block_size``). The engine level holds those bf16 tensors at 2 bytes
and prices block-scaled fp8 with its own kernels.
"""

from __future__ import annotations

# A quantization_config's method, as the weight format the lab stores it in.
QUANT_METHODS = {"mxfp4": "mxfp4", "fp8": "fp8", "nvfp4": "nvfp4"}
# What modules_to_not_convert names, by the part of the model it keeps in bf16.
KEPT_PARTS = ("self_attn", "router", "embed_tokens", "lm_head")


def checkpoint_format(config, *, layers, attention_params, moe_layers, hidden, experts, vocab,
                      tied) -> tuple[str, float]:  # fmt: skip
    r"""(format, parameters kept in bf16) of the checkpoint ``config`` describes.

    ``config`` is the config.json's ``quantization_config`` (None when it has none). A method
    the lab knows is the checkpoint's format; each part ``modules_to_not_convert`` names
    (attention, router, embeddings, output head) is counted as kept in bf16. Anything else,
    or no config, is a bf16 checkpoint.

    Notes
    -----
    .. math:: P_{bf16} = L\,P_{attn} [attn] + L_E\,d\,E [router] + V d [embed] + V d [head]

    with the output head counted only when it is not tied to the embeddings.
    """
    if not isinstance(config, dict):
        return "bf16", 0.0
    method = config.get("quant_method")
    dtype = QUANT_METHODS.get(method.lower(), "bf16") if isinstance(method, str) else "bf16"
    if dtype == "bf16":
        return "bf16", 0.0
    names = config.get("modules_to_not_convert") or []
    names = [name for name in names if isinstance(name, str)] if isinstance(names, list) else []
    embedding = vocab * hidden
    parts = {
        "self_attn": layers * attention_params,
        "router": moe_layers * hidden * experts,
        "embed_tokens": embedding,
        "lm_head": 0 if tied else embedding,
    }
    kept = [part for part in KEPT_PARTS if any(part in name for name in names)]
    return dtype, float(sum(parts[part] for part in kept))


def kept_bf16_params(shape, weight: str) -> float:
    """Parameters ``shape``'s checkpoint in ``weight`` keeps in bf16: the published checkpoint's
    own (gpt-oss), and NVIDIA's NVFP4 one's where the weights are nvfp4 (DeepSeek-V3/R1)."""
    return shape.bf16_params + (shape.nvfp4_bf16_params if weight == "nvfp4" else 0.0)


def kept_embedding_params(shape, weight: str) -> float:
    r"""Parameters of the input embedding and output head a checkpoint in ``weight`` keeps in
    bf16 beyond the bf16 tensors it states (:func:`kept_bf16_params`).

    Quantisers rewrite the decoder's linear layers only: GPTQ and AWQ leave the embedding (not a
    linear layer) and the output head (``lm_head`` off by default) in 16 bits, and the FP8
    checkpoints of DeepSeek-V3, Qwen3 and NVIDIA's Model Optimizer keep them in bf16 too. A
    checkpoint that states its own bf16 tensors (gpt-oss's, NVIDIA's NVFP4 DeepSeek's, a pasted
    ``modules_to_not_convert``) is taken at its word; a bf16 checkpoint adds nothing (the engine
    level prices these at 2 bytes less the format's own).

    Notes
    -----
    .. math:: P = V d\,(2 - [tied]) \quad \text{where no bf16 tensor is stated}
    """
    if kept_bf16_params(shape, weight) > 0:
        return 0.0
    return float(shape.vocab * shape.hidden * (1 if shape.tied_embeddings else 2))
