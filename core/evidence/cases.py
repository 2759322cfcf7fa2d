"""Published measurements of real serving engines, each typed in as its benchmark ran it.

The development set (:data:`DEVELOPMENT`) is the 25 cases of 2024 engines the engine level was
built on; :mod:`core.evidence.cases_2026` holds the second development set, 2025-26 engines and
mixtures of experts; the check set (:data:`CHECK`) is more rows from the first set's public
tables, never used to choose a constant, to show the physics generalises.
:meth:`PublishedCase.scenario` turns a case into the :class:`core.Scenario` whose figure is
compared with the measurement.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache

from core.catalog import GPUS
from core.catalog.release_names import version_of_text
from core.engine_level.kernels import max_running
from core.evaluate import engine_node
from core.evidence.publishers import publisher_of
from core.scenario.knobs import ENGINE_ALIASES, SERVING_ENGINES, Scenario, canonical_choice

_TRT_DOC = "NVIDIA/TensorRT-LLM docs/source/performance/perf-overview.md @258c7540"
_TRT_V017 = (
    f"{_TRT_DOC} (v0.17 throughput table: trtllm-bench, in-flight batching, every request "
    "sent at once, fp8 weights and KV cache)"
)
_TRT_ONLINE = f"{_TRT_DOC} ('Online Serving Measurements', v0.14, BF16, Triton backend)"
_NIM = (
    "https://docs.nvidia.com/nim/benchmarking/llm/1.0.0/performance.md (NIM "
    "llama-3.3-70b-instruct 1.8.0, 2 x H100 80G, fp8, TP2)"
)
_SGLANG = (
    "sgl-project/sglang benchmark/benchmark_vllm_060/README.md @120affb9 (SGLang v0.3.0, "
    "ShareGPT, bf16; prompt length assumed at the ShareGPT mean)"
)

# What each metric is compared with.
FIELDS = {
    "throughput": "throughput_tokens_per_s",
    "ttft": "ttft_p50_s",
    "itl": "itl_s",
    "request": "request_s",
}
UNITS = {
    "throughput": "output tok/s",
    "ttft": "s to first token",
    "itl": "s between tokens",
    "request": "s per request",
}
METRIC_NAMES = {
    "throughput": "output throughput",
    "ttft": "time to first token",
    "itl": "time between tokens",
    "request": "one request alone",
}
# The engines a case can be measured on; the first is the one the engine level models today.
ENGINES = ("TensorRT-LLM", "vLLM", "SGLang")
# What today's Scenario does for the knobs it does not have yet (issue 23 adds them).
TODAYS_LAYOUT = "TP"
# A saturated benchmark: more users than any node has seats.
SATURATED_USERS = 100_000
SATURATED_SEATS = 4096
OPEN_LOOP_SEATS = 256


@dataclass(frozen=True)
class PublishedCase:
    """One published measurement and the set-up it was measured on."""

    key: str
    metric: str  # "throughput", "ttft", "itl" or "request"
    model: str
    gpu: str
    cards: int
    dtype: str  # the weights' storage, and the KV cache's unless kv_dtype says otherwise
    prompt_tokens: int
    answer_tokens: int
    load: str  # "saturated", "users" (closed loop) or "rate" (requests per second)
    load_value: float
    measured: float
    source: str
    quoted: str = ""
    kv_dtype: str = ""  # the cache's storage where it differs from the weights'
    model_config: str = ""  # the pasted config.json when model is "custom"
    model_label: str = ""  # the pasted model's name, for the page
    # the engine that measured it, one of ENGINES, and its version as the source states it
    engine: str = ENGINES[0]
    engine_version: str = ""
    # set-up the Scenario has no knob for yet: the engine's parallel layout in the source's
    # notation (TP, DEP8, TP8/EP4 ...) and the checkpoint's storage per tensor where it mixes
    layout: str = TODAYS_LAYOUT
    weight_formats: str = ""
    scored: bool = True  # False: shown, but left out of its set's score (the set says why)
    unscored_why: str = ""  # why an unscored case is left out, in a clause the page shows
    assumed: str = ""  # what the source does not state and the case assumes
    # a run's set-up where its source states it: the requests it sends (0: unstated, priced
    # as a steady state; a run of unequal lengths is priced by equal requests' waves, which at
    # a whole number of waves is the steady state's throughput), and the lengths trtllm-bench
    # sized the engine for when one engine was built for several runs (empty: each run's own)
    requests: int = 0
    built_for: tuple[int, int] = ()
    # the most requests the engine runs at once where the source's command sets it (vLLM's
    # --max-num-seqs, TensorRT-LLM's --max_batch_size over its ranks, with --max_num_tokens:
    # the Scenario's ``batch_limit``; 0: the release's default)
    max_seqs: int = 0
    # the share of each card's memory the source's command gives the engine (vLLM's
    # --gpu-memory-utilization, SGLang's --mem-fraction-static, TensorRT-LLM's
    # --kv_cache_free_gpu_mem_fraction: the Scenario's ``memory_share``; 0: the release's own)
    memory_share: float = 0.0
    # the decode steps between SGLang's polls for new requests where the source's command sets
    # them (--scheduler-recv-interval: the Scenario's ``recv_interval``; 0: every step)
    recv_interval: int = 0

    @property
    def field(self) -> str:
        """The :class:`core.Result` field this case is compared with."""
        return FIELDS[self.metric]

    @property
    def set_up(self) -> tuple:
        """What makes two published rows measurements of one thing: the figure, model, card,
        cards, storage, lengths, load and engine (its release may differ)."""
        return (self.metric, self.model, self.model_config, self.gpu, self.cards, self.dtype,
                self.cache_dtype, self.prompt_tokens, self.answer_tokens, self.load,
                self.load_value, self.engine_knob)  # fmt: skip

    @property
    def publisher(self) -> str:
        """Who published the measurement, read from its source (:func:`publisher_of`)."""
        return publisher_of(self.source)

    @property
    def engine_knob(self) -> str:
        """The Scenario's ``engine`` for the engine the source names (``"vLLM"`` is ``"vllm"``)."""
        return canonical_choice(self.engine, SERVING_ENGINES, ENGINE_ALIASES)

    @property
    def version_knob(self) -> str:
        """The Scenario's ``engine_version``: the catalog release that ran the benchmark.

        One rule for every case (:func:`core.catalog.release_names.version_of_text`): the
        newest catalog release at or below the version the source states.
        """
        return version_of_text(self.engine_knob, self.engine_version)

    @property
    def model_name(self) -> str:
        """The model by name: the catalog's, or the pasted config's label."""
        return self.model_label or self.model

    @property
    def cache_dtype(self) -> str:
        """The KV cache's storage."""
        return self.kv_dtype or self.dtype

    @property
    def storage(self) -> str:
        """Weights and cache storage in words: ``fp8``, or ``mxfp4/bf16`` where they differ."""
        if self.cache_dtype == self.dtype:
            return self.dtype
        return f"{self.dtype}/{self.cache_dtype}"

    @property
    def pending_knobs(self) -> dict[str, str]:
        """Set-up the case ran with that the Scenario still cannot type, by intended knob.

        The engine and the layout are knobs (``engine``, ``layout``); a checkpoint's storage
        per tensor is the catalog model's (gpt-oss's bf16 attention, DeepSeek's block-scaled
        fp8), so ``weight_formats`` is pending only where the catalog does not describe it.
        """
        if not self.weight_formats:
            return {}
        from core.catalog import MODELS

        shape = MODELS.get(self.model)
        described = shape is not None and (
            shape.bf16_params > 0 or shape.checkpoint_dtype == self.dtype != "bf16"
        )
        return {} if described else {"weight_formats": self.weight_formats}

    @property
    def load_text(self) -> str:
        """The benchmark's load in words."""
        if self.load == "saturated":
            if self.requests:
                return f"{self.requests:,} requests at once"
            return "every request at once"
        if self.load == "users":
            return f"{self.load_value:,g} user" + ("s" if self.load_value != 1 else "")
        return f"{self.load_value:,g} requests/s"

    @property
    def batch_limit(self) -> int:
        """The most requests the benchmark's engine runs at once, memory allowing.

        trtllm-bench's cap for TensorRT-LLM (the tool sizes its own batch below it); for vLLM
        and SGLang the release's default (``max_num_seqs``, :mod:`core.catalog.engine_versions`)
        unless the source's command sets another (``max_seqs``).
        """
        if self.max_seqs:
            return self.max_seqs
        if self.engine_knob == "tensorrt-llm":
            return SATURATED_SEATS
        memory = GPUS[self.gpu].memory_bytes
        return int(max_running(self.gpu, self.engine_knob, memory, self.version_knob))

    @property
    def saturated_users(self) -> int:
        """The requests a max-load run keeps in flight, typed as that many closed-loop users.

        Every request at once is more users than any node seats, unless the source states
        how many the run sends (a run never holds more), or its engine was built for other
        lengths: then no more run than the batch limit trtllm-bench sized that engine to
        (:func:`built_batch`; the rest wait for a later wave). A stated count is also the
        scenario's ``run_requests``, which prices the run's waves and its last, partial one.
        """
        users = self.requests or SATURATED_USERS
        if self.built_for:
            users = min(users, built_batch(self))
        return int(users)

    def scenario(self, realism: str = "engine") -> Scenario:
        """The scenario that reproduces the benchmark's set-up."""
        knobs = dict(
            model=self.model,
            gpu=self.gpu,
            cards=self.cards,
            weight_dtype=self.dtype,
            kv_dtype=self.cache_dtype,
            prompt_tokens=self.prompt_tokens,
            answer_tokens=self.answer_tokens,
            prefix_hit_rate=0.0,
            realism=realism,
        )
        if self.model_config:
            knobs["model_config"] = self.model_config
        knobs.update(
            engine=self.engine_knob,
            engine_version=self.version_knob,
            layout=layout_knob(self.layout),
        )
        seats = min(self.batch_limit, SATURATED_SEATS)  # the knob's range; a command's is kept
        if self.load == "saturated":
            knobs.update(seats=seats, concurrency=self.saturated_users)
        elif self.load == "users":
            knobs.update(seats=seats, concurrency=int(self.load_value))
        else:
            knobs.update(seats=OPEN_LOOP_SEATS, arrivals_per_min=60.0 * self.load_value)
        if self.requests and self.load != "rate":  # a closed loop's run that ends
            knobs.update(run_requests=self.requests)
        if self.max_seqs and self.load != "rate":  # the limit the run's command sets
            knobs.update(batch_limit=self.max_seqs)
        if self.memory_share:  # the share of memory the run's command gives the engine
            knobs.update(memory_share=self.memory_share)
        if self.recv_interval:  # how often the run's SGLang polls for new requests
            knobs.update(recv_interval=self.recv_interval)
        return Scenario(**knobs)


