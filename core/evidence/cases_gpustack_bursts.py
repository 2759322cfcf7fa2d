"""Published rows found in issue 37's forty-eighth round (item 5): GPUStack's random bursts.

GPUStack's performance-lab pages (:mod:`core.evidence.cases_gpustack`, the fifth round's rows)
end with "Other Benchmark Cases": the page's baseline serving command (the engine at its
defaults) and its tuned one, each timed with ``vllm bench serve`` on the random dataset at four
lengths (32,000 / 100, 4,000 / 200, 2,000 / 100 and 128 / 4 tokens; 100, 500, 500 and 1,000
prompts). The fifth round left them out with the pages' ShareGPT bursts. Unlike those, each is
one burst of requests at fixed lengths (the random dataset draws every prompt at the stated
length: no range ratio is set), a kind of run the sets score (EmbeddedLLM's 200 prompts at
once, D235-D240; the ROCm page's saturated runs, D220-D227), and with 500-1,000 requests in
flight they are the regime issue 37 names first (mixtures at the most load, many requests
running). Taken by the rule of :mod:`core.evidence.cases_2026`'s docstring, read for these
blocks as follows, written down before the engine level was evaluated on any of them:

- the pages of models the catalog has or whose config.json the sets paste (Qwen3-14B and
  Qwen3-32B, pasted; Qwen3-235B-A22B-Instruct-2507 as the catalog's Qwen3-235B-A22B, the same
  shape; gpt-oss-20b and gpt-oss-120b; DeepSeek-R1-0528 as the catalog's DeepSeek-R1) on the
  catalog's cards (A100 SXM 80GB, H100 SXM, H200); not the pages of models the fifth round left
  out (GLM-4.x, GLM-5.2, Qwen3.5), nor DeepSeek-V3.2's (its sparse attention is not priced)
  nor the Ascend 910B's;
- only the "Baseline benchmark results" block: its command is the model at the page's
  parallelism (``-tp 8``, else one card) with at most a context cap (gpt-oss's
  ``--max-model-len 32768``, priced as the release's own: no knob); the tuned runs set flags
  the release does not default to;
- every random run of the block (four to a page, so all are taken); the figure is the printed
  output token throughput; the load one burst of the run's successful requests (saturated,
  ``requests`` that count); the lengths the run's means (its total input and generated tokens
  over its requests: ``vllm bench serve`` does not ignore EOS, so some answers end early), as
  the sets type random runs elsewhere;
- the cards as the page's "clarify GPU number" revision (1f37f1b8, 2026-01-06) names them where
  the revision read names none; the engine vLLM at the release the page's Engine Version
  section gives; the cache the engine's auto (bf16); the weights as the checkpoints store them
  (gpt-oss's MXFP4 experts, DeepSeek's fp8 in 128 x 128 blocks).

Forty-four rows: D369-D412.
"""

from __future__ import annotations

from core.evidence.cases import PublishedCase
from core.evidence.configs import DEEPSEEK_FP8, GPT_OSS_MIX, QWEN3_14B, QWEN3_32B

