"""Each serving engine's releases: the defaults and host costs that changed from one to the next.

The engine level prices a step with the engine's own costs (:mod:`core.catalog.kernels`'s
``ENGINES``); what changed between releases lives here, one :class:`EngineVersion` per release
that changed something the engine level reads or a student would ask about: whether the host's
step work (scheduling, input preparation, output processing) overlaps the GPU's step, the most
requests run at once, chunked prefill and its token budget, the largest batch captured in a CUDA
graph, and the latency of one small all-reduce. Every figure is read from the engine's code, its
documentation or its release notes (the ``*_source`` strings), never fitted to a benchmark row.

What the engine level prices from a release: the most requests it runs at once, the host's work
per running request where a profile gives it (:mod:`core.catalog.host_costs`), the kernels it
no longer launches or runs instead (a shared expert fused, SGLang 0.5; an fp8 quantiser fused,
vLLM's V1; Triton GEMMs on CDNA3, SGLang 0.5.6: :mod:`core.catalog.release_kernels`), and the
host step an overlap scheduler hides where a profile shows the GPU never idle (SGLang's, from
0.4). Other releases' host overlap and all-reduce kernels are recorded, sourced, not priced
(:data:`PRICE_RELEASE_HOST_COSTS`: priced, both development sets read worse each time; the
figures are in :mod:`core.catalog.host_costs`). A release's batch limit and prefill chunk can
depend on the card (``max_running_small``, ``chunk_tokens_small``, ``chunk_tiers``).

``Scenario.engine_version`` picks a release (default: :func:`newest_version`); a published case
is typed with the one that ran it (:func:`core.catalog.release_names.version_of_text`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from core.catalog import ENGINE_KV_FRACTION
from core.catalog.allreduce_kernels import (
    SGLANG_ALLREDUCE_S,
    SGLANG_ALLREDUCE_SOURCE,
    TRTLLM_ALLREDUCE_S,
    TRTLLM_ALLREDUCE_SOURCE,
    TRTLLM_CPP_ALLREDUCE_SOURCE,
    TRTLLM_NO_GRAPH_ALLREDUCE_S,
    VLLM_ALLREDUCE_SOURCE,
    VLLM_CUSTOM_ALLREDUCE_S,
)
from core.catalog.engines import (
    TRTLLM_BENCH_BUILD_SIZING,
    TRTLLM_BENCH_CLI_SOURCE,
    TRTLLM_GRAPH_PADDING_SOURCE,
)
from core.catalog.host_costs import (
    TRTLLM_PYTORCH_HOST_PER_REQUEST_S,
    TRTLLM_PYTORCH_HOST_SOURCE,
    VLLM_V0_HOST_PER_REQUEST_S,
    VLLM_V0_HOST_SOURCE,
    VLLM_V1_HOST_PER_REQUEST_S,
    VLLM_V1_HOST_SOURCE,
)
from core.catalog.memory_profiles import OUTSIDE_ALLOCATOR_SOURCE, VLLM_SNAPSHOT
from core.catalog.release_kernels import (
    ATOM_FUSION_RULE,
    ATOM_PLUGIN_RELEASE,
    ATOM_PLUGIN_SOURCE,
    SGLANG_04_AITER_SOURCE,
    SGLANG_04_ROCM_SOURCE,
    SGLANG_AITER_RELEASE,
    SGLANG_AITER_SOURCE,
    SGLANG_BEFORE_AITER_SOURCE,
    SGLANG_TRITON_GEMM,
    SGLANG_TUNED_GEMM,
    SHARED_EXPERT_FUSION_RULE,
    VLLM_AITER_RELEASE,
    VLLM_AITER_SOURCE,
    VLLM_V1_QUANT_FUSION,
)
from core.catalog.sglang_defaults import (
    SGL_05_CHUNK_TIERS,
    SGL_CHUNK,
    SGL_CHUNK_05,
    SGL_CHUNK_TIERS,
    SGL_GRAPH,
    SGL_GRAPH_160,
    SGL_SEQS,
)

PRICE_RELEASE_HOST_COSTS = False
"""Whether the engine level prices every overlapping release's scheduler (SGLang's always)."""
PRICE_RELEASE_ALLREDUCE = False
"""Whether the engine level prices each release's all-reduce kernel (else one 10.1 µs for all)."""
PRICE_RELEASE_REQUEST_HOST = True
"""Whether the engine level prices each release's host work per running request."""


