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