@cache
def built_batch(case: PublishedCase) -> int:
    """The batch limit trtllm-bench sizes an engine built for ``case.built_for``'s lengths to
    (:func:`core.engine_level.bench_sizing.trtllm_bench_settings` on the case's set-up)."""
    prompt, answer = case.built_for
    sized = replace(case, prompt_tokens=prompt, answer_tokens=answer, requests=0, built_for=())
    return int(engine_node(sized.scenario()).bench_batch)


def layout_knob(layout: str) -> str:
    """The Scenario's ``layout`` for a source's notation: TP8 is "tp", DEP8 and DP attention
    "dep", TP8/EP4 "ep"."""
    text = layout.upper()
    if "DEP" in text or "DP" in text:
        return "dep"
    return "ep" if "EP" in text else "tp"


# The engine behind each source of the first set, by the key's letter. NIM's fp8 TP2 profile
# of Llama-3.3-70B is ASSUMED to run TensorRT-LLM (NIM ships TensorRT-LLM and vLLM back ends),
# a 0.x build (NIM 1.8.0 predates TensorRT-LLM 1.0) on the C++ runtime: NIM made the PyTorch
# backend its TensorRT-LLM default only in 1.15.0 ("TRT-LLM PyTorch backend is now stable and
# the default; legacy TRT-LLM backend moved to legacy", NIM for LLMs release notes,
# docs.nvidia.com/nim/large-language-models/latest/release-notes.html). Its minor release is not
# stated, so it is typed as the newest C++-runtime line the catalog knows, 0.17. (Typed "0.x",
# the newest 0.x, it took 0.20's PyTorch-backend host cost: corrected in issue 37's fifth
# round, once that cost was priced, from the release notes.)
_FIRST_ENGINES = {
    "T": ("TensorRT-LLM", "0.17 (trtllm-bench)"),
    "N": ("TensorRT-LLM", "0.17 (a 0.x C++-runtime build in NIM 1.8.0)"),
    "S": ("SGLang", "0.3.0"),
    "O": ("TensorRT-LLM", "0.14 (Triton)"),
}


