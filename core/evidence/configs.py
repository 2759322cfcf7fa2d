"""Pasted config.json texts of published cases' models the catalog does not list.

A published case whose model is not in :data:`core.catalog.MODELS` is typed as
``model="custom"`` with its config.json here, the fields the engine level reads, as each
model's file on the Hugging Face Hub gives them.
"""

from __future__ import annotations


def qwen3_dense(layers: int, hidden: int, heads: int, intermediate: int, *, tied: bool) -> str:
    """A dense Qwen3 model's config.json, the fields the engine level reads: every Qwen3 dense
    model has heads of 128 and 8 key-value heads over a vocabulary of 151,936 (Qwen/Qwen3-0.6B
    to -32B's config.json files on the Hugging Face Hub)."""
    return (
        '{"architectures":["Qwen3ForCausalLM"],"model_type":"qwen3",'
        f'"num_hidden_layers":{layers},"hidden_size":{hidden},"num_attention_heads":{heads},'
        f'"num_key_value_heads":8,"head_dim":128,"intermediate_size":{intermediate},'
        f'"vocab_size":151936,"tie_word_embeddings":{str(tied).lower()}}}'
    )


QWEN3_14B = qwen3_dense(40, 5120, 40, 17408, tied=False)
"""Qwen/Qwen3-14B's config.json as the file gives it (Qwen's speed tables, GPUStack's pages)."""
QWEN3_32B = qwen3_dense(64, 5120, 64, 25600, tied=False)
"""Qwen/Qwen3-32B's config.json as the file gives it (D31 is typed as ``model="custom"``)."""

LLAMA_31_405B = (
    '{"architectures":["LlamaForCausalLM"],"model_type":"llama","num_hidden_layers":126,'
    '"hidden_size":16384,"num_attention_heads":128,"num_key_value_heads":8,'
    '"intermediate_size":53248,"vocab_size":128256,"tie_word_embeddings":false}'
)
"""meta-llama/Llama-3.1-405B's config.json, the fields the engine level reads (D34-D43, and
NousResearch/Hermes-3-Llama-3.1-405B-FP8, a fine-tune of the same shape)."""
LLAMA_31_405B_PASTED = {
    "model_config": LLAMA_31_405B,
    "model_label": "Llama-3.1-405B (config.json)",
}
"""A case's knobs for Llama 3.1 405B, pasted as its config.json (the catalog has no 405B)."""

MISTRAL_7B_V03 = (
    '{"architectures":["MistralForCausalLM"],"model_type":"mistral","num_hidden_layers":32,'
    '"hidden_size":4096,"num_attention_heads":32,"num_key_value_heads":8,'
    '"intermediate_size":14336,"vocab_size":32768,"sliding_window":null,'
    '"tie_word_embeddings":false}'
)
"""mistralai/Mistral-7B-Instruct-v0.3's config.json: the catalog's Mistral-7B (v0.1) with the
vocabulary grown to 32,768 and no sliding window."""

MISTRAL_NEMO = (
    '{"architectures":["MistralForCausalLM"],"model_type":"mistral","num_hidden_layers":40,'
    '"hidden_size":5120,"num_attention_heads":32,"num_key_value_heads":8,"head_dim":128,'
    '"intermediate_size":14336,"vocab_size":131072,"tie_word_embeddings":false}'
)
"""mistralai/Mistral-Nemo-Instruct-2407's config.json (12B, heads of 128 narrower than the
hidden width over the heads)."""

MISTRAL_LARGE_2407 = (
    '{"architectures":["MistralForCausalLM"],"model_type":"mistral","num_hidden_layers":88,'
    '"hidden_size":12288,"num_attention_heads":96,"num_key_value_heads":8,'
    '"intermediate_size":28672,"vocab_size":32768,"tie_word_embeddings":false}'
)
"""mistralai/Mistral-Large-Instruct-2407's config.json (123B)."""

MIXTRAL_8X22B = (
    '{"architectures":["MixtralForCausalLM"],"model_type":"mixtral","num_hidden_layers":56,'
    '"hidden_size":6144,"num_attention_heads":48,"num_key_value_heads":8,'
    '"intermediate_size":16384,"num_local_experts":8,"num_experts_per_tok":2,'
    '"vocab_size":32768,"tie_word_embeddings":false}'
)
"""mistralai/Mixtral-8x22B-Instruct-v0.1's config.json (141B, 39B active)."""

QWEN3_8B = qwen3_dense(36, 4096, 32, 12288, tied=False)
"""Qwen/Qwen3-8B's config.json as the file gives it (GPUStack's rows, D99-D104)."""

