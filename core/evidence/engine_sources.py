"""The sources table's rows for the engine level: engines' defaults, their costs, serving modes."""

from __future__ import annotations

from core.catalog import (
    ALLREDUCE_LATENCY_S,
    CHUNKED_PREFILL_TOKENS,
    ENGINE_KV_FRACTION,
    ENGINE_MAX_BATCH,
    ENGINE_MAX_NUM_TOKENS,
    GIB,
    HOST_STEP_S,
    INFINIBAND_NDR_BYTES_PER_S,
    KERNEL_FLOOR_S,
    KERNELS_PER_LAYER,
    NVLINK_PROTOCOL_EFFICIENCY,
    OUTSIDE_ALLOCATOR_BYTES_ONE_CARD,
    OUTSIDE_ALLOCATOR_BYTES_SHARDED,
    PCIE_ALLREDUCE_SHARE_FEW,
    PCIE_ALLREDUCE_SHARE_MANY,
)
from core.catalog.cards import GPUS, INFINITY_FABRIC_ALLREDUCE_SHARE, NVLINK_COLLECTIVE_SOURCE
from core.catalog.collective_tables import ALLREDUCE_SOURCE, NCCL_GATHER_SOURCE
from core.catalog.dense_gemms import (
    DENSE_GEMM_FLOORS,
    ENGINE_DENSE_GEMM_FLOORS,
    RELEASE_DENSE_GEMM_FLOORS,
    STATIC_QUANT_S,
    STATIC_QUANT_SOURCE,
    dense_gemm_source,
)
from core.catalog.engines import ENGINES
from core.catalog.gemm_tables import GEMM_SHARE_SOURCE, MARLIN_PROMPT_SHARE, MARLIN_SOURCE
from core.catalog.gemm_tiles import (
    GEMM_TILE_ROWS,
    GEMM_TILE_SHARE_SOURCE,
    GEMM_TILE_SHARES,
    GEMM_TILE_SOURCE,
)
from core.catalog.kernels import ENGINE_EXPERT_KERNELS, EXPERT_KERNELS
from core.catalog.measured_here import MEASURED_HERE, MEASURED_HERE_SOURCES
from core.catalog.memory_profiles import OUTSIDE_ALLOCATOR_SOURCE
from core.engine_level.ranks import RANK_WAITS_SOURCE
from core.evidence.attention_sources import (
    ATTENTION_UNIT,
    attention_rows,
    attention_value,
)
from core.evidence.bench_sources import trtllm_bench_rows
from core.evidence.release_sources import release_rows
from core.evidence.source_groups import Source


def engine_memory_rows() -> list[Source]:
    """How engines count a card's memory before they size the cache."""
    return [
        Source(
            "card memory as engines see it",
            "GiB",
            "2^30 bytes per 'GB'",
            "CUDA and nvidia-smi report memory in binary units (an H100 80GB shows 81,559 MiB)",
            kind="engine",
        ),
        Source(
            "engine KV share of free memory",
            f"{ENGINE_KV_FRACTION:.0%}",
            "of memory left after weights, activations and what is held outside the allocator "
            "(the memory_share knob sets a run's own)",
            "TensorRT-LLM KvCacheConfig.free_gpu_memory_fraction default (vLLM's "
            "gpu_memory_utilization default is also 0.9)",
            kind="engine",
        ),
        Source(
            "memory a card's process holds outside PyTorch's allocator",
            f"{OUTSIDE_ALLOCATOR_BYTES_ONE_CARD / GIB:.2f} / "
            f"{OUTSIDE_ALLOCATOR_BYTES_SHARDED / GIB:.2f} GiB",
            "on one card / on each card of a node of several (the CUDA context, libraries' "
            "workspaces, the collectives' buffers), counted by TensorRT-LLM and by vLLM to 0.6 "
            "before they size the cache (vLLM from 0.7 counts only what grows after its "
            "snapshot)",
            OUTSIDE_ALLOCATOR_SOURCE + "; a node of more cards takes the two-card figure",
            kind="engine",
        ),
    ]


