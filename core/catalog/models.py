"""The models the lab knows: the walkthrough's two tiers and named models, each with its source.

A model is the handful of dimensions the capacity model multiplies: layers, KV heads and head
dim for the cache (or the latent of multi-head latent attention, and the layers that keep only a
sliding window), parameters in total and per token for the weights and the arithmetic, and the
experts of a mixture. :mod:`core.catalog` re-exports everything here.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ModelShape:
    """The dimensions of a decoder-only transformer that the capacity model needs.

    ``intermediate`` is one expert's MLP width in a mixture of experts. ``kv_lora_rank`` above
    zero means multi-head latent attention: a layer caches ``kv_lora_rank + qk_rope_head_dim``
    numbers per token instead of keys and values per head. ``window_layers`` of the ``layers``
    keep only the last ``sliding_window`` tokens (0 when every layer sees the whole context).
    """

    name: str
    layers: int
    kv_heads: int
    head_dim: int
    params: float
    active_params: float
    cards: int
    source: str
    # the rest of the shape, used by the engine level (attention FLOPs, activations, experts)
    query_heads: int
    hidden: int
    intermediate: int
    vocab: int
    experts: int = 1
    experts_per_token: int = 1
    # attention variants: multi-head latent attention and sliding-window layers
    kv_lora_rank: int = 0
    qk_rope_head_dim: int = 0
    sliding_window: int = 0
    window_layers: int = 0
    # where a published KV-per-token figure or statement comes from, when there is one
    kv_source: str = ""
    # experts every token runs besides the routed ones (DeepSeek, Llama 4: one shared expert)
    shared_experts: int = 0
    # parameters the published checkpoint keeps in bf16 whatever its experts' format
    # (gpt-oss: attention, embeddings and router; its experts alone are MXFP4)
    bf16_params: float = 0.0
    # parameters NVIDIA's NVFP4 checkpoint of the model keeps in bf16 (attention first: its
    # GEMMs then run at bf16's floor), where the recipe that made it leaves them unquantised
    nvfp4_bf16_params: float = 0.0
    # the format the published checkpoint stores its weights in: gpt-oss's model card ships its
    # experts in MXFP4; DeepSeek-V3/R1's and Kimi K2's config.json quantization_config is fp8
    # with 128 x 128 weight blocks
    checkpoint_dtype: str = "bf16"
    # windowed layers attend within fixed chunks of ``sliding_window`` tokens (Llama 4's
    # attention_chunk_size) rather than to the last ``sliding_window`` tokens
    chunked_attention: bool = False
    # the output head is the input embedding's matrix (config.json tie_word_embeddings): small
    # models share it; every catalog model keeps two
    tied_embeddings: bool = False
    # hybrid models (Qwen3-Next, Nemotron-H, Jamba): ``state_layers`` of the ``layers`` keep a
    # constant-size state per sequence (linear attention or a state-space layer) of
    # ``state_numbers`` numbers each instead of a key and value per token; ``mlp_layers`` are
    # blocks with no attention at all (Nemotron-H's MLP-only blocks) and cache nothing
    state_layers: int = 0
    state_numbers: float = 0.0
    mlp_layers: int = 0
    state_kind: str = ""
    # DeepSeek sparse attention (V3.2): a lightning indexer caches ``indexer_dim`` numbers per
    # token per layer and picks the ``sparse_top_k`` tokens each query attends to
    sparse_top_k: int = 0
    indexer_dim: int = 0
    indexer_heads: int = 0
    # attention sinks (gpt-oss): a learned logit per head in each softmax's denominator, which
    # some engines' attention kernels cannot take (core.catalog.attention_kernels.SINK_PREFILL)
    attention_sinks: bool = False

    @property
    def cacheless_layers(self) -> int:
        """Layers that keep no key and value per token: state-space or linear, and MLP-only."""
        return self.state_layers + self.mlp_layers

    @property
    def state_numbers_per_sequence(self) -> float:
        """Numbers of constant-size state one sequence holds over all its state layers."""
        return self.state_layers * self.state_numbers

    @property
    def is_moe(self) -> bool:
        """True for a mixture of experts."""
        return self.experts > 1

    @property
    def attention(self) -> str:
        """The attention variant by its usual name: MHA, GQA, MQA or MLA."""
        if self.kv_lora_rank > 0:
            return "MLA"
        if self.kv_heads == self.query_heads:
            return "MHA"
        return "MQA" if self.kv_heads == 1 else "GQA"


_LLAMA3 = {"vocab": 128256}
_LLAMA3_8B_DIMS = {"query_heads": 32, "hidden": 4096, "intermediate": 14336, **_LLAMA3}
_LLAMA3_70B_DIMS = {"query_heads": 64, "hidden": 8192, "intermediate": 28672, **_LLAMA3}

# The two tiers of the walkthrough: round numbers for an 8B and a 70B class model.
TIERS: dict[str, ModelShape] = {
    "small": ModelShape(
        "8B class", 32, 8, 128, 8e9, 8e9, 1, "Llama-3-8B-like shape, rounded to 8e9 parameters",
        **_LLAMA3_8B_DIMS,
    ),
    "large": ModelShape(
        "70B class", 80, 8, 128, 70e9, 70e9, 2, "Llama-3-70B-like shape, rounded to 70e9 parameters",
        **_LLAMA3_70B_DIMS,
    ),
}  # fmt: skip

_HF = "published config.json on the Hugging Face Hub"
# Parameter counts as reported in each model card; Mixtral's active count is two of eight experts.
# Columns: layers, KV heads, head dim, parameters, active parameters, usual cards, source.
MODELS: dict[str, ModelShape] = {
    model.name: model
    for model in (
        ModelShape(
            "Llama-2-7B", 32, 32, 128, 6.74e9, 6.74e9, 1, f"meta-llama/Llama-2-7b-hf {_HF}",
            query_heads=32, hidden=4096, intermediate=11008, vocab=32000,
        ),
        ModelShape(
            "Llama-2-13B", 40, 40, 128, 13.0e9, 13.0e9, 1, f"meta-llama/Llama-2-13b-hf {_HF}",
            query_heads=40, hidden=5120, intermediate=13824, vocab=32000,
        ),
        ModelShape(
            "Llama-2-70B", 80, 8, 128, 68.98e9, 68.98e9, 2, f"meta-llama/Llama-2-70b-hf {_HF}",
            query_heads=64, hidden=8192, intermediate=28672, vocab=32000,
        ),
        ModelShape(
            "Llama-3-8B", 32, 8, 128, 8.03e9, 8.03e9, 1, f"meta-llama/Meta-Llama-3-8B {_HF}",
            **_LLAMA3_8B_DIMS,
        ),
        ModelShape(
            "Llama-3-70B", 80, 8, 128, 70.55e9, 70.55e9, 2, f"meta-llama/Meta-Llama-3-70B {_HF}",
            **_LLAMA3_70B_DIMS,
        ),
        ModelShape(
            "Mistral-7B", 32, 8, 128, 7.24e9, 7.24e9, 1, f"mistralai/Mistral-7B-v0.1 {_HF}",
            query_heads=32, hidden=4096, intermediate=14336, vocab=32000,
        ),
        ModelShape(
            "Mixtral-8x7B", 32, 8, 128, 46.7e9, 12.9e9, 2,
            f"mistralai/Mixtral-8x7B-v0.1 {_HF}; 12.9e9 active per token",
            query_heads=32, hidden=4096, intermediate=14336, vocab=32000,
            experts=8, experts_per_token=2,
        ),
        ModelShape(
            "Qwen2-7B", 28, 4, 128, 7.62e9, 7.62e9, 1, f"Qwen/Qwen2-7B {_HF}",
            query_heads=28, hidden=3584, intermediate=18944, vocab=152064,
        ),
        ModelShape(
            "Qwen2-72B", 80, 8, 128, 72.7e9, 72.7e9, 2, f"Qwen/Qwen2-72B {_HF}",
            query_heads=64, hidden=8192, intermediate=29568, vocab=152064,
        ),
    )
}  # fmt: skip

_MLA_PAPER = (
    "DeepSeek-V2 paper (arXiv 2405.04434), Table 1: MLA caches (d_c + d_h^R) = 4.5 d_h numbers "
    "per layer per token, 512 + 64 = 576 with d_h = 128"
)
_GPT_OSS_CARD = (
    "gpt-oss model card: grouped-query attention with 8 KV heads of 64, layers alternating "
    "between full attention and a 128-token banded window; each head has a learned bias in its "
    "softmax's denominator (attention sinks)"
)
_LLAMA4_CARD = (
    "Llama 4 config.json: attention_chunk_size 8192 on three layers of four (every fourth layer "
    "attends to the whole context); a chunk holds at most 8,192 tokens"
)
_QWEN3_CARD = "Qwen3 model cards: 4 KV heads (GQA), head dim 128"

# NVIDIA's NVFP4 checkpoints of DeepSeek-V3/R1 keep the latent attention, the embeddings, the
# output head and the router in bf16 (DEEPSEEK_NVFP4_SOURCE): per layer q_a 7168 x 1536,
# q_b 1536 x 128 x 192, kv_a 7168 x 576, kv_b 512 x 128 x 256 and o 128 x 128 x 7168, over 61
# layers; the embeddings and the head 129,280 x 7168 each; the router 256 x 7168 in 58 layers.
DEEPSEEK_NVFP4_BF16_PARAMS = float(
    61 * (7168 * 1536 + 1536 * 128 * 192 + 7168 * 576 + 512 * 128 * 256 + 128 * 128 * 7168)
    + 2 * 129280 * 7168
    + 58 * 256 * 7168
)
DEEPSEEK_NVFP4_SOURCE = (
    "NVIDIA/TensorRT-Model-Optimizer examples/deepseek (the recipe of NVIDIA's DeepSeek-R1 and "
    "V3 FP4 checkpoints): ptq.py disables the '*attn*' and '*head*' quantizers; "
    "quantize_to_nvfp4.py dequantises every fp8 weight to bf16 and packs to NVFP4 only the "
    "layers calibrated, so attention, head, embeddings and router stay bf16; NVIDIA/"
    "TensorRT-LLM docs/source/blogs/tech_blog/blog1 (DeepSeek-R1 on B200), 'Precision "
    "Strategy': attention modules bf16, dense and MoE FFN layers nvfp4, RouterGEMM bf16"
)
_DEEPSEEK_V3_DIMS = {
    "query_heads": 128,
    "hidden": 7168,
    "intermediate": 2048,
    "vocab": 129280,
    "experts": 256,
    "experts_per_token": 8,
    "kv_lora_rank": 512,
    "qk_rope_head_dim": 64,
    "kv_source": _MLA_PAPER,
    "shared_experts": 1,
    "checkpoint_dtype": "fp8",
    "nvfp4_bf16_params": DEEPSEEK_NVFP4_BF16_PARAMS,
}
_GPT_OSS = {
    "query_heads": 64,
    "hidden": 2880,
    "intermediate": 2880,
    "vocab": 201088,
    "experts_per_token": 4,
    "sliding_window": 128,
    "kv_source": _GPT_OSS_CARD,
    "checkpoint_dtype": "mxfp4",
    "attention_sinks": True,
}
_LLAMA4 = {
    "query_heads": 40,
    "hidden": 5120,
    "intermediate": 8192,
    "vocab": 202048,
    "experts_per_token": 1,
    "sliding_window": 8192,
    "window_layers": 36,
    "kv_source": _LLAMA4_CARD,
    "shared_experts": 1,
    "chunked_attention": True,
}
_QWEN3_MOE = {"vocab": 151936, "experts": 128, "experts_per_token": 8, "kv_source": _QWEN3_CARD}

# Mixtures of experts and attention variants of 2025-26. Parameter counts are the model
# cards'; the dimensions are each config.json's (tests/fixtures holds four of them).
MODELS.update({
    model.name: model
    for model in (
        ModelShape(
            "DeepSeek-V3", 61, 128, 128, 671e9, 37e9, 8,
            f"deepseek-ai/DeepSeek-V3 {_HF}; 671B total and 37B active per the model card (the "
            "14B multi-token-prediction module left out)",
            **_DEEPSEEK_V3_DIMS,
        ),
        ModelShape(
            "DeepSeek-R1", 61, 128, 128, 671e9, 37e9, 8,
            f"deepseek-ai/DeepSeek-R1 {_HF} (DeepSeek-V3's shape); 671B total, 37B active",
            **_DEEPSEEK_V3_DIMS,
        ),
        ModelShape(
            "Kimi-K2", 61, 64, 128, 1.0e12, 32e9, 16,
            f"moonshotai/Kimi-K2-Instruct {_HF} (DeepSeek-V3's design, 384 experts, 64 heads); "
            "1T total and 32B active per the model card",
            query_heads=64, hidden=7168, intermediate=2048, vocab=163840, experts=384,
            experts_per_token=8, kv_lora_rank=512, qk_rope_head_dim=64, kv_source=_MLA_PAPER,
            shared_experts=1, checkpoint_dtype="fp8",
        ),
        ModelShape(
            "Qwen3-235B-A22B", 94, 4, 128, 235e9, 22e9, 8,
            f"Qwen/Qwen3-235B-A22B {_HF}; 235B total, 22B active per the model card",
            query_heads=64, hidden=4096, intermediate=1536, **_QWEN3_MOE,
        ),
        ModelShape(
            "Qwen3-30B-A3B", 48, 4, 128, 30.5e9, 3.3e9, 1,
            f"Qwen/Qwen3-30B-A3B {_HF}; 30.5B total, 3.3B active per the model card",
            query_heads=32, hidden=2048, intermediate=768, **_QWEN3_MOE,
        ),
        ModelShape(
            "gpt-oss-120b", 36, 8, 64, 116.83e9, 5.13e9, 1,
            f"openai/gpt-oss-120b {_HF}; 116.83B total, 5.13B active (gpt-oss model card, "
            "Table 1)",
            experts=128, window_layers=18, bf16_params=2.13e9, **_GPT_OSS,
        ),
        ModelShape(
            "gpt-oss-20b", 24, 8, 64, 20.91e9, 3.61e9, 1,
            f"openai/gpt-oss-20b {_HF}; 20.91B total, 3.61B active (gpt-oss model card, Table 1)",
            experts=32, window_layers=12, bf16_params=1.80e9, **_GPT_OSS,
        ),
        ModelShape(
            "Llama-4-Scout", 48, 8, 128, 109e9, 17e9, 4,
            f"meta-llama/Llama-4-Scout-17B-16E {_HF}; 109B total, 17B active per the model card",
            experts=16, **_LLAMA4,
        ),
        ModelShape(
            "Llama-4-Maverick", 48, 8, 128, 400e9, 17e9, 8,
            f"meta-llama/Llama-4-Maverick-17B-128E {_HF}; 400B total, 17B active per the model "
            "card (experts in every other layer)",
            experts=128, **_LLAMA4,
        ),
    )
})  # fmt: skip
