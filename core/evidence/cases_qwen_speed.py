"""Published rows found in issue 37's twenty-eighth round (item 5): the rest of Qwen's speed tables.

Qwen's speed benchmark (QwenLM/Qwen2.5 docs/source/getting_started/speed_benchmark.md, the page
D29-D31 came from) times one request at a time on H20 96 GB cards under SGLang 0.4.6.post1:
2,048 generated tokens after a prompt of 1 to 129,024 tokens, for every Qwen3 model in bf16 and
in its quantised checkpoints. When the second set was first typed it took three rows of it (a
one-token prompt: D29-D31). Its other rows are dense models at batch 1 on an older engine, what
item 5 asks for, so this module takes them by the rule of :mod:`core.evidence.cases_2026`, read
for this page as follows, written down before the engine level was evaluated on any of them:

- the SGLang tables only (the page's Transformers tables run no serving engine); each model's
  table is one table;
- every row of a table is one request at batch 1, a single load, so the rule's cut for a table
  of more than six rows ("those at its smallest and largest load") is read on the table's other
  axis: its shortest and its longest prompt (1 token; 30,720 for Qwen3-0.6B and -1.7B, 129,024
  for the rest);
- at those two prompts, every format the Scenario can express: BF16; FP8 (Qwen's FP8
  checkpoints, fp8 with a scale per 128 x 128 block, pasted as D30-D31 are); AWQ-INT4 and
  GPTQ-INT4 (int4 weights multiplied in bf16: SGLang's awq_marlin, and the GPTQ-Marlin the page
  names for the mixtures); not GPTQ-Int8 (8-bit integer weights, a format the catalog lacks);
- the figure is one request's seconds, (prompt + 2,048) / the printed speed, as the page
  defines its speed and as D29-D31 read it; the cards are the row's "GPU Num", laid out TP as
  its notes say; the cache bf16 (SGLang's auto); the page's mixed chunks (one request has no
  decode to mix with) priced as the release's own, and its mem_fraction_static 0.85 too until
  the forty-third round gave the Scenario a knob for it (typed since, D29-D31 with them);
- the page's notes list the longest prompt as 129,024 tokens and its tables print 129042:
  typed as the notes' 129,024 (the two differ by 0.01 %);
- the rows D29-D31 already hold stay as they are; every model is pasted as its config.json
  (the catalog's Qwen3-30B-A3B and Qwen3-235B-A22B too where their FP8 checkpoints run).

Forty-one rows: D251-D291. Configs: Qwen/Qwen3-0.6B, -1.7B, -4B, -8B, -14B, -32B and
-30B-A3B's config.json files on the Hugging Face Hub (the fields the engine level reads; the
0.6B, 1.7B, 8B and 32B files as NVIDIA aiconfigurator ships copies of them,
aic-core/src/aiconfigurator_core/model_configs/Qwen--Qwen3-*_config.json).
"""

from __future__ import annotations

from core.evidence.cases import PublishedCase
from core.evidence.configs import (
    QWEN3_8B,
    QWEN3_14B,
    QWEN3_32B,
    QWEN3_235B_A22B,
    QWEN_FP8,
    qwen3_dense,
    with_fp8_blocks,
)

_SOURCE = (
    "QwenLM/Qwen2.5 docs/source/getting_started/speed_benchmark.md @ac727245 (qwen.readthedocs.io "
    "'Speed Benchmark', the SGLang tables: H20 96GB, SGLang 0.4.6.post1, batch 1, 2048 "
    "generated tokens; request time = (input + 2048) / speed)"
)
_ASSUMED = (
    "KV bf16 (SGLang's auto); the page's mixed chunks priced as the release's own (no knob); "
    "mem_fraction_static 0.85 as the page sets it"
)
# the page's SGLang runs keep mem_fraction_static at 0.85
QWEN_PAGE_SHARE = 0.85
_LONGEST = 129024  # the notes' longest prompt; the tables print 129042

# Qwen3 dense models the catalog lacks, pasted (layers, hidden, heads, intermediate, tied)
_DENSE = {
    "Qwen3-0.6B": qwen3_dense(28, 1024, 16, 3072, tied=True),
    "Qwen3-1.7B": qwen3_dense(28, 2048, 16, 6144, tied=True),
    "Qwen3-4B": qwen3_dense(36, 2560, 32, 9728, tied=True),
    "Qwen3-8B": QWEN3_8B,
    "Qwen3-14B": QWEN3_14B,
    "Qwen3-32B": QWEN3_32B,
}
_QWEN3_30B_A3B = (
    '{"architectures":["Qwen3MoeForCausalLM"],"model_type":"qwen3_moe","num_hidden_layers":48,'
    '"hidden_size":2048,"num_attention_heads":32,"num_key_value_heads":4,"head_dim":128,'
    '"intermediate_size":6144,"moe_intermediate_size":768,"num_experts":128,'
    '"num_experts_per_tok":8,"vocab_size":151936,"tie_word_embeddings":false}'
)
_CONFIGS = {**_DENSE, "Qwen3-30B-A3B": _QWEN3_30B_A3B, "Qwen3-235B-A22B": QWEN3_235B_A22B}
# the page's format names, as (weight format, checkpoint suffix, whether fp8 blocks are pasted)
_FORMATS = {
    "BF16": ("bf16", "", False),
    "FP8": ("fp8", "-FP8", True),
    "AWQ-INT4": ("int4", "-AWQ", False),
    "GPTQ-INT4": ("int4", "-GPTQ-Int4", False),
}


