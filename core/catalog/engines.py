"""Each serving engine's costs outside the kernels, and how its benchmark tool sizes a run.

:data:`ENGINES` holds what the engine level charges a serving engine whatever its release (its
server's and eager prefill's time per request, how it sizes its KV cache, whether it keeps
sliding windows whole); what changed release to release is in
:mod:`core.catalog.engine_versions`. The ``TRTLLM_BENCH_*`` figures are how ``trtllm-bench``
sizes the engine it drives (:mod:`core.engine_level.bench_sizing`).
"""

from __future__ import annotations

from dataclasses import dataclass

from core.catalog import GIB
from core.catalog.cards import GB
from core.catalog.eager_dispatch import (
    SGLANG_DISPATCH_SOURCE,
    SGLANG_EAGER_LAUNCH_S,
    SGLANG_SERVER_PATH_S,
    SGLANG_SERVER_PATH_SOURCE,
)


@dataclass(frozen=True)
class Engine:
    """A serving engine's costs outside the kernels and its scheduler's documented defaults."""

    name: str
    # per request: the OpenAI-compatible server (tokenise, template, stream) and the eager
    # (not graph-captured) prefill forward, which pays Python dispatch in every layer
    request_overhead_per_layer_s: float
    source: str
    # where measured apart (SGLang's, core.catalog.eager_dispatch): the eager prefill's cost per
    # kernel it launches, holding the cards, and the server's own path a first token takes,
    # which runs beside them
    eager_launch_s: float = 0.0
    server_path_s: float = 0.0
    dispatch_source: str = ""
    # how the KV cache's share of memory is set: of the memory free after the weights
    # ("free"), of the card's whole memory with the weights inside it ("total"), or SGLang's
    # static fraction of the whole memory, the activations kept outside ("static")
    kv_rule: str = "free"
    kv_rule_source: str = ""
    # whether the cache keeps every token of a sliding-window layer (the window then only masks
    # the attention): TensorRT-LLM stores whole sequences unless max_attention_window is set
    keeps_windows_whole: bool = False
    keeps_windows_source: str = ""
    # whether a new prompt's prefill rides in the running decodes' step ("always"), does so
    # only where the release chunks prefills ("chunked"), or runs in a step of its own while
    # the decodes wait ("never")
    prefill_mixing: str = "always"
    prefill_mixing_source: str = ""
    # whether a profile shows its overlap scheduler (where a release runs one) leaving the GPU no
    # idle time between decode steps: then the host's step work hides behind the GPU's
    overlap_profiled: bool = False
    overlap_profiled_source: str = "no published profile of the GPU's idle time between steps"
    # (the most requests one instance runs at once changed release to release: each release's
    # is in core.catalog.engine_versions)