@dataclass(frozen=True)
class EngineVersion:
    """One release of a serving engine: what it does by default and what its host pays."""

    engine: str  # a key of core.catalog.engines.ENGINES
    version: str  # the release line, "0.6" or "1.0", or a patch release in one, "0.5.6"
    runtime: str  # the engine inside it in words (V0, V1, C++ runtime, PyTorch backend)
    source: str  # the release note or code that says what the release is
    # whether the host's work for step n+1 runs while the GPU runs step n (then a step pays
    # only the part of the host's time that outlasts the GPU's)
    overlap_scheduler: bool
    overlap_source: str
    # the most requests one instance runs at once on cards of 70 GiB or more (not A100), and
    # on the others
    max_running: int
    max_running_small: int
    max_running_source: str
    # chunked prefill on by default, and the tokens one step may carry when it is (on the cards
    # that take the larger defaults, above every tier of chunk_tiers)
    chunked_prefill: bool
    chunk_tokens: int
    chunked_source: str
    # the largest decode batch replayed from a captured CUDA graph (larger ones run eagerly)
    graph_max_batch: int
    graph_source: str
    # seconds one small all-reduce takes on 8 cards over NVLink, and which kernel runs it
    allreduce_latency_s: float
    allreduce_source: str
    # seconds of host work one running request adds to every step on its rank (scheduling,
    # input preparation, sampling and output handling per request), where a profile gives it
    host_per_request_s: float = 0.0
    host_per_request_source: str = "not measured for this release: unpriced"
    # whether a DeepSeek-V3-shaped model's one shared expert runs inside the routed experts'
    # fused kernel as one more expert every token picks (SHARED_EXPERT_FUSION_RULE)
    fuses_shared_expert: bool = False
    fuses_shared_expert_source: str = "the shared expert runs as its own MLP"
    # ... and whether it still does under data-parallel attention (DEP layouts)
    fuses_shared_expert_data_parallel: bool = True
    # the kernel library the release runs on AMD cards where it is not the engine's own ("aiter":
    # AMD's AITER, whose rows measured on the card price it; core.catalog.kernels.kernels_engine)
    amd_kernels: str = ""
    amd_kernels_source: str = "the engine's own kernels on ROCm"
    # other kernels its block-fp8 dense GEMMs run on AMD cards (core.catalog.dense_gemms)
    amd_dense_kernels: str = ""
    amd_dense_kernels_source: str = "the release's amd_kernels"
    # how trtllm-bench sizes this release's engine (core.engine_level.bench_sizing): the share
    # of the KV room its estimate counts, and the bytes it counts per byte of checkpoint
    bench_kv_fraction: float = ENGINE_KV_FRACTION
    bench_checkpoint_scale: float = 1.0
    bench_sizing_source: str = TRTLLM_BENCH_CLI_SOURCE
    # whether a benchmark's decode-only steps run padded to engines.TRTLLM_BENCH_GRAPH_SIZES
    pads_to_graph_sizes: bool = False
    graph_padding_source: str = "no padded CUDA graphs priced for this release"
    # whether its memory profile counts each card's memory outside PyTorch's (memory_profiles)
    counts_outside_allocator: bool = True
    outside_allocator_source: str = OUTSIDE_ALLOCATOR_SOURCE
    # the tokens one step may carry on the cards that take the smaller defaults, as
    # max_running_small (0: chunk_tokens on every card), and where the release sets it by the
    # card's memory instead, (memory below which, tokens), smallest first (its chunked_source)
    chunk_tokens_small: int = 0
    chunk_tiers: tuple[tuple[float, int], ...] = ()
    # whether its compiled pass quantises a per-tensor fp8 GEMM's input in the kernel before it
    fuses_input_quant: bool = False
    fuses_input_quant_source: str = "each fp8 GEMM quantises its input in a kernel of its own"