def _row(key: int, model: str, prompt: int, fmt: str, cards: int, speed: float) -> PublishedCase:
    """One row of a model's SGLang table: one request's seconds, (prompt + 2,048) / speed."""
    weight, suffix, blocks = _FORMATS[fmt]
    config = with_fp8_blocks(_CONFIGS[model]) if blocks else _CONFIGS[model]
    printed = 129042 if prompt == _LONGEST else prompt
    layout = f"TP={cards}" if cards > 1 else ""
    quoted = f"{model} | {printed} | {fmt} | {cards} | {speed} {layout}".rstrip()
    extra = {"weight_formats": QWEN_FP8} if blocks else {}
    return PublishedCase(
        f"D{key}", "request", "custom", "H20", cards, weight, prompt, 2048, "users", 1,
        round((prompt + 2048) / speed, 2), _SOURCE, f"{quoted}: ({prompt} + 2048) / {speed} s",
        kv_dtype="bf16", engine="SGLang", engine_version="0.4.6.post1", layout="TP",
        model_config=config, model_label=f"{model}{suffix} (config.json)", assumed=_ASSUMED,
        memory_share=QWEN_PAGE_SHARE, **extra,
    )  # fmt: skip


# (model, prompt, format, GPU Num, speed in tokens/s), in the page's order
_ROWS = (
    ("Qwen3-0.6B", 1, "BF16", 1, 414.17),
    ("Qwen3-0.6B", 1, "FP8", 1, 458.03),
    ("Qwen3-0.6B", 30720, "BF16", 1, 3577.42),
    ("Qwen3-0.6B", 30720, "FP8", 1, 3819.86),
    ("Qwen3-1.7B", 1, "BF16", 1, 227.80),
    ("Qwen3-1.7B", 1, "FP8", 1, 333.90),
    ("Qwen3-1.7B", 30720, "BF16", 1, 2439.03),
    ("Qwen3-1.7B", 30720, "FP8", 1, 3165.32),
    ("Qwen3-4B", 1, "BF16", 1, 133.13),
    ("Qwen3-4B", 1, "FP8", 1, 200.61),
    ("Qwen3-4B", 1, "AWQ-INT4", 1, 199.71),
    ("Qwen3-4B", _LONGEST, "BF16", 1, 1371.04),
    ("Qwen3-4B", _LONGEST, "FP8", 1, 1497.27),
    ("Qwen3-4B", _LONGEST, "AWQ-INT4", 1, 1375.71),
    ("Qwen3-8B", 1, "BF16", 1, 81.73),
    ("Qwen3-8B", 1, "FP8", 1, 150.25),
    ("Qwen3-8B", 1, "AWQ-INT4", 1, 144.11),
    ("Qwen3-8B", _LONGEST, "BF16", 1, 1173.32),
    ("Qwen3-8B", _LONGEST, "FP8", 1, 1393.21),
    ("Qwen3-8B", _LONGEST, "AWQ-INT4", 1, 1198.06),
    ("Qwen3-14B", 1, "BF16", 1, 47.10),
    ("Qwen3-14B", 1, "FP8", 1, 97.11),
    ("Qwen3-14B", 1, "AWQ-INT4", 1, 96.49),
    ("Qwen3-14B", _LONGEST, "BF16", 1, 826.15),
    ("Qwen3-14B", _LONGEST, "FP8", 1, 1049.64),
    ("Qwen3-14B", _LONGEST, "AWQ-INT4", 1, 857.56),
    ("Qwen3-32B", 1, "BF16", 1, 20.72),
    ("Qwen3-32B", 1, "AWQ-INT4", 1, 47.67),
    ("Qwen3-32B", _LONGEST, "BF16", 2, 711.40),
    ("Qwen3-32B", _LONGEST, "FP8", 1, 491.45),
    ("Qwen3-32B", _LONGEST, "AWQ-INT4", 1, 395.96),
    ("Qwen3-30B-A3B", 1, "FP8", 1, 155.55),
    ("Qwen3-30B-A3B", 1, "GPTQ-INT4", 1, 31.29),
    ("Qwen3-30B-A3B", _LONGEST, "BF16", 1, 1385.65),
    ("Qwen3-30B-A3B", _LONGEST, "FP8", 1, 1442.14),
    ("Qwen3-30B-A3B", _LONGEST, "GPTQ-INT4", 1, 704.82),
    ("Qwen3-235B-A22B", 1, "BF16", 8, 74.50),
    ("Qwen3-235B-A22B", 1, "GPTQ-INT4", 4, 14.69),
    ("Qwen3-235B-A22B", _LONGEST, "BF16", 8, 1639.54),
    ("Qwen3-235B-A22B", _LONGEST, "FP8", 4, 1319.66),
    ("Qwen3-235B-A22B", _LONGEST, "GPTQ-INT4", 4, 552.28),
)
FIRST_KEY = 251
QWEN_SPEED: list[PublishedCase] = [
    _row(FIRST_KEY + index, *row) for index, row in enumerate(_ROWS)
]  # fmt: skip
"""The SGLang tables' rows at their shortest and longest prompts, D251-D291."""