QWEN3_235B_A22B = (
    '{"architectures":["Qwen3MoeForCausalLM"],"model_type":"qwen3_moe","num_hidden_layers":94,'
    '"hidden_size":4096,"num_attention_heads":64,"num_key_value_heads":4,"head_dim":128,'
    '"intermediate_size":12288,"moe_intermediate_size":1536,"num_experts":128,'
    '"num_experts_per_tok":8,"vocab_size":151936,"tie_word_embeddings":false}'
)
"""Qwen/Qwen3-235B-A22B's config.json, the fields the engine level reads (the catalog's
Qwen3-235B-A22B, pasted only to carry its FP8 checkpoint's quantization_config below)."""

# Qwen's FP8 checkpoints (Qwen/Qwen3-8B-FP8, -32B-FP8, -235B-A22B-FP8) are 'fine-grained fp8
# quantization with a block size of 128' (their model cards): the quantization_config that
# states it, the part the engine level reads (the method; a block-scaled fp8 checkpoint is
# priced with its own kernels). A case that ran one is typed with it (issue 37, sixth round,
# decided before the cases were scored with it): until then D30, D31 and D105 were priced as
# a bf16 checkpoint cast to per-tensor fp8, which is not what ran.
_QWEN_FP8_QUANTIZATION = (
    '"quantization_config":{"quant_method":"fp8","fmt":"e4m3","activation_scheme":"dynamic",'
    '"weight_block_size":[128,128]}'
)


def with_fp8_blocks(config: str) -> str:
    """``config`` with the block-scaled fp8 quantization_config of Qwen's FP8 checkpoints."""
    return config[:-1] + "," + _QWEN_FP8_QUANTIZATION + "}"


QWEN3_CODER_480B = (
    '{"architectures":["Qwen3MoeForCausalLM"],"model_type":"qwen3_moe","num_hidden_layers":62,'
    '"hidden_size":6144,"num_attention_heads":96,"num_key_value_heads":8,"head_dim":128,'
    '"intermediate_size":8192,"moe_intermediate_size":2560,"num_experts":160,'
    '"num_experts_per_tok":8,"vocab_size":151936,"tie_word_embeddings":false}'
)
"""Qwen/Qwen3-Coder-480B-A35B-Instruct's config.json, the fields the engine level reads."""

QWEN3_NEXT_80B = (
    '{"architectures":["Qwen3NextForCausalLM"],"model_type":"qwen3_next","num_hidden_layers":48,'
    '"hidden_size":2048,"num_attention_heads":16,"num_key_value_heads":2,"head_dim":256,'
    '"full_attention_interval":4,"linear_conv_kernel_dim":4,"linear_key_head_dim":128,'
    '"linear_num_key_heads":16,"linear_num_value_heads":32,"linear_value_head_dim":128,'
    '"intermediate_size":5120,"moe_intermediate_size":512,"shared_expert_intermediate_size":512,'
    '"num_experts":512,"num_experts_per_tok":10,"decoder_sparse_step":1,"mlp_only_layers":[],'
    '"partial_rotary_factor":0.25,"vocab_size":151936,"tie_word_embeddings":false,'
    '"torch_dtype":"bfloat16"}'
)
"""Qwen/Qwen3-Next-80B-A3B-Instruct's config.json, the fields the engine level reads (the
catalog's fixture tests/fixtures/configs/qwen3-next-80b-a3b.json: 12 attention layers of 48,
the other 36 Gated DeltaNet; 512 experts, 10 a token and a shared one)."""

QWEN3_8B_FP8 = with_fp8_blocks(QWEN3_8B)
"""Qwen/Qwen3-8B-FP8: Qwen3-8B's config.json with its block-scaled fp8 quantization_config."""
QWEN3_32B_FP8 = with_fp8_blocks(QWEN3_32B)
"""Qwen/Qwen3-32B-FP8: Qwen3-32B's config.json with its block-scaled fp8 quantization_config."""
QWEN3_235B_A22B_FP8 = with_fp8_blocks(QWEN3_235B_A22B)
"""Qwen/Qwen3-235B-A22B-FP8: the 235B config.json with its block-scaled fp8 quantization_config."""
QWEN3_CODER_480B_FP8 = with_fp8_blocks(QWEN3_CODER_480B)
"""Qwen/Qwen3-Coder-480B-A35B-Instruct-FP8: its config.json with the block-scaled fp8 config."""


# Checkpoints that keep tensors in more than one format (the config.json quantization_config).
GPT_OSS_MIX = (
    "experts mxfp4; attention, router, embeddings and lm_head bf16 (openai/gpt-oss config.json "
    "quantization_config.modules_to_not_convert)"
)
DEEPSEEK_FP8 = (
    "fp8 e4m3 scaled per 128 x 128 block (deepseek-ai/DeepSeek-R1 config.json "
    "quantization_config.weight_block_size)"
)
QWEN_FP8 = "fp8 scaled per 128-wide block (Qwen FP8 model cards: 'block size of 128')"