# -- vLLM.
_VLLM_V0_SEQS = "vLLM 0.x vllm/engine/arg_utils.py EngineArgs.max_num_seqs = 256"
_VLLM_V0_CHUNK = (
    "vLLM V0 arg_utils.py: chunked prefill off unless max_model_len > 32K (then "
    "max_num_batched_tokens 512, docs 'Performance and Tuning: Chunked Prefill')"
)
_VLLM_V0_GRAPH = (
    "vLLM V0 worker/model_runner.py _BATCH_SIZES_TO_CAPTURE = [1, 2, 4] + [8 i for i in 1..32]: "
    "up to 256"
)
_VLLM_V1_CHUNK = (
    "vLLM V1 arg_utils.py _set_default_args: 'V1 always uses chunked prefills'; "
    "max_num_batched_tokens 2,048 for the API server (8,192 for the LLM class)"
)
_VLLM_V1_GRAPH = "vLLM V1 CompilationConfig: CUDA-graph capture sizes up to 512"
# the tokens a step carries under vLLM's API server on the cards that take its smaller defaults
VLLM_SMALL_CARD_CHUNK = 2048
_VLLM_BIG_SEQS = (
    "vLLM arg_utils.py _set_default_args: max_num_seqs 1024 and max_num_batched_tokens 8,192 "
    "(API server) on cards of 70 GiB or more, not A100 ('Setting large max_num_batched_tokens "
    "for A100 reduces throughput, see PR #17885'); 256 and 2,048 otherwise"
)
_VLLM_SYNC = (
    "vLLM V1 EngineCore busy loop: schedule, execute, update from output in turn; async "
    "scheduling opt-in (--async-scheduling) until made the default"
)
_VLLM_ASYNC = (
    "vLLM SchedulerConfig.async_scheduling on by default (vllm-project/vllm PR #27614; the "
    "v0.14.0 release with it on by default also for speculative decoding, PR #31998): 'Async "
    "scheduling helps to avoid gaps in GPU utilization'"
)
_VLLM_019 = EngineVersion(
    "vllm", "0.19", "V1, the current release line",
    "vLLM v0.19 (the release the 2026 vLLM blog and InferenceX rows ran)", True, _VLLM_ASYNC,
    1024, 256, _VLLM_BIG_SEQS, True, 8192, _VLLM_V1_CHUNK, 512, _VLLM_V1_GRAPH,
    VLLM_CUSTOM_ALLREDUCE_S, VLLM_ALLREDUCE_SOURCE, VLLM_V1_HOST_PER_REQUEST_S,
    VLLM_V1_HOST_SOURCE, chunk_tokens_small=VLLM_SMALL_CARD_CHUNK, **VLLM_SNAPSHOT,
    **VLLM_V1_QUANT_FUSION,
)  # fmt: skip
_VLLM = (
    EngineVersion(
        "vllm", "0.5", "V0, API server in the engine's process",
        "vLLM blog 2024-09-05 'vLLM v0.6.0: 2.7x Throughput Improvement': on v0.5.3, Llama 3 8B "
        "on one H100, the HTTP API server took 33 % of the time, scheduling 29 %, the GPU 38 %",
        False, "v0.5.3: scheduler and output processing 'execute in a synchronous manner that "
        "blocks GPU execution' (same blog)",
        256, 256, _VLLM_V0_SEQS, False, 512, _VLLM_V0_CHUNK, 256, _VLLM_V0_GRAPH,
        VLLM_CUSTOM_ALLREDUCE_S, VLLM_ALLREDUCE_SOURCE, VLLM_V0_HOST_PER_REQUEST_S,
        VLLM_V0_HOST_SOURCE,
    ),
    EngineVersion(
        "vllm", "0.6", "V0 after the host-overhead rewrite",
        "vLLM v0.6.0 release and blog 2024-09-05: API server in its own process (PR #6883), "
        "asynchronous output processing (PR #7049), multi-step scheduling opt-in (PR #7000)",
        False, "v0.6.0 overlaps only the output processing with the next step (PR #7049); "
        "scheduling and input preparation still run between steps, multi-step scheduling is "
        "opt-in (--num-scheduler-steps, blog 2024-09-05)",
        256, 256, _VLLM_V0_SEQS, False, 512, _VLLM_V0_CHUNK, 256, _VLLM_V0_GRAPH,
        VLLM_CUSTOM_ALLREDUCE_S, VLLM_ALLREDUCE_SOURCE, VLLM_V0_HOST_PER_REQUEST_S,
        VLLM_V0_HOST_SOURCE,
    ),
    EngineVersion(
        "vllm", "0.8", "V1 by default (V0 still selectable)",
        "vLLM v0.8.0 release notes: the V1 engine is on by default; blog 2025-01-27 'vLLM V1: A "
        "Major Upgrade to vLLM's Core Architecture' (EngineCore process, persistent batch, "
        "piecewise CUDA graphs)",
        False, _VLLM_SYNC,
        256, 256, "vLLM v0.9.1 arg_utils.py _set_default_args (V1): max_num_seqs 256 for the "
        "API server and the LLM class",
        True, 2048, _VLLM_V1_CHUNK, 512, _VLLM_V1_GRAPH,
        VLLM_CUSTOM_ALLREDUCE_S, VLLM_ALLREDUCE_SOURCE, VLLM_V1_HOST_PER_REQUEST_S,
        VLLM_V1_HOST_SOURCE, **VLLM_SNAPSHOT, **VLLM_V1_QUANT_FUSION,
    ),
    EngineVersion(
        "vllm", "0.10", "V1 only",
        "vLLM v0.10/v0.11 release notes: V0 code paths removed, V1 the only engine",
        False, _VLLM_SYNC,
        1024, 256, _VLLM_BIG_SEQS, True, 8192, _VLLM_V1_CHUNK + "; 8,192 on large cards "
        "(PR #17885)", 512, _VLLM_V1_GRAPH,
        VLLM_CUSTOM_ALLREDUCE_S, VLLM_ALLREDUCE_SOURCE, VLLM_V1_HOST_PER_REQUEST_S,
        VLLM_V1_HOST_SOURCE, chunk_tokens_small=VLLM_SMALL_CARD_CHUNK, **VLLM_SNAPSHOT,
        **VLLM_V1_QUANT_FUSION,
    ),
    EngineVersion(
        "vllm", "0.14", "V1, async scheduling by default",
        "vLLM v0.14.0 release (January 2026): async scheduling on by default", True, _VLLM_ASYNC,
        1024, 256, _VLLM_BIG_SEQS, True, 8192, _VLLM_V1_CHUNK, 512, _VLLM_V1_GRAPH,
        VLLM_CUSTOM_ALLREDUCE_S, VLLM_ALLREDUCE_SOURCE, VLLM_V1_HOST_PER_REQUEST_S,
        VLLM_V1_HOST_SOURCE, chunk_tokens_small=VLLM_SMALL_CARD_CHUNK, **VLLM_SNAPSHOT,
        **VLLM_V1_QUANT_FUSION,
    ),
    EngineVersion(
        "vllm", ATOM_PLUGIN_RELEASE, "V1 with AMD's ATOM plugin",
        ATOM_PLUGIN_SOURCE, True, _VLLM_ASYNC,
        1024, 256, _VLLM_BIG_SEQS, True, 8192, _VLLM_V1_CHUNK, 512, _VLLM_V1_GRAPH,
        VLLM_CUSTOM_ALLREDUCE_S,
        VLLM_ALLREDUCE_SOURCE + " (ATOM's AITER all-reduce: none measured)",
        VLLM_V1_HOST_PER_REQUEST_S, VLLM_V1_HOST_SOURCE,
        fuses_shared_expert=True, fuses_shared_expert_source=ATOM_FUSION_RULE,
        fuses_shared_expert_data_parallel=False, amd_kernels="aiter",
        amd_kernels_source=ATOM_PLUGIN_SOURCE, chunk_tokens_small=VLLM_SMALL_CARD_CHUNK,
        **VLLM_SNAPSHOT,
    ),
    # the 0.19 line with AITER switched on: the same release but for the kernels on AMD cards
    replace(
        _VLLM_019, version=VLLM_AITER_RELEASE, runtime="V1 with AMD's AITER kernels on",
        source=VLLM_AITER_SOURCE, amd_kernels="aiter", amd_kernels_source=VLLM_AITER_SOURCE,
    ),
    _VLLM_019,
)  # fmt: skip