def engine_default_rows() -> list[Source]:
    """Engines' documented defaults: how they count memory, their KV share and batch limits."""
    return [
        *engine_memory_rows(),
        Source(
            "engine batch limit under a benchmark",
            f"{ENGINE_MAX_BATCH:,}",
            "requests (or the seats knob, if larger)",
            "TensorRT-LLM BuildConfig.max_batch_size default (tensorrt_llm/builder.py)",
            kind="engine",
        ),
        *trtllm_bench_rows(),
        Source(
            "a dense GEMM's rate by its shape and engine (gemm_shapes)",
            "measured",
            "share of the card's best matmul rate, by tokens x outputs x inputs, in the engine's "
            "own kernel where measured (on AMD cards AITER's, where the release runs it)",
            GEMM_SHARE_SOURCE,
            kind="engine",
        ),
        Source(
            "TensorRT-LLM's cache of a sliding-window layer",
            "whole",
            "every token stored; the window masks the attention",
            ENGINES["tensorrt-llm"].keeps_windows_source,
            kind="engine",
        ),
        Source(
            "engine tokens per step",
            f"{ENGINE_MAX_NUM_TOKENS:,}",
            "tokens (sizes the activation workspace where trtllm-bench does not)",
            "TensorRT-LLM BuildConfig.max_num_tokens default (tensorrt_llm/builder.py; the "
            "PyTorch backend's py_executor_creator.py sets the same 8,192 when none is given)",
            kind="engine",
        ),
        Source(
            "admission reserves",
            "prompt + answer",
            "tokens per request",
            "TensorRT-LLM's default GUARANTEED_NO_EVICT scheduler reserves blocks for prompt "
            "plus max new tokens (kvCacheManager.cpp getRemainingBlocksToCompletion)",
            kind="engine",
        ),
        Source(
            "a benchmark run's throughput (run_requests)",
            "whole run",
            "output tokens over the run's time, its last partial wave included",
            "trtllm-bench's report: Total Output Throughput beside Total Latency, the run's "
            "(NVIDIA/TensorRT-LLM docs/source/performance/perf-overview.md); vLLM "
            "benchmarks/benchmark_throughput.py: tokens over the elapsed time of one generate "
            "call over every prompt; each perf overview states its requests per length",
            kind="engine",
        ),
        Source(
            "a benchmark run's opening burst (run_requests)",
            "every user's first prompt at once",
            "the run's mean first token averages the opening prompts' prefills, queued behind "
            "each other, with the steady state's",
            "benchmark_serving.py at --request-rate inf waits between no requests (get_request) "
            "and its --max-concurrency semaphore lets the first users' prompts in together "
            "(SemiAnalysisAI/InferenceX utils/bench_serving/benchmark_serving.py, vLLM's "
            "benchmark client; ROCm/ATOM's benchmark workflow runs the same client); mean TTFT "
            "is np.mean over every request of the run (calculate_metrics)",
            kind="engine",
        ),
    ]


def engine_cost_rows() -> list[Source]:
    """What the engine level charges a step: all-reduce latency and efficiency, kernel floors."""
    return [
        Source(
            "all-reduce latency",
            f"{ALLREDUCE_LATENCY_S * 1e6:.1f}",
            "µs per all-reduce where no table is measured",
            "vLLM custom all-reduce, 512 B on 8 x H100 (sglang PR #2904, "
            "https://github.com/sgl-project/sglang/pull/2904)",
            kind="measurements",
        ),
        Source(
            "NVLink protocol efficiency",
            f"{NVLINK_PROTOCOL_EFFICIENCY:.0%}",
            "of line rate",
            NVLINK_COLLECTIVE_SOURCE,
            kind="measurements",
        ),
        Source(
            "Infinity Fabric all-reduce share",
            f"{INFINITY_FABRIC_ALLREDUCE_SHARE:.0%}",
            "of line rate (MI300X, MI325X)",
            GPUS["MI300X"].link_collective_source,
            kind="measurements",
        ),
        Source(
            "Infinity Fabric all-reduce share, MI355X",
            f"{GPUS['MI355X'].link_collective_share:.0%}",
            "of line rate",
            GPUS["MI355X"].link_collective_source,
            kind="measurements",
        ),
        Source(
            "PCIe all-reduce share",
            f"{PCIE_ALLREDUCE_SHARE_FEW:.0%} / {PCIE_ALLREDUCE_SHARE_MANY:.0%}",
            "of line rate, up to 4 cards / more",
            "nccl-tests all_reduce_perf on 8 cards over PCIe 5.0 (64 GB/s): 35 GB/s bus bandwidth "
            "on 4 cards, 28 on 8; the NCCL maintainer: PCIe systems are bound by what CPU and "
            "memory deliver (https://github.com/NVIDIA/nccl/issues/1639)",
            kind="measurements",
        ),
        Source(
            "kernel floor",
            f"{KERNEL_FLOOR_S * 1e6:g}",
            "µs per kernel",
            "null-kernel launch overhead on recent hardware, about 3 µs (NVIDIA developer forum, "
            "'Too much time for kernel launch latency')",
            kind="measurements",
        ),
        Source(
            "kernels per layer",
            f"{KERNELS_PER_LAYER}",
            "kernels",
            "counted from a decoder layer: two norms, QKV, rotary and cache write, attention, "
            "output, gate-up, activation, down projection",
            kind="engine",
        ),
        Source(
            "host time per step",
            f"{HOST_STEP_S * 1e3:.2f}",
            "ms per step",
            "H100 step 7.31 ms against a 6.45 ms forward pass (sglang-omni PR #783, "
            "https://github.com/sgl-project/sglang-omni/pull/783)",
            kind="measurements",
        ),
        *release_rows(),
        *collective_rows(),
        *attention_data_parallel_rows(),
        *expert_kernel_rows(),
        *dense_gemm_rows(),
        *attention_rows(),
        *measured_here_rows(),
    ]