ENGINES: dict[str, Engine] = {
    engine.name: engine
    for engine in (
        # Its PyTorch backend (0.20, 1.0) runs a step carrying a prompt eagerly in Python (CUDA
        # graphs for generation-only steps; docs features/torch_compile_and_piecewise_cuda_graph
        # .md calls that context phase host-bound). Priced as vLLM's 0.8 ms a layer (issue 37's
        # nineteenth round, rule committed before scoring), both sets went from 14.6 % to 15.3 %,
        # the TensorRT-LLM 1.0 table from 15.9 % to 43.9 % (saturated runs x0.73-0.85): whatever
        # its eager dispatch costs, it does not hold the cards in big mixed steps. Reverted.
        Engine(
            "tensorrt-llm", 0.0,
            "TensorRT-LLM's benchmarks (trtllm-bench) run the engine in-process, without an "
            "HTTP server; aiconfigurator 0.12 adds no per-request dispatch cost for it. Its "
            "PyTorch backend (0.20, 1.0) does run a prompt's step eagerly in Python, but priced "
            "at vLLM's 0.8 ms a layer its saturated trtllm-bench runs read x0.73-0.85 (issue 37): "
            "left unpriced",
            kv_rule="free",
            kv_rule_source="TensorRT-LLM llm_args.py KvCacheConfig.free_gpu_memory_fraction 0.9 "
            "of the memory free after the model loads",
            keeps_windows_whole=True,
            prefill_mixing="always",
            prefill_mixing_source="TensorRT-LLM in-flight batching: requests in their context "
            "phase and requests generating run in one iteration (docs 'In-flight Batching'; "
            "the PyTorch backend's PyExecutor schedules context and generation requests into "
            "one batch)",
            keeps_windows_source="TensorRT-LLM llm_args.py KvCacheConfig.max_attention_window "
            "default None ('only the last tokens will be stored' when set); gpt-oss's model "
            "(_torch/models/modeling_gpt_oss.py) passes its window to the attention kernel only, "
            "and the published gpt-oss option files set no max_attention_window",
        ),
        # Its figure holds the cards: the step carrying a prompt waits for its dispatch. Explored
        # in issue 37's forty-fifth round, not landed: aiconfigurator, where the figure comes
        # from, adds it to the first token only, so V1's (0.8 on) was moved beside the cards, as
        # SGLang's server path is. Both sets stayed at 14.3 % (249 -> 250 within): AMD ATOM's
        # gpt-oss and DeepSeek rows at 32-64 users rose (x0.76-0.91 -> x0.80-1.03), but the ROCm
        # page's saturated offline runs of vLLM 0.9.1 (D220-D227, no API server) went from
        # x0.88-1.36 to x1.19-1.50. V1 runs a step whose tokens pass its largest captured CUDA
        # graph without one, and such a step is paced by its host (vLLM issue #56975: 4,096-token
        # steps on GB200, host 177 ms against the GPU's 171), so the decodes riding in it wait.
        # Moving every release's, V0's too, took Argonne's V0 check set from 91 % to 115 %.
        # Explored in the fiftieth round, not landed (bench/prompt_dispatch.py): a V1 prompt whose
        # step fits a captured graph (512 tokens with the running decodes) paying none: GPUStack's
        # Qwen3-8B at 4-8 users x1.07-1.13 -> x1.02, but the A100's 128-token bursts x0.84-2.09
        # (their steps carry many prompts, past the graph); both sets 16.5 % -> 16.8 % (270).
        Engine(
            "vllm", 0.8e-3,
            "aiconfigurator 0.12 vLLM backend: CPU-side dispatch of the eager prefill, 0.8 ms "
            "per layer per request, calibrated on its measured vLLM corpus "
            "(sdk/backends/vllm_backend.py, _prefill_dispatch_overhead_ms)",
            kv_rule="total",
            kv_rule_source="vLLM config/cache.py gpu_memory_utilization 0.9 of the card's total "
            "memory for weights, activations and KV",
            prefill_mixing="chunked",
            prefill_mixing_source="vLLM V1 always chunks prefills into the running step; V0's "
            "scheduler (vllm-project/vllm vllm/core/scheduler.py _schedule_default) runs waiting "
            "prefills in a step of their own, decodes only when none are scheduled, unless "
            "chunked prefill is on",
        ),
        # aiconfigurator 0.12's own SGLang backend prices no dispatch (base_backend's 0.0);
        # taken so (issue 37's eleventh round, rule committed before scoring) both sets went
        # from 15.4 % to 18.2 % and SGLang's rows from 24 % to 42 %: its first token at one
        # user on a B200 (D23) read x0.16, so SGLang does pay a server path that large. It
        # borrowed vLLM's 0.8 ms a layer until the forty-first round; now its own, measured.
        Engine(
            "sglang", 0.0,
            "SGLang's prefill runs eagerly in Python (CUDA graphs capture decode only): "
            + SGLANG_DISPATCH_SOURCE,
            eager_launch_s=SGLANG_EAGER_LAUNCH_S,
            server_path_s=SGLANG_SERVER_PATH_S,
            dispatch_source=SGLANG_SERVER_PATH_SOURCE,
            prefill_mixing="never",
            prefill_mixing_source="SGLang server_args.py enable_mixed_chunk = False (every "
            "release); the scheduler's get_next_batch_to_run runs a new prefill batch before, "
            "not beside, the running decode batch",
            overlap_profiled=True,
            overlap_profiled_source="lmsys blog 2024-12-04 'SGLang v0.4', Zero-Overhead Batch "
            "Scheduler: an Nsight profile of five consecutive decoding batches shows 'no single "
            "idle time on the GPU' (a minor gap with the FlashInfer backend until its next "
            "release)",
            kv_rule="static",
            kv_rule_source="SGLang server_args.py _handle_gpu_memory_settings: "
            "mem_fraction_static = (M - R) / M, R from the chunked-prefill size, the CUDA-graph "
            "batch and tensor parallelism, at least 10 GB on cards over 60 GB",
        ),
    )
}  # fmt: skip
DEFAULT_ENGINE = "tensorrt-llm"