# The requests each max-load run of NVIDIA's v0.17 perf overview sends, by its lengths: the
# page's $num_requests table, chosen "to guarantee that the system hit a steady state" (more
# requests for shorter lengths); one trtllm-bench build per dataset, sized to its lengths.
PERF_OVERVIEW_REQUESTS = {
    (128, 128): 30000, (128, 2048): 3000, (128, 4096): 1500, (2048, 128): 3000,
    (2048, 2048): 1500, (5000, 500): 1500, (1000, 1000): 3000, (500, 2000): 3000,
    (20000, 2000): 1000,
}  # fmt: skip


def _case(key, metric, model, gpu, cards, dtype, prompt, answer, load, value, measured, source,
          quoted=""):  # fmt: skip
    engine, version = _FIRST_ENGINES[key[0]]
    # SGLang's S3/S4 send 5,000 ShareGPT requests: not equal requests, so no run is typed
    sent = PERF_OVERVIEW_REQUESTS[prompt, answer] if key[0] == "T" else 0
    return PublishedCase(
        key, metric, model, gpu, cards, dtype, prompt, answer, load, value, measured, source,
        quoted, engine=engine, engine_version=version, requests=sent,
    )  # fmt: skip


_8B, _70B, _MIX = "Llama-3-8B", "Llama-3-70B", "Mixtral-8x7B"
_H100, _H200, _A100 = "H100 SXM", "H200", "A100 80GB SXM"
_SAT = ("saturated", 0)

