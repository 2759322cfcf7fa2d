"""Published rows found in issue 37's thirty-fourth round (item 5): Qwen2.5's speed tables on A100.

Before its Qwen3 page (:mod:`core.evidence.cases_qwen_speed`), the same documentation timed
Qwen2.5 (QwenLM/Qwen2.5 docs/source/benchmark/speed_benchmark.rst as of commit a912d23,
2024-11-06): one request at a time on NVIDIA A100 80GB cards under vLLM 0.6.3, 2,048 generated
tokens after a prompt of 1 to 129,024 tokens, for every Qwen2.5 model in bf16 and in its
quantised checkpoints. They are dense models at batch 1 on an older engine and another card,
what item 5 asks for, so this module takes them by the rule of :mod:`core.evidence.cases_2026`,
read for this page as the Qwen3 module reads its own, written down before the engine level was
evaluated on any of them:

- the vLLM tables only (the page's Transformers tables run no serving engine); each model's
  table is one table;
- every row of a table is one request at batch 1, so the cut for a table of more than six rows
  is read on its other axis: its shortest prompt (1 token) and its longest (30,720 for 0.5B,
  1.5B and 3B; 129,024 for 7B to 72B);
- at those two prompts, every format the Scenario can express: BF16; AWQ and GPTQ-Int4 (int4
  weights multiplied in bf16: vLLM 0.6 runs both checkpoints through its Marlin kernels on an
  A100); not GPTQ-Int8 (8-bit integer weights, a format the catalog lacks);
- the figure is one request's seconds, 2,048 / the printed speed: the page's speed script
  (examples/speed-benchmark/speed_benchmark_vllm.py, added in commit 8205ba2) divides the
  output length by one ``llm.generate`` call's time, and its prompt is not counted (the Qwen3
  page counts it; a 7B row at 129,024 tokens could not have run for 129,024 / 28.94 s);
- the cards are the row's "GPU Num", laid out TP; "A100 80GB" typed as the catalog's SXM card,
  as Lambda's A100 rows are; the cache bf16 (vLLM's auto);
- the version is the page's 0.6.3, or 0.6.2 where a row's note says so; the page's
  max_model_len and sampling parameters are priced as the release's own, and so was its
  gpu_memory_utilization until the forty-third round gave the Scenario a knob for it: since then
  a row whose setting states another share than the default's 0.9 is typed with it (32B's
  "setting1" 1.0; 72B's "Setting 1" 0.98, "Setting 2" and "Setting 3" 1.0);
- a row whose note names a setting with ``enforce_eager=True`` (32B's Setting 1, 72B's Settings
  1-3) runs every step eagerly, without CUDA graphs, a knob the Scenario lacks: shown, not
  scored. Where a table prints two rows of one prompt and format on different cards, both are
  typed.

Forty-four rows, forty-one scored: D292-D335. Configs: Qwen/Qwen2.5-0.5B to -72B's config.json
files on the Hugging Face Hub (the fields the engine level reads), whose shapes the Qwen2.5
technical report's Table 1 also gives (arXiv:2412.15115: layers, query and key-value heads, tied
embeddings).
"""

from __future__ import annotations

from core.evidence.cases import PublishedCase

_SOURCE = (
    "QwenLM/Qwen2.5 docs/source/benchmark/speed_benchmark.rst @a912d23 (qwen.readthedocs.io "
    "'Speed Benchmark' for Qwen2.5, the vLLM tables: A100 80GB, vLLM 0.6.3, batch 1, 2048 "
    "generated tokens; request time = 2048 / speed, as examples/speed-benchmark/"
    "speed_benchmark_vllm.py divides)"
)
_ASSUMED = (
    "A100 80GB typed as the SXM card; KV bf16 (vLLM's auto); max_model_len and the sampling "
    "parameters priced as the release's own (no knob); gpu_memory_utilization the row's setting's"
)
_EAGER = (
    "run with enforce_eager=True (the row's setting): every step eager, a knob the Scenario lacks"
)