# -- trtllm-bench sizes the engine it drives from its own estimate of the KV room, unless told
# (tensorrt_llm/bench/build/tuning.py calc_engine_setting and finetune_setting; build.py
# TUNED_QUANTS: other checkpoint formats, MXFP4 among them, keep BuildConfig's 2,048). The
# estimate counts every attention layer at full length and at least one KV head per rank, and
# a checkpoint's size as its safetensors elements times a byte each: a packed FP4 tensor holds
# two values per stored element, so an NVFP4 checkpoint counts a quarter byte per parameter.
TRTLLM_BENCH_BYTES_PER_PARAM: dict[str, float] = {"bf16": 2.0, "fp8": 1.0, "nvfp4": 0.25}
TRTLLM_BENCH_MAX_REQUESTS = 4096  # "cap total batch size to avoid decoder buffer size ..."
TRTLLM_BENCH_MAX_TOKENS = 32768  # "cap num tokens to avoid TRT activation buffer ..."
# The share of the KV room the tool's estimate counts, and how it counts the checkpoint, by how
# the release runs it (core.catalog.engine_versions, each release's ``bench_*`` fields). The
# 0.1x C++ runtime's ``trtllm-bench build`` calls calc_engine_setting without a fraction, so its
# own default holds, 0.95, and that tuning.py counts the checkpoint as param_count / 1000**3
# "GB" against memory in GiB (pynvml total / 1024**3): in bytes, the checkpoint times 2^30/10^9.
# The PyTorch backend's ``trtllm-bench throughput`` passes its --kv_cache_free_gpu_mem_fraction
# (default 0.90) and its tuning.py counts the checkpoint in GiB, as the memory.
TRTLLM_BENCH_BUILD_FRACTION = 0.95
TRTLLM_BENCH_BUILD_SOURCE = (
    "TensorRT-LLM 0.1x tensorrt_llm/bench/build/build.py build_command -> "
    "get_benchmark_engine_settings -> calc_engine_setting(...) with no fraction, whose default "
    "kv_cache_gpu_mem_fraction is 0.95; tuning.py: engine_size = param_count / (1000**3) * "
    "byte_per_elem subtracted from get_device_memory() (pynvml total / 1024**3) per GPU"
)
# ... as an EngineVersion's fields, for the 0.1x C++-runtime releases
TRTLLM_BENCH_BUILD_SIZING = dict(
    bench_kv_fraction=TRTLLM_BENCH_BUILD_FRACTION,
    bench_checkpoint_scale=GIB / GB,
    bench_sizing_source=TRTLLM_BENCH_BUILD_SOURCE,
)
TRTLLM_BENCH_CLI_SOURCE = (
    "TensorRT-LLM PyTorch backend tensorrt_llm/bench/benchmark/utils/general.py get_settings: "
    "get_benchmark_engine_settings(..., params.get('kv_cache_free_gpu_mem_fraction')), the "
    "throughput command's option default .90; tuning.py: engine_size = param_count * "
    "byte_per_elem / (1024**3)"
)
TRTLLM_BENCH_SOURCE = (
    "TensorRT-LLM tensorrt_llm/bench/build/tuning.py calc_engine_setting / finetune_setting "
    "(max_batch_size from the KV room at ISL + OSL per request, rounded up to 32, 128 or 256, "
    "at least 64, at most 4,096) and build.py TUNED_QUANTS; under attention data parallelism "
    "the limit is each rank's (its DeepSeek-R1 guide runs --max_batch_size 384 with "
    "--concurrency 3072 on 8 ranks)"
)
TRTLLM_BENCH_TOKENS_SOURCE = (
    "TensorRT-LLM tensorrt_llm/bench/build/tuning.py finetune_setting (max_num_tokens: the "
    "unrounded requests x (1 + ISL/OSL), at most 32,768, rounded up to 256 (at least 2,048), 512 "
    "or 1,024) and tensorrt_llm/bench/benchmark/utils/general.py get_settings (without chunked "
    "prefill at least max_isl + max_batch_size)"
)
# A command that sets both limits is taken as given: the tool then sizes nothing.
TRTLLM_BENCH_USER_LIMITS_SOURCE = (
    "TensorRT-LLM tensorrt_llm/bench/benchmark/utils/general.py get_settings: given "
    "--max_batch_size and --max_num_tokens, 'Use user-provided max batch size and max num "
    "tokens' (no estimate of its own); vLLM's --max-num-seqs and SGLang's "
    "--max-running-requests cap the running batch likewise"
)
TRTLLM_EXPERT_WORKSPACE_SOURCE = (
    "TensorRT-LLM PyTorch backend: _torch/pyexecutor/_util.py sizes the cache after a profiling "
    "step of max_num_tokens a rank (KV = 0.9 x (memory - peak)); its fused MoE gathers every "
    "rank's tokens under attention DP, in one chunk up to moe_max_num_tokens = max_num_tokens x "
    "dp (_torch/modules/fused_moe/fused_moe_cutlass.py); cpp/tensorrt_llm/kernels/"
    "cutlass_kernels/moe_gemm/moe_kernels.cu getWorkspaceDeviceBufferSizes keeps per routed row "
    "the overlapped GEMM inputs (2 d bytes) and outputs (max(4 w, 2 d) bytes)"
)