_PAGE = (
    "gpustack/gpustack docs/performance-lab/{page}.md @{commit} (GPUStack performance lab, "
    "'Other Benchmark Cases', baseline benchmark results: vllm bench serve --dataset-name random, "
    "one burst; {command})"
)
_ASSUMED = (
    "KV bf16 (the engine's auto); lengths the run's means (EOS ends some answers early); the "
    "burst's requests all sent at once (no --max-concurrency, no --request-rate)"
)
# the page, its revision read, the baseline command, the card, cards, vLLM release and the
# case's model knobs
_PAGES = {
    "qwen3-14b/a100": ("10e9444a", "vllm serve Qwen/Qwen3-14B", "A100 80GB SXM", 1, "0.11.0"),
    "qwen3-14b/h100": ("7ae332aa", "vllm serve Qwen/Qwen3-14B", "H100 SXM", 1, "0.11.0"),
    "qwen3-32b/a100": ("10e9444a", "vllm serve Qwen/Qwen3-32B", "A100 80GB SXM", 1, "0.11.0"),
    "qwen3-32b/h100": ("10e9444a", "vllm serve Qwen/Qwen3-32B", "H100 SXM", 1, "0.11.0"),
    "qwen3-235b-a22b/a100": ("9babbd26", "vllm serve Qwen/Qwen3-235B-A22B-Instruct-2507 -tp 8",
                             "A100 80GB SXM", 8, "0.11.0"),
    "qwen3-235b-a22b/h100": ("10e9444a", "vllm serve Qwen/Qwen3-235B-A22B-Instruct-2507 -tp 8",
                             "H100 SXM", 8, "0.11.0"),
    "gpt-oss-20b/a100": ("7ae332aa", "vllm serve openai/gpt-oss-20b", "A100 80GB SXM", 1, "0.11.0"),
    "gpt-oss-20b/h100": ("7b50d506", "vllm serve openai/gpt-oss-20b", "H100 SXM", 1, "0.11.0"),
    "gpt-oss-120b/a100": ("1f37f1b8", "vllm serve openai/gpt-oss-120b --max-model-len 32768",
                          "A100 80GB SXM", 1, "0.11.0"),
    "gpt-oss-120b/h100": ("72aee9dd", "vllm serve openai/gpt-oss-120b --max-model-len 32768",
                          "H100 SXM", 1, "0.10.2"),
    "deepseek-r1/h200": ("a5c9fafc", "vllm serve deepseek-ai/DeepSeek-R1-0528 -tp 8", "H200", 8,
                         "0.11.0"),
}  # fmt: skip
_MODELS = {
    "qwen3-14b": {"model": "custom", "dtype": "bf16", "model_config": QWEN3_14B,
                  "model_label": "Qwen3-14B (config.json)"},
    "qwen3-32b": {"model": "custom", "dtype": "bf16", "model_config": QWEN3_32B,
                  "model_label": "Qwen3-32B (config.json)"},
    "qwen3-235b-a22b": {"model": "Qwen3-235B-A22B", "dtype": "bf16"},
    "gpt-oss-20b": {"model": "gpt-oss-20b", "dtype": "mxfp4", "weight_formats": GPT_OSS_MIX},
    "gpt-oss-120b": {"model": "gpt-oss-120b", "dtype": "mxfp4", "weight_formats": GPT_OSS_MIX},
    "deepseek-r1": {"model": "DeepSeek-R1", "dtype": "fp8", "weight_formats": DEEPSEEK_FP8},
}  # fmt: skip
# page | the run's heading | successful requests | total input tokens | total generated
# tokens | output token throughput (tok/s), as each block prints them, in the pages' order
_TABLE = """
qwen3-14b/a100|random 32K input|100|3200000|9891|13.65
qwen3-14b/a100|random 4K input|500|1997942|99783|245.13
qwen3-14b/a100|random 2K input|500|998175|50000|284.64
qwen3-14b/a100|random 128 input|1000|127698|4000|149.33
qwen3-14b/h100|random 32K input|100|3200000|9855|25.48
qwen3-14b/h100|random 4K input|500|1997942|99803|438.56
qwen3-14b/h100|random 2K input|500|998175|50000|505.51
qwen3-14b/h100|random 128 input|1000|127698|4000|176.06
qwen3-32b/a100|random 32K input|100|3200000|7699|4.32
qwen3-32b/a100|random 4K input|500|1997942|99893|87.48
qwen3-32b/a100|random 2K input|500|998175|50000|120.27
qwen3-32b/a100|random 128 input|1000|127698|4000|80.69
qwen3-32b/h100|random 32K input|100|3200000|7681|6.64
qwen3-32b/h100|random 4K input|500|1997942|99790|102.21
qwen3-32b/h100|random 2K input|500|998175|50000|152.42
qwen3-32b/h100|random 128 input|1000|127698|4000|121.66
qwen3-235b-a22b/a100|random 32K input|100|3200000|8191|17.00
qwen3-235b-a22b/a100|random 4K input|500|1997942|91352|357.26
qwen3-235b-a22b/a100|random 2K input|500|998175|49632|442.54
qwen3-235b-a22b/a100|random 128 input|1000|127698|4000|226.26
qwen3-235b-a22b/h100|random 32K input|100|3200000|8191|57.85
qwen3-235b-a22b/h100|random 4K input|500|1997942|92185|931.21
qwen3-235b-a22b/h100|random 2K input|500|998175|49500|1127.26
qwen3-235b-a22b/h100|random 128 input|984|125650|3936|445.53
gpt-oss-20b/a100|random 32K input|100|3200000|9533|21.62
gpt-oss-20b/a100|random 4K input|500|1999249|53530|415.64
gpt-oss-20b/a100|random 2K input|500|999120|47224|813.35
gpt-oss-20b/a100|random 128 input|1000|127755|4000|735.40
gpt-oss-20b/h100|random 32K input|100|3200000|9350|86.62
gpt-oss-20b/h100|random 4K input|500|1999249|52309|847.43
gpt-oss-20b/h100|random 2K input|500|999120|47022|1443.44
gpt-oss-20b/h100|random 128 input|1000|127755|4000|851.04
gpt-oss-120b/a100|random 32K input|100|3200000|9988|13.50
gpt-oss-120b/a100|random 4K input|500|1999249|67259|249.67
gpt-oss-120b/a100|random 2K input|500|999120|48981|395.21
gpt-oss-120b/a100|random 128 input|1000|127755|4000|283.95
gpt-oss-120b/h100|random 32K input|100|3200000|9877|49.65
gpt-oss-120b/h100|random 4K input|500|1999249|67205|463.35
gpt-oss-120b/h100|random 2K input|500|999120|49197|675.11
gpt-oss-120b/h100|random 128 input|1000|127755|4000|517.91
deepseek-r1/h200|random 32K input|100|3199900|10000|48.33
deepseek-r1/h200|random 4K input|500|1997530|100000|753.67
deepseek-r1/h200|random 2K input|500|998393|50000|843.71
deepseek-r1/h200|random 128 input|1000|126882|4000|181.27
"""
FIRST_KEY = 369


def _burst(key: int, line: str) -> PublishedCase:
    """One random run of a page's baseline block: its output throughput, as one burst."""
    page, heading, *counts = line.split("|")
    requests, inputs, generated = (int(count) for count in counts[:3])
    throughput = float(counts[3])
    commit, command, gpu, cards, version = _PAGES[page]
    knobs = dict(_MODELS[page.split("/")[0]])
    model, dtype = knobs.pop("model"), knobs.pop("dtype")
    quoted = (
        f"# {heading}: Successful requests: {requests} | Total input tokens: {inputs} | Total "
        f"generated tokens: {generated} | Output token throughput (tok/s): {counts[3]}"
    )
    return PublishedCase(
        f"D{key}", "throughput", model, gpu, cards, dtype, round(inputs / requests),
        round(generated / requests), "saturated", 0, throughput,
        _PAGE.format(page=page, commit=commit, command=command), quoted, kv_dtype="bf16",
        engine="vLLM", engine_version=version, layout=f"TP{cards}" if cards > 1 else "TP",
        assumed=_ASSUMED, requests=requests, **knobs,
    )  # fmt: skip


GPUSTACK_BURSTS: list[PublishedCase] = [
    _burst(FIRST_KEY + index, line) for index, line in enumerate(_TABLE.strip().splitlines())
]
"""The baseline blocks' random runs, D369-D412, in the pages' order."""