def qwen2_dense(layers: int, hidden: int, heads: int, kv_heads: int, intermediate: int) -> str:
    """A dense Qwen2.5 model's config.json, the fields the engine level reads: the three
    smallest tie their head to a vocabulary of 151,936, the rest keep an untied one of 152,064
    (Qwen/Qwen2.5-*'s config.json files on the Hugging Face Hub)."""
    tied = hidden <= 2048
    return (
        '{"architectures":["Qwen2ForCausalLM"],"model_type":"qwen2",'
        f'"num_hidden_layers":{layers},"hidden_size":{hidden},"num_attention_heads":{heads},'
        f'"num_key_value_heads":{kv_heads},"intermediate_size":{intermediate},'
        f'"vocab_size":{151936 if tied else 152064},"tie_word_embeddings":{str(tied).lower()}}}'
    )


# (layers, hidden, heads, key-value heads, intermediate), as each config.json gives them
_CONFIGS = {
    "Qwen2.5-0.5B": qwen2_dense(24, 896, 14, 2, 4864),
    "Qwen2.5-1.5B": qwen2_dense(28, 1536, 12, 2, 8960),
    "Qwen2.5-3B": qwen2_dense(36, 2048, 16, 2, 11008),
    "Qwen2.5-7B": qwen2_dense(28, 3584, 28, 4, 18944),
    "Qwen2.5-14B": qwen2_dense(48, 5120, 40, 8, 13824),
    "Qwen2.5-32B": qwen2_dense(64, 5120, 40, 8, 27648),
    "Qwen2.5-72B": qwen2_dense(80, 8192, 64, 8, 29568),
}
# the page's format names, as (weight format, the checkpoint's suffix)
_FORMATS = {"BF16": ("bf16", ""), "GPTQ-Int4": ("int4", "-GPTQ-Int4"), "AWQ": ("int4", "-AWQ")}
# the notes whose setting sets enforce_eager=True (32B's "setting1", 72B's "Setting 1"-"3")
_EAGER_NOTES = ("setting1", "Setting 1", "Setting 2", "Setting 3")
# the gpu_memory_utilization of the settings that state another than the default's 0.9 (the
# page's lists under the 32B and 72B tables)
_SHARES = {"setting1": 1.0, "Setting 1": 0.98, "Setting 2": 1.0, "Setting 3": 1.0}


def _row(key: int, model: str, prompt: int, fmt: str, cards: int, speed: float, note: str):
    """One row of a model's vLLM table: one request's seconds, 2,048 / speed."""
    weight, suffix = _FORMATS[fmt]
    version = "0.6.2" if "vllm==0.6.2" in note else "0.6.3"
    quoted = f"{model}-Instruct | {prompt} | {fmt} | {cards} | {speed} | {note}".rstrip(" |")
    eager = note in _EAGER_NOTES
    return PublishedCase(
        f"D{key}", "request", "custom", "A100 80GB SXM", cards, weight, prompt, 2048, "users",
        1, round(2048 / speed, 2), _SOURCE, f"{quoted}: 2048 / {speed} s", kv_dtype="bf16",
        engine="vLLM", engine_version=version, layout="TP",
        model_config=_CONFIGS[model], model_label=f"{model}-Instruct{suffix} (config.json)",
        assumed=_ASSUMED, scored=not eager, unscored_why=_EAGER if eager else "",
        memory_share=_SHARES.get(note, 0.0),
    )  # fmt: skip