DEVELOPMENT: list[PublishedCase] = [
    _case("T1", "throughput", _8B, _H100, 1, "fp8", 128, 128, *_SAT, 28836.77, _TRT_V017,
          "LLaMA v3.1 8B | 1 | 128, 128 | H100 28836.77"),
    _case("T2", "throughput", _8B, _H100, 1, "fp8", 128, 2048, *_SAT, 21109.38, _TRT_V017,
          "LLaMA v3.1 8B | 1 | 128, 2048 | H100 21109.38"),
    _case("T3", "throughput", _8B, _H100, 1, "fp8", 2048, 128, *_SAT, 3556.73, _TRT_V017,
          "LLaMA v3.1 8B | 1 | 2048, 128 | H100 3556.73"),
    _case("T4", "throughput", _8B, _H100, 1, "fp8", 20000, 2000, *_SAT, 1401.31, _TRT_V017,
          "LLaMA v3.1 8B | 1 | 20000, 2000 | H100 1401.31"),
    _case("T5", "throughput", _8B, _H200, 1, "fp8", 1000, 1000, *_SAT, 17537.96, _TRT_V017,
          "LLaMA v3.1 8B | 1 | 1000, 1000 | H200 17537.96"),
    _case("T6", "throughput", _8B, _A100, 1, "bf16", 1000, 1000, *_SAT, 3786.83, _TRT_V017,
          "LLaMA v3.1 8B | 1 | 1000, 1000 | A100-SXM4-80GB FP16 3786.83"),
    _case("T7", "throughput", _70B, _H100, 1, "fp8", 128, 2048, *_SAT, 911.62, _TRT_V017,
          "LLaMA v3.1 70B | 1 | 128, 2048 | H100 911.62"),
    _case("T8", "throughput", _70B, _H200, 1, "fp8", 128, 2048, *_SAT, 4165.68, _TRT_V017,
          "LLaMA v3.1 70B | 1 | 128, 2048 | H200 4165.68"),
    _case("T9", "throughput", _70B, _H100, 2, "fp8", 1000, 1000, *_SAT, 4390.53, _TRT_V017,
          "LLaMA v3.1 70B | 2 | 1000, 1000 | H100 4390.53"),
    _case("T10", "throughput", _70B, _H100, 8, "fp8", 1000, 1000, *_SAT, 11451.16, _TRT_V017,
          "LLaMA v3.1 70B | 8 | 1000, 1000 | H100 11451.16"),
    _case("T11", "throughput", _MIX, _H100, 2, "fp8", 1000, 1000, *_SAT, 15770.89, _TRT_V017,
          "Mixtral 8x7B | 2 | 1000, 1000 | H100 15770.89"),
    _case("N1", "ttft", _70B, _H100, 2, "fp8", 5000, 500, "users", 1, 0.40677, _NIM,
          "Concurrency 1 | TTFT 406.77 ms | ITL 18.58 ms"),
    _case("N2", "itl", _70B, _H100, 2, "fp8", 5000, 500, "users", 1, 0.01858, _NIM,
          "Concurrency 1 | 406.77 | ITL 18.58"),
    _case("N3", "itl", _70B, _H100, 2, "fp8", 5000, 500, "users", 25, 0.03875, _NIM,
          "Concurrency 25 | 688.69 | ITL 38.75 | 623.4"),
    _case("N4", "itl", _70B, _H100, 2, "fp8", 5000, 500, "users", 50, 0.05973, _NIM,
          "Concurrency 50 | 834.51 | ITL 59.73 | 814.37"),
    _case("N5", "ttft", _70B, _H100, 2, "fp8", 5000, 500, "users", 25, 0.68869, _NIM,
          "Concurrency 25 | TTFT 688.69 | ITL 38.75 | 623.4"),
    _case("N6", "ttft", _70B, _H100, 2, "fp8", 5000, 500, "users", 50, 0.83451, _NIM,
          "Concurrency 50 | TTFT 834.51 | ITL 59.73 | 814.37"),
    _case("S1", "itl", _8B, _A100, 1, "bf16", 220, 194, "rate", 4, 0.01317, _SGLANG,
          "RPS 4 | SGLang | TPOT 13.17 (median)"),
    _case("S2", "itl", _70B, _H100, 4, "bf16", 220, 194, "rate", 4, 0.02503, _SGLANG,
          "RPS 4 | SGLang | TPOT 25.03 (median)"),
    _case("S3", "throughput", _8B, _A100, 1, "bf16", 220, 194, *_SAT, 4281.51, _SGLANG,
          "inf | 5000 | SGLang | 4281.51 output tok/s (8B, 1 x A100 80G)"),
    _case("S4", "throughput", _70B, _H100, 4, "bf16", 220, 194, *_SAT, 3856.01, _SGLANG,
          "inf | 5000 | SGLang | 3856.01 output tok/s (70B, 4 x H100 80G)"),
    _case("O1", "itl", _8B, _H100, 1, "bf16", 467, 256, "rate", 2, 0.008, _TRT_ONLINE,
          "LLaMA 3.1 8B | 467 | 256 | QPS 2 | TTFT 23 | ITL 8"),
    _case("O2", "itl", _8B, _H100, 1, "bf16", 467, 256, "rate", 16, 0.011, _TRT_ONLINE,
          "QPS 16 | 15 req/s | TTFT 30 | ITL 11"),
    _case("O3", "itl", _70B, _H100, 4, "bf16", 467, 256, "rate", 2, 0.021, _TRT_ONLINE,
          "LLaMA 3.1 70B | TP 4 | 467 | 256 | QPS 2 | TTFT 62 | ITL 21"),
    _case("O4", "ttft", _70B, _H100, 4, "bf16", 467, 256, "rate", 2, 0.062, _TRT_ONLINE,
          "same row as O3: QPS 2 | mean TTFT 62 ms"),
]  # fmt: skip