# -- SGLang.
_SGLANG_04 = EngineVersion(
    "sglang", "0.4", "zero-overhead (overlap) scheduler",
    "lmsys blog 2024-12-04 'SGLang v0.4: Zero-Overhead Batch Scheduler'",
    True, "SGLang v0.4: 'The scheduler runs one batch ahead and prepares all the metadata "
    "required for the next batch'; Nsight shows 'no single idle time on the GPU'; on by "
    "default (--disable-overlap-schedule turns it off)",
    2048, 2048, SGL_SEQS, True, 8192, SGL_CHUNK, 160, SGL_GRAPH_160,
    SGLANG_ALLREDUCE_S, SGLANG_ALLREDUCE_SOURCE, amd_kernels_source=SGLANG_04_ROCM_SOURCE,
    chunk_tiers=SGL_CHUNK_TIERS,
)  # fmt: skip
_SGLANG_05 = EngineVersion(
    "sglang", "0.5", "overlap scheduler, to 0.5.5",
    "SGLang v0.5 release line (the LMSYS gpt-oss and cookbook rows ran 0.5.1-0.5.9)",
    True, "SGLang server_args.py disable_overlap_schedule = False (the overlap scheduler on)",
    2048, 2048, SGL_SEQS, True, 16384, SGL_CHUNK_05, 512, SGL_GRAPH,
    SGLANG_ALLREDUCE_S, SGLANG_ALLREDUCE_SOURCE,
    fuses_shared_expert=True, fuses_shared_expert_source=SHARED_EXPERT_FUSION_RULE,
    amd_kernels="aiter", amd_kernels_source=SGLANG_AITER_SOURCE, chunk_tiers=SGL_05_CHUNK_TIERS,
)  # fmt: skip
_SGLANG = (
    EngineVersion(
        "sglang", "0.3", "scheduler between steps",
        "lmsys blog 2024-09-04 'SGLang v0.3'; blog 2024-12-04 runs v0.3's scheduler with "
        "--disable-overlap",
        False, "SGLang v0.3 schedules between steps (the v0.4 blog's 'old batch scheduler (v0.3)')",
        2048, 2048, SGL_SEQS, True, 8192, SGL_CHUNK, 160, SGL_GRAPH_160,
        SGLANG_ALLREDUCE_S, SGLANG_ALLREDUCE_SOURCE, amd_kernels_source=SGLANG_BEFORE_AITER_SOURCE,
        chunk_tiers=SGL_CHUNK_TIERS,
    ),
    # the 0.4 line with AITER switched on: the same release but for the kernels on AMD cards
    replace(
        _SGLANG_04, version=SGLANG_AITER_RELEASE, runtime="AMD's AITER kernels on",
        source=SGLANG_04_AITER_SOURCE, amd_kernels="aiter",
        amd_kernels_source=SGLANG_04_AITER_SOURCE,
    ),
    _SGLANG_04,
    _SGLANG_05,  # and its patch releases that changed its block-fp8 GEMMs on CDNA3
    replace(_SGLANG_05, **SGLANG_TRITON_GEMM),
    replace(_SGLANG_05, **SGLANG_TUNED_GEMM),
)  # fmt: skip