def collective_rows() -> list[Source]:
    """The collectives measured whole on NVLink nodes, read at each step's size."""
    return [
        Source(
            "a tensor-parallel step's all-reduces (H100 SXM, H200, B200, A100 SXM)",
            "measured",
            "the engine's own all-reduce time by size on 2, 4 and 8 cards (PCIe and AMD cards, "
            "other counts: the latency and link share above)",
            ALLREDUCE_SOURCE,
            kind="engine",
        ),
        Source(
            "a DEP step's gathers on one node (TensorRT-LLM; H100 SXM, H200, B200)",
            "measured",
            "NCCL's all-gather and reduce-scatter time by buffer size on 2, 4 and 8 cards (other "
            "cards and engines: one latency plus the link's bandwidth)",
            NCCL_GATHER_SOURCE,
            kind="engine",
        ),
    ]


def attention_data_parallel_rows() -> list[Source]:
    """Where attention data parallelism leaves one card doing the node's work."""
    return [
        Source(
            "a lone prompt under DEP",
            "1",
            "card runs its attention and shared layers (the others wait for it)",
            RANK_WAITS_SOURCE,
            kind="engine",
        ),
    ]


def _by_table(*tables: dict) -> list[tuple[tuple, str, object]]:
    """(key, name, figure) of each row of ``tables`` in turn, keyed (family, format) or (family,
    format, engine[, release]) and named "hopper fp8" or "hopper fp8, vllm 0.14.0"."""
    return [
        (key, ", ".join(filter(None, (" ".join(key[:2]), " ".join(key[2:])))), figure)
        for table in tables
        for key, figure in table.items()
    ]


# How an expert layer's figures read, in the catalog's rows and in the rows of the kernels
# measured here alike (a decode-attention kernel's: core.evidence.attention_sources).
_EXPERT_UNIT = "floor; bandwidth / compute share; padding rows per touched expert"


def _expert_value(fixed_s, bandwidth_share, compute_share, padding_rows, compute="") -> str:
    rate = f" of {compute}" if compute else ""  # a W4A16 kernel's share of the bf16 rate
    return (
        f"{fixed_s * 1e6:.0f} µs, {bandwidth_share:.0%} / {compute_share:.0%}{rate}, "
        f"{padding_rows:.0f} rows"
    )