_NEW = "vllm==0.6.2, new sample config"
# (model, prompt, format, GPU Num, speed in tokens/s, note), in the page's order
_ROWS = (
    ("Qwen2.5-0.5B", 1, "BF16", 1, 311.55, ""),
    ("Qwen2.5-0.5B", 1, "GPTQ-Int4", 1, 260.93, ""),
    ("Qwen2.5-0.5B", 1, "AWQ", 1, 261.95, ""),
    ("Qwen2.5-0.5B", 30720, "BF16", 1, 264.51, ""),
    ("Qwen2.5-0.5B", 30720, "GPTQ-Int4", 1, 226.50, ""),
    ("Qwen2.5-0.5B", 30720, "AWQ", 1, 229.84, ""),
    ("Qwen2.5-1.5B", 1, "BF16", 1, 183.33, ""),
    ("Qwen2.5-1.5B", 1, "GPTQ-Int4", 1, 217.03, ""),
    ("Qwen2.5-1.5B", 1, "AWQ", 1, 213.74, ""),
    ("Qwen2.5-1.5B", 30720, "BF16", 1, 152.04, ""),
    ("Qwen2.5-1.5B", 30720, "GPTQ-Int4", 1, 173.57, ""),
    ("Qwen2.5-1.5B", 30720, "AWQ", 1, 170.20, ""),
    ("Qwen2.5-3B", 1, "BF16", 1, 127.61, ""),
    ("Qwen2.5-3B", 1, "GPTQ-Int4", 1, 168.20, ""),
    ("Qwen2.5-3B", 1, "AWQ", 1, 165.50, ""),
    ("Qwen2.5-3B", 30720, "BF16", 1, 105.88, ""),
    ("Qwen2.5-3B", 30720, "GPTQ-Int4", 1, 129.28, ""),
    ("Qwen2.5-3B", 30720, "AWQ", 1, 127.19, ""),
    ("Qwen2.5-7B", 1, "BF16", 1, 84.28, ""),
    ("Qwen2.5-7B", 1, "GPTQ-Int4", 1, 154.05, ""),
    ("Qwen2.5-7B", 1, "AWQ", 1, 148.10, ""),
    ("Qwen2.5-7B", 129024, "BF16", 1, 28.94, _NEW),
    ("Qwen2.5-7B", 129024, "GPTQ-Int4", 1, 26.37, _NEW),
    ("Qwen2.5-7B", 129024, "AWQ", 1, 26.57, _NEW),
    ("Qwen2.5-14B", 1, "BF16", 1, 46.30, ""),
    ("Qwen2.5-14B", 1, "GPTQ-Int4", 1, 98.02, ""),
    ("Qwen2.5-14B", 1, "AWQ", 1, 92.66, ""),
    ("Qwen2.5-14B", 129024, "BF16", 1, 14.53, _NEW),
    ("Qwen2.5-14B", 129024, "GPTQ-Int4", 1, 15.13, _NEW),
    ("Qwen2.5-14B", 129024, "AWQ", 1, 15.25, _NEW),
    ("Qwen2.5-32B", 1, "BF16", 1, 22.13, "setting1"),
    ("Qwen2.5-32B", 1, "GPTQ-Int4", 1, 55.83, ""),
    ("Qwen2.5-32B", 1, "AWQ", 1, 51.92, ""),
    ("Qwen2.5-32B", 129024, "BF16", 2, 14.31, _NEW),
    ("Qwen2.5-32B", 129024, "GPTQ-Int4", 1, 10.39, _NEW),
    ("Qwen2.5-32B", 129024, "AWQ", 1, 10.34, _NEW),
    ("Qwen2.5-72B", 1, "BF16", 2, 18.19, "Setting 1"),
    ("Qwen2.5-72B", 1, "BF16", 4, 31.37, "Default"),
    ("Qwen2.5-72B", 1, "GPTQ-Int4", 1, 16.47, "Default"),
    ("Qwen2.5-72B", 1, "GPTQ-Int4", 2, 46.30, "Setting 2"),
    ("Qwen2.5-72B", 1, "AWQ", 2, 44.30, "Default"),
    ("Qwen2.5-72B", 129024, "BF16", 4, 12.68, "Setting 5"),
    ("Qwen2.5-72B", 129024, "GPTQ-Int4", 2, 10.11, "Setting 5"),
    ("Qwen2.5-72B", 129024, "AWQ", 2, 9.88, "Setting 5"),
)
FIRST_KEY = 292
QWEN25_SPEED: list[PublishedCase] = [
    _row(FIRST_KEY + index, *row) for index, row in enumerate(_ROWS)
]  # fmt: skip
"""The vLLM tables' rows at their shortest and longest prompts, D292-D335."""
