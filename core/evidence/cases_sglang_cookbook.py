"""Published rows found in issue 37's sixty-second round (item 5): two more of SGLang's cookbook pages.

SGLang's cookbook (``docs_new/cookbook`` in sgl-project/sglang, docs.sglang.io/cookbook) ends
many model pages with a "Speed Benchmark": the page's launch command, then ``bench_serving``
on random prompts at one, 16 and 64 or 100 users, each run's printed result. The sets hold the
GPT-OSS, Qwen3, Llama 4 and Qwen3-Coder pages' rows (D23-D28, D246-D248). Two more pages run a
catalog model on a catalog card with nothing the Scenario cannot say:

- ``autoregressive/DeepSeek/DeepSeek-R1.mdx`` @23b0c3db: DeepSeek-R1-0528 (DeepSeek's own
  checkpoint, fp8 in 128 x 128 blocks) on eight B200, ``launch_server --tp 8`` and nothing
  else, SGLang 0.5.6.post1; three lengths (1k/1k, 1k/8k, 8k/1k) at 1, 16 and 64 or 100 users,
  nine runs. The sets' first rows of DeepSeek's fp8 checkpoint on Blackwell under SGLang.
- ``autoregressive/Llama/Llama3.1.mdx`` @0fbab45d: Llama-3.1-70B on eight A100, ``--tp 8``,
  SGLang 0.5.6; two lengths (1k/1k, 8k/1k) at 1, 16 and 64 or 100 users, six runs. A dense
  model on an older card, which item 5 asks for.

Typed by :mod:`core.evidence.cases_2026`'s rule, read for these pages as the cookbook's other
rows are (:mod:`core.evidence.cases_magpie`), written down and committed before the engine
level was evaluated on any of them:

- a page of six runs or fewer gives every run; a page of more gives, for each length, the runs
  at its smallest and largest load (the DeepSeek-R1 page: 1 user, and 100 or 64);
- the figure: the time between tokens (mean TPOT) at 1 and 16 users, the output throughput at
  64 or 100 (throughput under heavy load, latency at few users);
- each taken run at one user also gives its mean first token, shown and not scored (a second
  figure of the same run), as InferenceX's first tokens are;
- lengths the run's means (its total input and generated tokens over its requests), as the
  cookbook's random rows are typed (``bench_serving``'s random lengths are drawn, not fixed);
  the load the run's users, its requests the run's successful requests;
- the cache the release's default (bf16: neither command sets a format); SGLang 0.5.6 and
  0.5.6.post1 priced as the 0.5 line; the layout the command's ``--tp 8`` (TP8, experts split
  eight ways);
- the Llama page names "NVIDIA A100 GPU (8x)", not its memory: typed as the catalog's only
  A100, the 80 GB SXM card (a 40 GB card's memory is slower, 1.6 TB/s against 2.0);
  Llama-3.1-70B as the catalog's Llama-3-70B (the same shape);
- the page's benchmark commands for Llama read ``sglang serve --backend sglang ...``; the flags
  are ``bench_serving``'s and its printed results are, so they are read as ``bench_serving``.

Seventeen rows: D453-D469, twelve scored, five first tokens shown.
"""

from __future__ import annotations

from core.evidence.cases import PublishedCase
from core.evidence.configs import DEEPSEEK_FP8

COOKBOOK_PAGE = "sgl-project/sglang docs_new/cookbook (docs.sglang.io/cookbook), bench_serving: {}"
"""A cookbook page's source, its page and section formatted in."""
_DEEPSEEK_PAGE = COOKBOOK_PAGE.format(
    "autoregressive/DeepSeek/DeepSeek-R1.mdx @23b0c3db, '5.1 Speed Benchmark' (8 x B200, "
    "DeepSeek-R1-0528, TP 8, SGLang 0.5.6.post1; launch_server --model-path "
    "deepseek-ai/DeepSeek-R1-0528 --tp 8; bench_serving --dataset-name random)"
)
_LLAMA_PAGE = COOKBOOK_PAGE.format(
    "autoregressive/Llama/Llama3.1.mdx @0fbab45d, '5.1 Speed Benchmark' (8 x NVIDIA A100, "
    "Meta-Llama/Llama-3.1-70B, TP 8, SGLang 0.5.6; sglang serve --model-path "
    "Meta-Llama/Llama-3.1-70B --tp 8; random 1000/1000 and 8000/1000)"
)
_ASSUMED = (
    "random lengths typed as the run's means; KV bf16 (the release's default: the command sets "
    "none); the 0.5 line"
)
_LLAMA_ASSUMED = (
    f"{_ASSUMED}; 'NVIDIA A100' typed as the catalog's A100 80GB SXM (the page names no "
    "memory); Llama-3.1-70B as the catalog's Llama-3-70B shape"
)
_SECOND_FIGURE = (
    "the set takes the run's time between tokens; its mean first token is a second figure of "
    "the same run, shown beside it"
)
FIRST_KEY = 453

