"""Who published each measurement: the one rule that reads a case's publisher from its source.

A publisher is the organisation or repository that measured and published a row, not the
engine it ran: NVIDIA's TensorRT-LLM performance overview and the forks that copy it are one
publisher, the SGLang project's benchmark README, cookbook and LMSYS blog another. Cross
validation (:mod:`core.evidence.crossval`) holds one publisher's cases out at a time, so a
publisher's way of running a benchmark (its load generator, its lengths, its build) is never
both fitted and scored.

Which publisher each development case has (scored cases in brackets):

- NVIDIA TensorRT-LLM docs (its perf overview pages and its DeepSeek-R1 recipe page): T1-T11,
  O1-O4, D01-D10, D336-D338 (28), with the first, second and fourth check sets
- NVIDIA NIM benchmarks: N1-N6 (6)
- SGLang project (sgl-project, LMSYS): S1-S4, D21-D28, D246-D248, D453-D479 (34 of 42: the
  first tokens D459-D461, D468-D469 and D476-D478 are shown)
- vLLM blog: D16-D20 (5)
- Qwen docs: D29-D31, D251-D291, D292-D335 (82 of 85: D322, D328 and D331 ran eagerly)
- AMD ROCm performance page (and the image's page in ROCm/vllm that prints its tables): D32,
  D220-D234 (16)
- SemiAnalysis InferenceX: D33, D109-D117, D206-D219 (17)
- Oracle Cloud Infrastructure blog: D34-D37 (4)
- NVIDIA technical blog (developer.nvidia.com/blog, not the docs): D38-D43 (6)
- Lambda (LambdaLabsML/vllm-benchmark, vLLM 0.5.4 on A100 and H100): D44-D66 (none scored)
- AMD ROCm blogs (rocm.blogs.amd.com, not the performance page): D67-D98 (24 scored: D67-D74
  ran with multi-step scheduling)
- dstack: D11-D15 (none scored)
- GPUStack performance lab (gpustack/gpustack docs/performance-lab): D99-D108, D369-D412 (54)
- Microsoft Azure AI benchmarking guide (Azure/AI-benchmarking-guide): D118-D153 (36)
- Argonne LLM-Inference-Bench (argonne-lcf/, vLLM 0.6.1 on MI300X): the third check set only
- AMD ATOM (ROCm/ATOM, its vLLM plugin on MI355X): D154-D164 and D166-D176 (none scored), its
  dashboard's run D339-D368 (30)
- Dell (Hanindhito and Patel, SC '25; SGLang on MI300X and MI325X): the fifth check set only
- Google Cloud AI Hypercomputer recipes (AI-Hypercomputer/gpu-recipes, TensorRT-LLM 0.17 on
  H200): D165 (1)
- a TensorRT-LLM user (NVIDIA/TensorRT-LLM issue #5929, DeepSeek-R1 on H200 and B200):
  D186-D205 (none scored)
- EmbeddedLLM (vLLM PRs #17530 and #17535, Qwen3-30B-A3B-FP8 on one MI300X and
  Qwen3-235B-A22B-FP8 on four): D235-D237, D239-D240 (5)
- a vLLM contributor (vLLM PR #23151, Qwen3-30B-A3B on one H100): D238 (1)
- a vLLM contributor (vLLM PR #21865, Llama 3.1 8B on one H100 and Llama 3.3 70B on four, bf16,
  batches of 1 to 16): D480-D487 (8)
- SGLang contributors (SGLang PRs #6885, #6939, #7631, #10467 and #12343: DeepSeek-V3 on eight
  H20 and eight B200, Qwen3-30B-A3B-FP8 on four H200, Qwen3-Next-80B-A3B on four and eight
  H20): D241-D244, D249-D250 (6)
- AMD-AGI Magpie (AMD's benchmark harness, PR #88: Qwen3-Coder-480B-A35B-Instruct-FP8 on four
  MI355X under SGLang): D245 (1)
"""

from __future__ import annotations

# What a source names, in the order it is looked for, and the publisher it stands for. The
# first found wins: an SGLang row measured by dstack names dstack first.
PUBLISHERS: tuple[tuple[str, str], ...] = (
    ("dstackai/", "dstack"),
    # a user's report in the engine's issues, before the engine's own pages
    ("NVIDIA/TensorRT-LLM/issues", "a TensorRT-LLM user (NVIDIA/TensorRT-LLM issue #5929)"),
    ("blogs.oracle.com", "Oracle Cloud Infrastructure blog"),
    ("developer.nvidia.com/blog", "NVIDIA technical blog"),
    ("LambdaLabsML/", "Lambda (LambdaLabsML/vllm-benchmark)"),
    # before "amd.com/": the blogs are a publisher of their own
    ("rocm.blogs.amd.com", "AMD ROCm blogs"),
    ("docs.nvidia.com/nim", "NVIDIA NIM benchmarks"),
    # NVIDIA's pages (the perf overview, the recipe blogs) and the forks that copy them
    # (dominicshanshan/, arthurrasmusson/)
    ("TensorRT-LLM docs/source", "NVIDIA TensorRT-LLM docs"),
    ("vllm-project/vllm-project.github.io", "vLLM blog"),
    ("vllm-project/vllm/pull/17530", "EmbeddedLLM (vLLM PRs #17530, #17535)"),
    ("vllm-project/vllm/pull/21865", "a vLLM contributor (vLLM PR #21865)"),
    ("vllm-project/vllm/pull/17535", "EmbeddedLLM (vLLM PRs #17530, #17535)"),
    ("vllm-project/vllm/pull/23151", "a vLLM contributor (vLLM PR #23151)"),
    # contributors' pull requests, before the project's own pages
    ("sgl-project/sglang/pull/", "SGLang contributors (fused-MoE tuning PRs)"),
    ("sgl-project/sglang", "SGLang project (sgl-project, LMSYS)"),
    ("lmsys.org", "SGLang project (sgl-project, LMSYS)"),
    ("QwenLM/", "Qwen docs"),
    # the image's own page in the ROCm/vllm repository prints the performance page's tables
    ("github.com/ROCm/vllm ", "AMD ROCm performance page"),
    ("amd.com/", "AMD ROCm performance page"),
    ("SemiAnalysisAI/InferenceX", "SemiAnalysis InferenceX"),
    ("gpustack/gpustack", "GPUStack performance lab"),
    ("argonne-lcf/", "Argonne LLM-Inference-Bench"),
    ("Azure/AI-benchmarking-guide", "Microsoft Azure AI benchmarking guide"),
    ("ROCm/ATOM", "AMD ATOM (ROCm/ATOM)"),
    ("hibagus/SC25_AMD_CDNA3_Artifact", "Dell (Hanindhito and Patel, SC '25)"),
    ("AI-Hypercomputer/gpu-recipes", "Google Cloud AI Hypercomputer recipes"),
    ("AMD-AGI/Magpie", "AMD-AGI Magpie (its benchmark harness's PRs)"),
)


def publisher_of(source: str) -> str:
    """The publisher a case's ``source`` names (:data:`PUBLISHERS`, first match, any case).

    Raises
    ------
    ValueError
        For a source that names no known publisher: a new publisher needs its line here.
    """
    text = source.casefold()
    for names, publisher in PUBLISHERS:
        if names.casefold() in text:
            return publisher
    raise ValueError(f"no publisher in PUBLISHERS is named by source {source!r}")