# -- CUDA-graph padding under trtllm-bench (TensorRT-LLM's PyTorch backend): the tool turns on
# CUDA graphs with padding, and NVIDIA's 1.x performance pages capture these decode batch sizes
# (every model's llm_options.yml). A decode-only step whose batch (the largest rank's, under
# attention data parallelism) lies between two captured sizes runs the next one, the gap filled
# with a dummy request of one token; sizes above the engine's batch limit (or its step's tokens)
# are dropped, the first of them replaced by the limit itself.
TRTLLM_BENCH_GRAPH_SIZES = (1, 2, 4, 8, 16, 32, 64, 128, 256, 384, 512, 1024, 2048, 4096, 8192)
TRTLLM_GRAPH_PADDING_SOURCE = (
    "NVIDIA/TensorRT-LLM docs/source/developer-guide/perf-overview.md (1.x) and NVIDIA/TensorRT-"
    "LLM docs/source/performance/perf-overview.md @00f37686 (1.0): cuda_graph_config "
    "enable_padding true, batch_sizes [1, 2, 4, 8, 16, 32, 64, 128, 256, 384, 512, 1024, 2048, "
    "4096, 8192]; tensorrt_llm/bench/benchmark/utils/general.py get_settings (cuda_graph_config "
    "enable_padding True); tensorrt_llm/_torch/pyexecutor/model_engine.py "
    "_filter_cuda_graph_batch_sizes (sizes above min(max_batch_size, max_num_tokens) dropped, "
    "padding to that limit) and _get_padded_batch (attention DP: every rank's batch gathered, the "
    "largest padded; a step with a prompt in it runs eagerly, unpadded)"
)