# -- TensorRT-LLM.
_TRT_BATCH = "TensorRT-LLM BuildConfig.max_batch_size default 2048 (llm_args.py)"
_TRT_CPP_CHUNK = (
    "TensorRT-LLM C++ runtime: enable_chunked_context off by default; max_num_tokens 8,192 "
    "(BuildConfig)"
)
_TRT_CPP_SYNC = (
    "TensorRT-LLM C++ batch manager (0.x): the executor schedules each iteration before "
    "launching it; no overlap scheduler in the C++ runtime"
)
# What trtllm-bench itself sets for the PyTorch backend, whatever the library's defaults
# (NVIDIA/TensorRT-LLM PR #3875, 2025-05-09, in 0.20.0): the published 0.20 runs ran with these.
_TRT_020_BENCH = "NVIDIA/TensorRT-LLM tensorrt_llm/bench/benchmark/utils/general.py get_settings"
_TRT = (
    EngineVersion(
        "tensorrt-llm", "0.14", "C++ runtime, trtllm-build engines",
        "TensorRT-LLM v0.14 release notes and docs/source/performance/perf-overview.md",
        False, _TRT_CPP_SYNC, 2048, 2048, _TRT_BATCH, False, 8192, _TRT_CPP_CHUNK, 2048,
        "TensorRT-LLM engines built without CUDA graphs by default (use_cuda_graph off)",
        TRTLLM_NO_GRAPH_ALLREDUCE_S, TRTLLM_CPP_ALLREDUCE_SOURCE, **TRTLLM_BENCH_BUILD_SIZING,
    ),
    EngineVersion(
        "tensorrt-llm", "0.17", "C++ runtime (PyTorch backend in preview)",
        "TensorRT-LLM v0.17 release notes: the PyTorch backend introduced as a preview",
        False, _TRT_CPP_SYNC + "; the preview PyTorch backend's PyTorchConfig."
        "enable_overlap_scheduler defaults to False",
        2048, 2048, _TRT_BATCH, False, 8192, _TRT_CPP_CHUNK, 2048,
        "TensorRT-LLM engines built without CUDA graphs by default (use_cuda_graph off)",
        TRTLLM_NO_GRAPH_ALLREDUCE_S, TRTLLM_CPP_ALLREDUCE_SOURCE, **TRTLLM_BENCH_BUILD_SIZING,
    ),
    EngineVersion(
        "tensorrt-llm", "0.20", "PyTorch backend for the published perf overview",
        "TensorRT-LLM v0.20 docs/source/performance/perf-overview.md (trtllm-bench --backend "
        "pytorch)",
        True, _TRT_020_BENCH + ": 'enable_overlap_scheduler': True; NVIDIA/TensorRT-LLM "
        "docs/source/release-notes.md, Release 0.20.0: '[Breaking Change]: Enable scheduling "
        "overlap by default' (PR #4174)",
        2048, 2048, _TRT_BATCH, False, 8192, "TensorRT-LLM PyTorch backend: enable_chunked_prefill "
        "False by default; max_num_tokens 8,192", 128,
        _TRT_020_BENCH + ": 'use_cuda_graph': True, 'cuda_graph_max_batch_size': max_batch_size",
        TRTLLM_NO_GRAPH_ALLREDUCE_S, TRTLLM_CPP_ALLREDUCE_SOURCE,
        TRTLLM_PYTORCH_HOST_PER_REQUEST_S, TRTLLM_PYTORCH_HOST_SOURCE,
        pads_to_graph_sizes=True, graph_padding_source=_TRT_020_BENCH + ": "
        "'cuda_graph_padding_enabled': True (PR #3875); the v0.20 page's llm_options.yml pads to "
        "the 1.x pages' sizes",
    ),
    EngineVersion(
        "tensorrt-llm", "1.0", "PyTorch backend by default",
        "TensorRT-LLM v1.0 release notes: the PyTorch backend is the default LLM API backend",
        True, "TensorRT-LLM docs torch/features/overlap_scheduler.md: the scheduler overlaps CPU "
        "tasks with GPU computation, 'Enabled by default. To disable, set "
        "disable_overlap_scheduler=True'",
        2048, 2048, _TRT_BATCH, False, 8192, "TensorRT-LLM llm_args.py enable_chunked_prefill "
        "False by default; max_num_tokens 8,192", 128,
        "TensorRT-LLM llm_args.py CudaGraphConfig: batch sizes up to max_batch_size 128 by "
        "default",
        TRTLLM_ALLREDUCE_S, TRTLLM_ALLREDUCE_SOURCE,
        TRTLLM_PYTORCH_HOST_PER_REQUEST_S, TRTLLM_PYTORCH_HOST_SOURCE,
        pads_to_graph_sizes=True, graph_padding_source=TRTLLM_GRAPH_PADDING_SOURCE,
    ),
)  # fmt: skip

ENGINE_VERSIONS: dict[str, tuple[EngineVersion, ...]] = {
    "vllm": _VLLM,
    "sglang": _SGLANG,
    "tensorrt-llm": _TRT,
}
"""Each engine's releases, oldest first."""


def versions_of(engine: str) -> list[str]:
    """The releases the catalog knows for ``engine``, oldest first."""
    return [entry.version for entry in ENGINE_VERSIONS[engine]]


def newest_version(engine: str) -> str:
    """The newest release the catalog knows for ``engine`` (``engine_version``'s default)."""
    return ENGINE_VERSIONS[engine][-1].version


def engine_version(engine: str, version: str | None) -> EngineVersion:
    """The release ``version`` of ``engine`` (its newest where ``version`` is None).

    Raises
    ------
    KeyError
        Where the catalog has no such release of that engine.
    """
    if version is None:
        return ENGINE_VERSIONS[engine][-1]
    for entry in ENGINE_VERSIONS[engine]:
        if entry.version == version:
            return entry
    raise KeyError(f"{engine} {version}")