def dense_gemm_rows() -> list[Source]:
    """Each dense GEMM floor (by release where measured at several), tile, and Marlin's rate."""
    floors = _by_table(DENSE_GEMM_FLOORS, ENGINE_DENSE_GEMM_FLOORS, RELEASE_DENSE_GEMM_FLOORS)
    return [
        Source(f"dense GEMM floor, {name}",
               f"{cost.floor_s * 1e6:.1f} µs + {cost.per_input_s * 1e9:.2f} ns × k",
               "a GEMM of 1-16 tokens, with k the inputs its kernel walks",
               dense_gemm_source(key), kind="measurements")
        for key, name, cost in floors
    ] + [
        Source(f"dense GEMM tile, {' '.join(filter(None, key))}", f"{rows:g}", "rows a GEMM "
               "multiplies at least at the card's tensor rate, however few tokens the step "
               "carries", GEMM_TILE_SOURCE, kind="engine")
        for key, rows in GEMM_TILE_ROWS.items()
    ] + [
        Source(f"dense GEMM tile's rate, {' '.join(filter(None, key))}", f"{share:.3f}",
               "of the card's achieved rate a tile multiplies at (its rows count over it)",
               GEMM_TILE_SHARE_SOURCE, kind="measurements")
        for key, share in GEMM_TILE_SHARES.items()
    ] + [
        Source(f"fp8 input quantiser in the floor, {family} {engine}", f"{seconds * 1e6:.2f}",
               "µs of a per-tensor fp8 GEMM's floor (a release that fuses it skips it)",
               STATIC_QUANT_SOURCE, kind="measurements")
        for (family, engine), seconds in STATIC_QUANT_S.items()
    ] + [Source("prompt GEMM, ampere int4 (Marlin: vLLM, SGLang)", " / ".join(
        f"{share:.2f}" for share in MARLIN_PROMPT_SHARE.values()), "of the engine's bf16 rate at "
        f"{' / '.join(f'{t:,}' for t in MARLIN_PROMPT_SHARE)}+ tokens", MARLIN_SOURCE,
        kind="measurements")]  # fmt: skip


def expert_kernel_rows() -> list[Source]:
    """One row per fitted expert-layer kernel: its floor and shares, and the table it came from."""
    return [
        Source(
            f"expert layer, {name}",
            _expert_value(
                kernel.fixed_s,
                kernel.bandwidth_share,
                kernel.compute_share,
                kernel.padding_rows,
                kernel.compute,
            ),
            _EXPERT_UNIT,
            kernel.source,
            kind="measurements",
        )
        for _, name, kernel in _by_table(EXPERT_KERNELS, ENGINE_EXPERT_KERNELS)
    ]


# How each kind of kernel measured here reads, as the catalog's figures of that kind do.
_MEASURED_FORMS = {
    "dense": (lambda f: f"{f[0] * 1e6:.1f} µs, {f[1]:.0%}", "floor; stream share"),
    "attention": (lambda f: attention_value(*f), ATTENTION_UNIT),
    "experts": (lambda f: _expert_value(*f), _EXPERT_UNIT),
    "graph floor": (
        lambda f: f"{f[0] * 1e6:.1f} µs + {f[1] * 1e6:.1f} µs",
        "an elementwise kernel's device time, + the gap before the next",
    ),
}


def measured_here_rows() -> list[Source]:
    """One row per kernel kind and card measured here: a check on the rows above, unpriced."""
    rows = []
    for card, kernel, name in (
        (card, kernel, name)
        for card, kinds in MEASURED_HERE.items()
        for name, kernel in kinds.items()
    ):
        value, unit = _MEASURED_FORMS[kernel.kind]
        rows.append(
            Source(
                f"checked here: {name}, {card} (PyTorch's kernel, not priced)",
                value(kernel.figures),
                unit,
                f"{MEASURED_HERE_SOURCES[card]}: {kernel.kernel}; "
                + (
                    f"fitted by bench/measured_here.py (RMS log error {kernel.error:.0%})"
                    if kernel.kind != "graph floor"
                    else "read by bench/measured_here.py"
                ),
                kind="measurements",
            )
        )
    return rows


def serving_mode_rows() -> list[Source]:
    """The serving modes' constants: the chunked-prefill token budget, the InfiniBand port."""
    return [
        Source(
            "chunked prefill token budget",
            f"{CHUNKED_PREFILL_TOKENS:,}",
            "tokens per step, decodes included",
            "vLLM max_num_batched_tokens default with chunked prefill on (vLLM docs, "
            "'Performance and Tuning: Chunked Prefill', v0.5; vLLM PR #4580, "
            "https://github.com/vllm-project/vllm/pull/4580)",
            kind="engine",
        ),
        Source(
            "InfiniBand NDR port",
            f"{INFINIBAND_NDR_BYTES_PER_S / 1e9:g}",
            "GB/s each way, one port per card",
            "NVIDIA ConnectX-7 adapter datasheet and user manual: single-port OSFP, NDR 400Gb/s",
            kind="cards",
        ),
    ]