# Each printed run: (nominal lengths, users, successful requests, total input tokens, total
# generated tokens, output tok/s, mean TTFT ms, mean TPOT ms), as the page prints them.
DEEPSEEK_RUNS = (
    ("1k/1k", 1, 10, 6101, 4210, 105.24, 153.00, 9.16),
    ("1k/1k", 16, 80, 39668, 40725, 795.30, 273.51, 17.56),
    ("1k/1k", 100, 500, 249831, 252162, 2282.90, 563.14, 40.11),
    ("1k/8k", 1, 10, 6101, 44452, 108.07, 125.76, 9.21),
    ("1k/8k", 16, 80, 39668, 318226, 912.02, 176.02, 15.42),
    ("1k/8k", 64, 320, 158939, 1300705, 2207.16, 223.91, 25.94),
    ("8k/1k", 1, 10, 41941, 4210, 103.56, 165.91, 9.26),
    ("8k/1k", 16, 80, 300020, 41589, 733.41, 486.80, 19.06),
    ("8k/1k", 64, 320, 1273893, 169680, 1468.50, 913.93, 39.93),
)  # fmt: skip
LLAMA_RUNS = (
    ("1k/1k", 1, 10, 6101, 4220, 52.88, 131.61, 18.63),
    ("1k/1k", 16, 80, 39668, 40805, 513.48, 264.84, 26.09),
    ("1k/1k", 100, 500, 249831, 252662, 1919.38, 245.98, 47.19),
    ("8k/1k", 1, 10, 41941, 4220, 50.69, 395.25, 18.80),
    ("8k/1k", 16, 80, 300020, 41669, 389.00, 603.42, 36.94),
    ("8k/1k", 64, 320, 1273893, 170000, 788.27, 633.32, 74.95),
)  # fmt: skip


def taken(runs: tuple) -> tuple:
    """The runs the rule takes: every run of a page of six or fewer, else each length's runs at
    its smallest and largest load."""
    if len(runs) <= 6:
        return runs
    loads = {}
    for run in runs:
        loads.setdefault(run[0], []).append(run[1])
    return tuple(run for run in runs if run[1] in (min(loads[run[0]]), max(loads[run[0]])))


def _quoted(run: tuple, figure: str, value: float) -> str:
    """The run's printed lines the case reads: its load, requests, totals and ``figure``'s
    ``value``."""
    _, users, requests, inputs, generated = run[:5]
    return (
        f"Max request concurrency: {users} | Successful requests: {requests} | Total input "
        f"tokens: {inputs} | Total generated tokens: {generated} | {figure}: {value:.2f}"
    )


def cookbook_case(key: int, run: tuple, first_token: bool, page: dict) -> PublishedCase:
    """One taken run of ``page`` (its model, card, release, source and assumptions; its layout,
    TP8 unless it says) as a case: its time between tokens at 16 users or fewer, else its output
    throughput; or, with ``first_token``, its mean first token, shown and not scored."""
    _, users, requests, inputs, generated, output, ttft, tpot = run
    metric = "ttft" if first_token else "itl" if users <= 16 else "throughput"
    # the printed figure's name, its value, and what turns it into the case's unit
    figure, printed, per_unit = {
        "ttft": ("Mean TTFT (ms)", ttft, 1000),
        "itl": ("Mean TPOT (ms)", tpot, 1000),
        "throughput": ("Output token throughput (tok/s)", output, 1),
    }[metric]
    return PublishedCase(
        f"D{key}", metric, page["model"], page["gpu"], 8, page["dtype"], round(inputs / requests),
        round(generated / requests), "users", users, printed / per_unit, page["source"],
        _quoted(run, figure, printed), kv_dtype="bf16", engine="SGLang",
        engine_version=page["version"], layout=page.get("layout", "TP8"),
        weight_formats=page["formats"],
        requests=requests, assumed=page["assumed"], scored=not first_token,
        unscored_why=_SECOND_FIGURE if first_token else "",
    )  # fmt: skip


_PAGES = (
    {"runs": DEEPSEEK_RUNS, "model": "DeepSeek-R1", "gpu": "B200", "dtype": "fp8",
     "formats": DEEPSEEK_FP8, "version": "0.5.6.post1", "source": _DEEPSEEK_PAGE,
     "assumed": _ASSUMED},
    {"runs": LLAMA_RUNS, "model": "Llama-3-70B", "gpu": "A100 80GB SXM", "dtype": "bf16",
     "formats": "", "version": "0.5.6", "source": _LLAMA_PAGE, "assumed": _LLAMA_ASSUMED},
)  # fmt: skip


def cookbook_cases(pages: tuple, first_key: int) -> list[PublishedCase]:
    """Each page's taken runs in the page's order, then its one-user runs' first tokens, keyed
    from ``first_key`` on."""
    cases = []
    for page in pages:
        runs = taken(page["runs"])
        rows = [(run, False) for run in runs] + [(run, True) for run in runs if run[1] == 1]
        cases += [cookbook_case(first_key + len(cases) + i, *row, page)
                  for i, row in enumerate(rows)]  # fmt: skip
    return cases


SGLANG_COOKBOOK: list[PublishedCase] = cookbook_cases(_PAGES, FIRST_KEY)
"""The DeepSeek-R1 page's rows (D453-D461) and the Llama 3.1 page's (D462-D469), in key order."""
