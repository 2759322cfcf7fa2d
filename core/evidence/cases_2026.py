"""The second development set: published measurements of 2024-26 engines and models.

487 published rows, each naming the public page it came from: vLLM (0.5 to V1) and ROCm vLLM,
SGLang and TensorRT-LLM (0.12 to 1.x) serving mixtures of experts (gpt-oss, DeepSeek-R1, Qwen3,
Llama 4, Mixtral) and dense models on H100, H200, B200, H20, A100, MI300X, MI355X and L40S. Each
case is typed in as a ``Scenario`` call; what today's Scenario cannot say (a checkpoint that mixes
formats per tensor) is kept on the case (:attr:`PublishedCase.pending_knobs`).

D11-D15 come from one study of early-2025 engine builds running DeepSeek-R1 before today's
latent-attention and expert kernels: they are shown but left out of the score
(``scored=False``), as are Lambda's D44-D66 (one burst of 320 requests of ShareGPT's lengths,
not a steady load: :mod:`core.evidence.cases_found`), AMD's MI300X throughput rows
D67-D74 (run with multi-step scheduling, which the rule below leaves out: found in issue 37's
thirteenth round), and the rows each module below says it shows only (D154-D164, D166-D205,
D210-D213, D217-D219, D413-D442, D447-D452, D459-D461, D468-D469, D476-D478) and the three Qwen2.5
rows run eagerly (D322, D328, D331), which leaves 346 scored cases.

D34-D43 are rows from publishers the set did not have (issue 37, item 5): Oracle's cloud blog
(vLLM on eight MI300X) and NVIDIA's technical blog (TensorRT-LLM on eight H200), both Llama 3.1
405B, a dense model pasted as its config.json. They were taken by a rule written down before
the engine level was evaluated on any of them: from a source, every row of a table the Scenario
can express (a catalog model or a pasted config.json; a catalog card, one node; vLLM, SGLang or
TensorRT-LLM; lengths stated; concurrent users, every request at once or a rate; output
throughput, time to first token, time between tokens or one request's time; no speculative
decoding, multi-step scheduling, shared prefixes or LoRA); where a table has more than six such
rows, those at its smallest and largest load; throughput under heavy load, latency at batch 1.
D44-D98 (:mod:`core.evidence.cases_found`) were taken by the same rule in the item's second
round: Lambda's vLLM 0.5.4 benchmark on A100 and H100 and AMD's ROCm blog (MI300X vLLM against
H100 TensorRT-LLM); that module says how the rule reads their tables.
D99-D108 (:mod:`core.evidence.cases_gpustack`) were taken by it in the fifth round: GPUStack's
performance lab (vLLM, SGLang and TensorRT-LLM at a few users on H100, A100 and H200), and
D109-D117 (:mod:`core.evidence.cases_inferencex`) from InferenceX's dashboard (SGLang serving
DeepSeek-R1 on eight H200 and eight MI325X). D118-D153 (:mod:`core.evidence.cases_azure`) were
taken by it in the eighth round: Microsoft Azure's benchmarking guide (TensorRT-LLM 0.15 on H100
and H200). D154-D164 (:mod:`core.evidence.cases_atom`), found in the fourteenth round, are AMD's
ATOM plugin for vLLM serving DeepSeek-R1 on eight MI355X: shown, not scored, as are their first
tokens and InferenceX's (D166-D185). D186-D205 (:mod:`core.evidence.cases_trtllm_issue`), found
in the eighteenth round, are a TensorRT-LLM user's report (DeepSeek-R1 on eight H200 and eight
B200 at one and eight users): shown, not scored. D206-D219
(:mod:`core.evidence.cases_inferencex_sweep`), found in the nineteenth round, are InferenceX's
bot running the dashboard's H200 SGLang recipe on v0.5.7 (1k/1k at 8 to 64 users; three lengths
at 4), scored as the dashboard's rows are; their first tokens (D210-D213, D217-D219) shown only.
D220-D238, found in the twenty-second round, are the rest of D32's table from the image's own
page (:mod:`core.evidence.cases_rocm_page`: Llama 3.1 70B and 405B on eight MI300X, vLLM 0.9.1's
V1 engine) and two vLLM contributors' runs before a kernel change
(:mod:`core.evidence.cases_vllm_prs`: Qwen3-30B-A3B on one MI300X and one H100). D239-D240,
typed blind in the twenty-third round, are a third such run (Qwen3-235B-A22B-FP8 on four MI300X),
and D241-D244, typed blind in the twenty-fourth, four SGLang contributors' runs before a kernel
configuration (:mod:`core.evidence.cases_sglang_prs`: DeepSeek-V3 on eight H20 and eight B200,
Qwen3-30B-A3B-FP8 on four H200). D245, typed blind in the twenty-fifth, is AMD-AGI's Magpie
harness validating a configuration (:mod:`core.evidence.cases_magpie`: Qwen3-Coder-480B-A35B-FP8
on four MI355X under SGLang), and D246-D248 the same model's rows in SGLang's cookbook (eight
B200). D249-D250, typed blind in the twenty-seventh round, are one more SGLang contributor's
runs (:mod:`core.evidence.cases_sglang_prs`: Qwen3-Next-80B-A3B, a hybrid of Gated DeltaNet
and attention layers, on four and eight H20). D251-D291, typed blind in the twenty-eighth, are
the rest of the Qwen speed tables D29-D31 came from (:mod:`core.evidence.cases_qwen_speed`:
Qwen3 from 0.6B to 235B-A22B, one request at a time on H20 under SGLang 0.4.6.post1, at a prompt
of one token and at the longest each table prints). D292-D335, typed blind in the thirty-fourth, are
the same documentation's Qwen2.5 tables (:mod:`core.evidence.cases_qwen25_speed`: 0.5B to 72B,
one request at a time on A100 under vLLM 0.6.3), read by the same rule. D336-D368, typed blind in
the fortieth, are NVIDIA's DeepSeek-R1 recipe page (:mod:`core.evidence.cases_trtllm_blog`) and
a run of AMD ATOM's dashboard (:mod:`core.evidence.cases_atom_dashboard`). D369-D412, typed
blind in the forty-eighth, are GPUStack's random bursts (:mod:`core.evidence.cases_gpustack_bursts`:
vLLM 0.10-0.11 at its defaults, 100 to 1,000 fixed-length requests at once on one A100 or H100,
eight A100 or H100, or eight H200). D413-D442, found in the fifty-ninth, are the ATOM dashboard
run's first tokens, shown only; D443-D452, typed before they were evaluated in the sixtieth, are
InferenceX's bot on eight B200 (:mod:`core.evidence.cases_inferencex_b200`: SGLang 0.5.6
serving DeepSeek-R1 in nvfp4 at 4-64 users), D443-D446 scored, the rest shown. D453-D469 and
D470-D479, typed so in the sixty-second and sixty-third, are more of SGLang's cookbook pages
(:mod:`core.evidence.cases_sglang_cookbook`, ``cases_sglang_cookbook_mi300x``: DeepSeek-R1 on
B200, Llama 3.1 70B on A100, DeepSeek-V3.1 and V3 on MI300X), their one-user first tokens shown;
D480-D487, typed blind in the sixty-sixth, a vLLM contributor's bf16 baselines (:mod:`core.
evidence.cases_vllm_latency`: Llama 3.1 8B on one H100, Llama 3.3 70B on four, batches 1-16).
"""

from __future__ import annotations

from core.evidence.cases import PERF_OVERVIEW_REQUESTS, PublishedCase
from core.evidence.cases_atom import ATOM, ATOM_FIRST_TOKENS
from core.evidence.cases_atom_dashboard import ATOM_DASHBOARD, ATOM_DASHBOARD_FIRST_TOKENS
from core.evidence.cases_azure import AZURE
from core.evidence.cases_found import FOUND
from core.evidence.cases_gcp import GCP
from core.evidence.cases_gpustack import GPUSTACK
from core.evidence.cases_gpustack_bursts import GPUSTACK_BURSTS
from core.evidence.cases_inferencex import INFERENCEX, INFERENCEX_FIRST_TOKENS
from core.evidence.cases_inferencex_b200 import INFERENCEX_B200
from core.evidence.cases_inferencex_sweep import INFERENCEX_SWEEP
from core.evidence.cases_magpie import MAGPIE
from core.evidence.cases_qwen25_speed import QWEN25_SPEED
from core.evidence.cases_qwen_speed import QWEN_PAGE_SHARE, QWEN_SPEED
from core.evidence.cases_rocm_page import ROCM_PAGE
from core.evidence.cases_sglang_cookbook import SGLANG_COOKBOOK
from core.evidence.cases_sglang_cookbook_mi300x import SGLANG_COOKBOOK_MI300X
from core.evidence.cases_sglang_prs import SGLANG_HYBRID_PRS, SGLANG_PRS
from core.evidence.cases_trtllm_blog import TRTLLM_BLOG
from core.evidence.cases_trtllm_issue import TRTLLM_ISSUE
from core.evidence.cases_vllm_latency import VLLM_LATENCY
from core.evidence.cases_vllm_prs import VLLM_PRS
from core.evidence.configs import DEEPSEEK_FP8 as _DEEPSEEK_FP8
from core.evidence.configs import GPT_OSS_MIX as _GPT_OSS_MIX
from core.evidence.configs import LLAMA_31_405B_PASTED, QWEN3_32B_FP8, QWEN3_235B_A22B_FP8
from core.evidence.configs import QWEN_FP8 as _QWEN_FP8

_TRT_1X = (
    "NVIDIA/TensorRT-LLM docs/source/developer-guide/perf-overview.md @585c7565 (trtllm-bench "
    "throughput --backend pytorch, every request queued at once, fixed lengths; 'Output "
    "Throughput per GPU', here times the node's GPUs)"
)
_TRT_020 = (
    "dominicshanshan/TensorRT-LLM docs/source/performance/perf-overview.md @ab4143e1 (a copy of "
    "NVIDIA's v0.20 page; PyTorch backend, 3000 requests; the node's total output tokens/s)"
)
_TRT_014 = (
    "arthurrasmusson/TensorRT-LLM docs/source/performance/perf-overview.md @e00d4e65 (a copy of "
    "NVIDIA's v0.14 page; trtllm-bench, FP8 engines with an FP8 KV cache; L40S column)"
)
# The v0.14 page's $num_requests table is the v0.17 page's (equal lengths, stdev 0): 3,000 for
# 1000/1000, typed in issue 37's thirteenth round (an audit of the page; before, unstated).
_V014_REQUESTS = PERF_OVERVIEW_REQUESTS[1000, 1000]
_DSTACK = (
    "dstackai/benchmarks Deepseek-R1/raw_data/online_results.csv @7f37e669, set-up in "
    "Deepseek-R1/README.md @209ca6f9 (SGLang bench_serving, random 3200/800, fixed lengths, "
    "500 prompts); https://dstack.ai/blog/h200-mi300x-deepskeek-benchmark/"
)
_VLLM_BLOG = (
    "vllm-project/vllm-project.github.io _posts/2026-04-22-fp8-kvcache.md @c3a01c4a (vLLM blog, "
    "'The State of FP8 KV-Cache and Attention Quantization in vLLM'; FlashAttention-3 on H100, "
    "FlashInfer on B200)"
)
_LMSYS = (
    "https://lmsys.org/blog/2025-08-27-gpt-oss (lm-sys/lm-sys.github.io "
    "blog/2025-08-27-gpt-oss.md @03d9c092); set-up in sgl-project/sglang "
    "benchmark/gpt_oss/README.md @1dc322ca (bench_one_batch_server, batch 1, 1024/512)"
)
_COOKBOOK = "sgl-project/sglang docs_new/cookbook (docs.sglang.io/cookbook), bench_serving"
_QWEN = (
    "QwenLM/Qwen2.5 docs/source/getting_started/speed_benchmark.md @ac727245 (qwen.readthedocs.io "
    "'Speed Benchmark': H20 96GB, SGLang 0.4.6.post1, batch 1, 2048 generated tokens; request "
    "time = (input + 2048) / speed)"
)
_AMD = (
    "https://www.amd.com/en/developer/resources/rocm-hub/dev-ai/performance-results.html "
    "(rocm/vllm rocm6.4.1_vllm_0.9.1_20250715, 8 x MI300X, vLLM latency benchmark)"
)
_INFERENCEX = (
    "https://github.com/SemiAnalysisAI/InferenceX/pull/1531 (gpt-oss-fp4-mi355x on vLLM v0.19.0, "
    "single MI355X, median of 3 runs; tput/gpu read as total tokens/s, output half of it)"
)
_OCI = (
    "https://blogs.oracle.com/cloud-infrastructure/post/serving-llama-31-405b-model-with-amd-"
    "mi300x-gpus (Oracle Cloud Infrastructure blog, 10 October 2024: Llama 3.1 405B FP8 on one "
    "BM.GPU.MI300X.8, all eight GPUs serving one instance; vLLM benchmark_latency.py and "
    "benchmark_throughput.py)"
)
_NV_BLOG = (
    "https://developer.nvidia.com/blog/boosting-llama-3-1-405b-performance-by-up-to-44-with-"
    "nvidia-tensorrt-model-optimizer-on-nvidia-h200-gpus/ (NVIDIA technical blog, August 2024, "
    "Table 1 'Maximum Throughput Performance - Output Tokens/Second, 8 NVIDIA H200 Tensor Core "
    "GPUs'; the row text as reproduced by https://3acesnews.com/nvidia-enhances-llama-3-1-405b-"
    "performance-with-tensorrt-model-optimizer)"
)


def _d(key, metric, model, gpu, cards, weights, kv, prompt, answer, users, measured, engine,
       version, source, quoted, **extra) -> PublishedCase:  # fmt: skip
    """One case; ``users=None`` is the max-load benchmark (every request queued at once)."""
    load, value = ("saturated", 0) if users is None else ("users", users)
    return PublishedCase(
        key, metric, model, gpu, cards, weights, prompt, answer, load, value, measured, source,
        quoted, kv_dtype=kv, engine=engine, engine_version=version, **extra,
    )  # fmt: skip


_OSS120, _OSS20, _R1 = "gpt-oss-120b", "gpt-oss-20b", "DeepSeek-R1"
_QWEN_ASSUMED = "KV bf16 (SGLang's auto); mem_fraction_static 0.85 as the page sets it"
_EARLY_R1 = (
    "an early-2025 engine build running DeepSeek-R1 before today's latent-attention and expert "
    "kernels"
)
_EARLY = {"scored": False, "unscored_why": _EARLY_R1}
_Q235, _Q30, _MAV = "Qwen3-235B-A22B", "Qwen3-30B-A3B", "Llama-4-Maverick"
_H100, _TRT, _VLLM, _SGL = "H100 SXM", "TensorRT-LLM", "vLLM", "SGLang"
_V1 = "1.x (PyTorch backend)"
# The requests each max-load run of the 1.x page sends, by its lengths (@585c7565, the table
# under 'Preparing a Dataset', chosen "to guarantee that the system hit a steady state"):
# typed as each run's run_requests, as the v0.17 page's are (core.evidence.cases).
TRT_1X_REQUESTS = {(1024, 1024): 3000, (8192, 1024): 1500, (1024, 8192): 1500,
                   (32768, 1024): 1000, (1024, 32768): 1000}  # fmt: skip
_OSS = {"weight_formats": _GPT_OSS_MIX}
_405B = LLAMA_31_405B_PASTED
_OCI_V = "0.6 (ROCm)"
_OCI_ASSUMED = (
    "vLLM 0.6 from the post's date (it names no release); TP8; KV bf16 (vLLM's auto; the post "
    "names no KV flag); fixed lengths"
)
_NV_V = "0.12"
_NV_ASSUMED = (
    "TensorRT-LLM 0.12 from the post's date (it names Model Optimizer v0.17 as the next "
    "release, not the TensorRT-LLM release); TP8 (the table gives the 8-GPU node only); fixed "
    "lengths, every request queued at once"
)
_MODELOPT = (
    "; weights fp8 per tensor with an fp8 KV cache and static attention quantisation (TensorRT "
    "Model Optimizer's FP8 recipe, the post)"
)
_META_FP8 = (
    "fp8 with a static scale per output channel and a dynamic scale per token, FBGEMM matmuls "
    "(Meta's official Llama 3.1 FP8 recipe, the post)"
)

SECOND: list[PublishedCase] = [
    _d("D01", "throughput", _OSS120, "H200", 1, "mxfp4", "bf16", 8192, 1024, None, 1828, _TRT, _V1,
       _TRT_1X, "GPT-OSS 120B | 8192/1024 | 6,111 | 6,835 | 1,828 | 1,169 (H200 TP1 column)",
       **_OSS, assumed="weights the published MXFP4 checkpoint; KV bf16 ('Hopper: use auto')",
       requests=TRT_1X_REQUESTS[8192, 1024]),
    _d("D02", "throughput", _OSS20, _H100, 1, "mxfp4", "bf16", 1024, 8192, None, 8617, _TRT, _V1,
       _TRT_1X, "GPT-OSS 20B | 1024/8192 | 34,702 | 38,100 | 12,743 | 8,617 (H100 TP1 column)",
       **_OSS, assumed="weights MXFP4, KV bf16, as D01", requests=TRT_1X_REQUESTS[1024, 8192]),
    _d("D03", "throughput", "Llama-3-70B", "H200", 2, "fp8", "fp8", 1024, 8192, None, 4018, _TRT,
       _V1, _TRT_1X, "LLaMA v3.3 70B | 1024/8192 | 3,242 | 3,805 | 2,009 | (H200 TP2): 2 x 2,009",
       assumed="KV fp8 (the ModelOpt checkpoint decides)",
       requests=TRT_1X_REQUESTS[1024, 8192]),
    _d("D04", "throughput", _Q235, _H100, 8, "fp8", "fp8", 1024, 8192, None, 6984, _TRT, _V1,
       _TRT_1X, "Qwen3 235B A22B | 1024/8192 | 3,389 | 3,423 | 1,417 | 873 (H100 DEP8): 8 x 873",
       layout="DEP8", assumed="KV fp8", requests=TRT_1X_REQUESTS[1024, 8192]),
    _d("D05", "throughput", _MAV, "H200", 8, "fp8", "fp8", 8192, 1024, None, 10208, _TRT, _V1,
       _TRT_1X, "LLaMA v4 Maverick | 8192/1024 | 3,279 | 3,444 | 1,276 (H200 DEP8): 8 x 1,276",
       layout="DEP8", assumed="KV fp8", requests=TRT_1X_REQUESTS[8192, 1024]),
    _d("D06", "throughput", _R1, "B200", 4, "nvfp4", "fp8", 8192, 1024, None, 4672, _TRT, _V1,
       _TRT_1X, "Deepseek R1 0528 | 8192/1024 | 1,168 | 1,192 | (B200 DEP4 FP4): 4 x 1,168",
       layout="DEP4", requests=TRT_1X_REQUESTS[8192, 1024]),
    _d("D07", "throughput", _Q30, "B200", 1, "nvfp4", "fp8", 1024, 8192, None, 13497, _TRT, _V1,
       _TRT_1X, "Qwen3 30B A3B | 1024/8192 | 13,497 | 14,272 (B200 TP1 FP4 column)",
       assumed="KV fp8", requests=TRT_1X_REQUESTS[1024, 8192]),
    _d("D08", "throughput", _MAV, _H100, 8, "fp8", "fp8", 2048, 128, None, 3832.38, _TRT, "0.20",
       _TRT_020, "Llama 4 Maverick FP8 | 2048, 128 | 4,364.06 | 3,832.38 (H200 TP8 | H100 TP8)",
       assumed="KV fp8", requests=3000),
    _d("D09", "throughput", "Llama-3-8B", "L40S", 1, "fp8", "fp8", 1000, 1000, None, 3726.76, _TRT,
       "0.14", _TRT_014, "LLaMA v3.1 8B | 1000/1000 | 1 | 16414.6988 | ... | 3726.7552 (L40S FP8)",
       assumed="'token throughput' counts output tokens", requests=_V014_REQUESTS),
    _d("D10", "throughput", "Mixtral-8x7B", "L40S", 4, "fp8", "fp8", 1000, 1000, None, 5060.84,
       _TRT, "0.14", _TRT_014, "Mixtral 8x7B | 1000/1000 | 4 | 32834.0923 | ... | 5060.8399 (L40S)",
       assumed="'token throughput' counts output tokens", requests=_V014_REQUESTS),
    _d("D11", "itl", _R1, "H200", 8, "fp8", "bf16", 3200, 800, 8, 0.04382, _SGL, "0.4.3.post2",
       _DSTACK, "h200,sglang,random,,8,..., output_throughput 164.14, mean_ttft_ms 3673.56, "
       "mean_tpot_ms 43.82", layout="TP8 + DP attention", weight_formats=_DEEPSEEK_FP8,
       **_EARLY, assumed="KV bf16 (no KV flag)"),
    _d("D12", "ttft", _R1, "H200", 8, "fp8", "bf16", 3200, 800, 4, 0.9757, _VLLM, "0.7.4.dev (V0)",
       _DSTACK, "h200,vllm,random,,4,..., output_throughput 148.58, mean_ttft_ms 975.65",
       weight_formats=_DEEPSEEK_FP8, **_EARLY, assumed="KV bf16; the V0 engine"),
    _d("D13", "itl", _R1, "MI300X", 8, "fp8", "bf16", 3200, 800, 4, 0.03494, _SGL,
       "0.4.2.post4 (ROCm)", _DSTACK, "mi300x,sglang,random,,4,..., output_throughput 108.25, "
       "mean_ttft_ms 1644.59, mean_tpot_ms 34.94", weight_formats=_DEEPSEEK_FP8, **_EARLY,
       assumed="KV bf16"),
    _d("D14", "throughput", _R1, "MI300X", 8, "fp8", "bf16", 3200, 800, 64, 671.84, _VLLM,
       "0.7.3.dev (ROCm, V0)", _DSTACK, "mi300x,vllm,random,,64,...,595.38 (s),500, ..., "
       "output_throughput 671.84", weight_formats=_DEEPSEEK_FP8, **_EARLY, assumed="KV bf16"),
    _d("D15", "throughput", _R1, "H200", 8, "fp8", "bf16", 3200, 800, 32, 451.34, _TRT,
       "0.17 (PyTorch backend)", _DSTACK, "h200,trt-llm,random,,32,...,886.24 (s),500, ..., "
       "output_throughput 451.34", layout="TP8/EP4", weight_formats=_DEEPSEEK_FP8, **_EARLY,
       assumed="KV bf16"),
    _d("D16", "itl", "Llama-3-8B", _H100, 1, "bf16", "bf16", 20000, 2000, 8, 0.01518, _VLLM,
       "0.19 (V1)", _VLLM_BLOG, "Table 4: BF16 | 763.6 | 15.18 | 672.6 | 450.3 (median ITL ms)",
       assumed="vLLM 0.19.1; lengths the nominal means of a ±15 % draw"),
    _d("D17", "throughput", "Llama-3-8B", _H100, 1, "bf16", "fp8", 20000, 2000, 8, 517.5, _VLLM,
       "0.19 (V1)", _VLLM_BLOG, "Table 4: FP8 | 742.8 | 12.93 | 585.2 | 517.5 (output tok/s)",
       assumed="bf16 weights; lengths the nominal means"),
    _d("D18", "throughput", _OSS20, _H100, 1, "mxfp4", "bf16", 20000, 2000, 8, 831.6, _VLLM,
       "0.19 (V1)", _VLLM_BLOG, "Table 5: BF16 | 468.9 | 8.09 | 364.2 | 831.6 (output tok/s)",
       **_OSS, assumed="lengths the nominal means"),
    _d("D19", "itl", "Llama-3-8B", "B200", 1, "bf16", "bf16", 1024, 128, 1, 0.003948, _VLLM,
       "0.19 (V1, FlashInfer)", _VLLM_BLOG, "fitted ITL slope 1.80e-05 ms/token, intercept 3.93 "
       "ms: 3.93 + 1.80e-05 x 1024 = 3.948 ms", assumed="a fitted line, not one measured row"),
    _d("D20", "itl", _OSS20, "B200", 1, "mxfp4", "bf16", 1024, 128, 1, 0.003154, _VLLM,
       "0.19 (V1, FlashInfer)", _VLLM_BLOG, "fitted ITL slope 3.56e-06 ms/token, intercept 3.15 "
       "ms: 3.154 ms at 1024 tokens", **_OSS, assumed="a fitted line, not one measured row"),
    _d("D21", "itl", _OSS120, _H100, 8, "mxfp4", "bf16", 1024, 512, 1, 0.003139, _SGL,
       "0.5.1.post3", _LMSYS, "MXFP4 | 416.02 tok/s | 318.53 tok/s | 200.84 tok/s (B200 | H100 | "
       "MI350): 1 / 318.53", **_OSS, assumed="KV bf16"),
    _d("D22", "itl", _OSS120, "B200", 4, "mxfp4", "bf16", 1024, 512, 1, 0.002404, _SGL,
       "0.5.1.post3", _LMSYS, "MXFP4 | 416.02 tok/s | ... (B200 TP4): 1 / 416.02", **_OSS,
       assumed="KV bf16"),
    _d("D23", "ttft", _OSS120, "B200", 8, "mxfp4", "bf16", 332, 213, 1, 0.03371, _SGL, "0.5.6",
       f"{_COOKBOOK}: autoregressive/OpenAI/GPT-OSS.mdx @2008fa87",
       "Max request concurrency: 1 | Successful requests: 100 | Total input tokens: 33178 | "
       "Total generated tokens: 21251 | Mean TTFT (ms): 33.71", **_OSS,
       assumed="KV bf16; ShareGPT lengths typed as the run's means"),
    _d("D24", "throughput", _OSS120, "B200", 8, "mxfp4", "bf16", 297, 192, 100, 7773.26, _SGL,
       "0.5.6", f"{_COOKBOOK}: autoregressive/OpenAI/GPT-OSS.mdx @2008fa87",
       "Max request concurrency: 100 | Successful requests: 1000 | Total input tokens: 297156 | "
       "Total generated tokens: 192432 | Output token throughput (tok/s): 7773.26", **_OSS,
       assumed="KV bf16; ShareGPT lengths typed as the run's means"),
    _d("D25", "itl", _Q235, "B200", 8, "bf16", "bf16", 496, 509, 16, 0.01636, _SGL, "0.5.6",
       f"{_COOKBOOK}: autoregressive/Qwen/Qwen3.mdx @0278d9cb",
       "Max request concurrency: 16 | Successful requests: 80 | Total input tokens: 39668 | Total "
       "generated tokens: 40725 | Mean TPOT (ms): 16.36", assumed="KV bf16; random lengths typed "
       "as the run's means"),
    _d("D26", "throughput", _Q235, "B200", 8, "bf16", "bf16", 500, 504, 100, 2738.78, _SGL, "0.5.6",
       f"{_COOKBOOK}: autoregressive/Qwen/Qwen3.mdx @0278d9cb",
       "Max request concurrency: 100 | Successful requests: 500 | Total input tokens: 249831 | "
       "Total generated tokens: 252162 | Output token throughput (tok/s): 2738.78",
       assumed="KV bf16; random lengths typed as the run's means"),
    _d("D27", "itl", _MAV, "MI300X", 8, "bf16", "bf16", 496, 510, 16, 0.01053, _SGL,
       "0.5.9 (ROCm 7.2)", f"{_COOKBOOK}: autoregressive/Llama/Llama4.mdx @04d96432",
       "Max request concurrency: 16 | Successful requests: 80 | Total input tokens: 39668 | Total "
       "generated tokens: 40805 | Mean TPOT (ms): 10.53", assumed="KV bf16; random lengths typed "
       "as the run's means"),
    _d("D28", "throughput", "Llama-4-Scout", "MI300X", 8, "bf16", "bf16", 500, 505, 100, 2944.82,
       _SGL, "0.5.9 (ROCm 7.2)", f"{_COOKBOOK}: autoregressive/Llama/Llama4.mdx @04d96432",
       "Max request concurrency: 100 | Successful requests: 500 | Total input tokens: 249841 | "
       "Total generated tokens: 252662 | Output token throughput (tok/s): 2944.82",
       assumed="KV bf16; random lengths typed as the run's means"),
    _d("D29", "request", _Q30, "H20", 1, "bf16", "bf16", 1, 2048, 1, 14.94, _SGL, "0.4.6.post1",
       _QWEN, "Qwen3-30B-A3B | 1 | BF16 | 1 | 137.18 (tok/s): 2049 / 137.18 s",
       assumed=_QWEN_ASSUMED, memory_share=QWEN_PAGE_SHARE),
    _d("D30", "request", "custom", "H20", 4, "fp8", "bf16", 1, 2048, 1, 28.60, _SGL, "0.4.6.post1",
       _QWEN, "Qwen3-235B-A22B | 1 | FP8 | 4 | 71.65 | TP=4: 2049 / 71.65 s",
       model_config=QWEN3_235B_A22B_FP8, model_label="Qwen3-235B-A22B-FP8 (config.json)",
       weight_formats=_QWEN_FP8, assumed=_QWEN_ASSUMED, memory_share=QWEN_PAGE_SHARE),
    _d("D31", "request", "custom", "H20", 1, "fp8", "bf16", 1, 2048, 1, 44.38, _SGL, "0.4.6.post1",
       _QWEN, "Qwen3-32B | 1 | FP8 | 1 | 46.17: 2049 / 46.17 s", model_config=QWEN3_32B_FP8,
       model_label="Qwen3-32B-FP8 (config.json)",
       weight_formats=_QWEN_FP8, assumed=_QWEN_ASSUMED, memory_share=QWEN_PAGE_SHARE),
    _d("D32", "request", "Llama-3-70B", "MI300X", 8, "fp8", "bf16", 128, 2048, 1, 17.236, _VLLM,
       "0.9.1 (ROCm 6.4.1)", _AMD, "Llama 3.1 70B (amd/Llama-3.1-70B-Instruct-FP8-KV) | FP8 | 8 | "
       "1 | 128 | 2048 | 17.236", requests=1,
       assumed="the cache in fp16 (2 bytes, as bf16): the latency command on the image's page, "
       "ROCm/vllm docs/dev-docker/README.md, sets '--dtype float16' and no --kv-cache-dtype; "
       "typed KV fp8 until issue 37's thirteenth round"),
    _d("D33", "throughput", _OSS120, "MI355X", 1, "mxfp4", "bf16", 922, 922, 32, 3392.5, _VLLM,
       "0.19.0 (ROCm, VLLM_ROCM_USE_AITER=1)", _INFERENCEX,
       "| 1 | 1k/1k | 32 | 6275 | 6785 | +8.1% | (TP | ISL/OSL | conc "
       "| dashboard | this PR): 6785 / 2", **_OSS,
       assumed="tput/gpu counts input and output tokens; KV bf16; lengths the mean of [819, 1024]; "
       "AITER switched on, as the PR's recipe sets it (VLLM_ROCM_USE_AITER=1)"),
    # -- issue 37, item 5: publishers the set did not have (the rule is in the module docstring)
    _d("D34", "request", "custom", "MI300X", 8, "fp8", "bf16", 128, 128, 1, 3.530, _VLLM,
       _OCI_V, _OCI, "Batch Size 1 | Output throughput 36 TPS | Average latency 3.530 s (input "
       "128, output 128)", **_405B, layout="TP8", assumed=_OCI_ASSUMED, requests=1),
    _d("D35", "throughput", "custom", "MI300X", 8, "fp8", "bf16", 128, 128, 256, 1846, _VLLM,
       _OCI_V, _OCI, "Batch Size 256 | Output throughput 1846 TPS | Average latency 17.750 s",
       **_405B, layout="TP8", requests=256,
       assumed=_OCI_ASSUMED + "; one batch of 256 run once: 256 users, a run of 256 requests "
       "sent at once (typed as a steady state of 256 users until issue 37's twenty-third round)"),
    _d("D36", "throughput", "custom", "MI300X", 8, "fp8", "bf16", 128, 128, None, 1993, _VLLM,
       _OCI_V, _OCI, "Typical chatbot online scenario | 128 | 128 | 1993 (benchmark_throughput, "
       "output TPS)", **_405B, layout="TP8", assumed=_OCI_ASSUMED),
    _d("D37", "throughput", "custom", "MI300X", 8, "fp8", "bf16", 128, 2048, None, 2794, _VLLM,
       _OCI_V, _OCI, "Generation heavy use case | 128 | 2048 | 2794 (benchmark_throughput, "
       "output TPS)", **_405B, layout="TP8", assumed=_OCI_ASSUMED),
    _d("D38", "throughput", "custom", "H200", 8, "fp8", "fp8", 2048, 128, None, 463.1, _TRT,
       _NV_V, _NV_BLOG, "Input | Output 2,048 | 128 ... TensorRT Model Optimizer FP8 | 463.1",
       **_405B, layout="TP8", assumed=_NV_ASSUMED + _MODELOPT),
    _d("D39", "throughput", "custom", "H200", 8, "fp8", "fp8", 32768, 2048, None, 320.1, _TRT,
       _NV_V, _NV_BLOG, "Input | Output 32,768 | 2,048 ... TensorRT Model Optimizer FP8 | 320.1",
       **_405B, layout="TP8", assumed=_NV_ASSUMED + _MODELOPT),
    _d("D40", "throughput", "custom", "H200", 8, "fp8", "fp8", 120000, 2048, None, 71.5, _TRT,
       _NV_V, _NV_BLOG, "Input | Output 120,000 | 2,048 ... TensorRT Model Optimizer FP8 | 71.5",
       **_405B, layout="TP8", assumed=_NV_ASSUMED + _MODELOPT),
    _d("D41", "throughput", "custom", "H200", 8, "fp8", "bf16", 2048, 128, None, 399.9, _TRT,
       _NV_V, _NV_BLOG, "Input | Output 2,048 | 128 ... Official Llama FP8 Recipe | 399.9",
       **_405B, layout="TP8", weight_formats=_META_FP8, assumed=_NV_ASSUMED + "; KV bf16"),
    _d("D42", "throughput", "custom", "H200", 8, "fp8", "bf16", 32768, 2048, None, 230.8, _TRT,
       _NV_V, _NV_BLOG, "Input | Output 32,768 | 2,048 ... Official Llama FP8 Recipe | 230.8",
       **_405B, layout="TP8", weight_formats=_META_FP8, assumed=_NV_ASSUMED + "; KV bf16"),
    _d("D43", "throughput", "custom", "H200", 8, "fp8", "bf16", 120000, 2048, None, 49.6, _TRT,
       _NV_V, _NV_BLOG, "Input | Output 120,000 | 2,048 ... Official Llama FP8 Recipe | 49.6",
       **_405B, layout="TP8", weight_formats=_META_FP8, assumed=_NV_ASSUMED + "; KV bf16"),
]  # fmt: skip
"""The second set's cases D01-D43 in the file's order (D11-D15 shown only); the modules' follow."""

SECOND += FOUND  # D44 on: rows found in issue 37's second round (core/evidence/cases_found.py)
SECOND += GPUSTACK  # D99 on: GPUStack's performance lab (core/evidence/cases_gpustack.py)
SECOND += INFERENCEX  # D109 on: InferenceX's dashboard (core/evidence/cases_inferencex.py)
SECOND += AZURE  # D118 on: Azure's AI benchmarking guide (core/evidence/cases_azure.py)
SECOND += ATOM  # D154 on: AMD ATOM's vLLM plugin, shown only (core/evidence/cases_atom.py)
SECOND += GCP  # D165: Google Cloud's TensorRT-LLM recipe (core/evidence/cases_gcp.py)
SECOND += ATOM_FIRST_TOKENS  # D166 on: ATOM's rows' first tokens, shown only (cases_atom.py)
SECOND += INFERENCEX_FIRST_TOKENS  # D177 on: InferenceX's rows' first tokens, shown only
SECOND += TRTLLM_ISSUE  # D186 on: a TensorRT-LLM user's report, shown only (cases_trtllm_issue)
SECOND += INFERENCEX_SWEEP  # D206 on: InferenceX's bot runs (cases_inferencex_sweep)
SECOND += ROCM_PAGE  # D220 on: the rest of D32's table, the image's page (cases_rocm_page)
SECOND += VLLM_PRS  # D235 on: vLLM contributors' runs before a kernel change (cases_vllm_prs)
SECOND += SGLANG_PRS  # D241 on: SGLang contributors' runs, likewise (cases_sglang_prs)
SECOND += MAGPIE  # D245 on: Qwen3-Coder-480B, Magpie on MI355X and SGLang's cookbook on B200
SECOND += SGLANG_HYBRID_PRS  # D249 on: Qwen3-Next-80B-A3B on H20 (cases_sglang_prs)
SECOND += QWEN_SPEED  # D251 on: the rest of Qwen's speed tables (cases_qwen_speed)
SECOND += QWEN25_SPEED  # D292 on: Qwen2.5's speed tables on A100 (cases_qwen25_speed)
SECOND += TRTLLM_BLOG  # D336 on: NVIDIA's DeepSeek-R1 recipe page (cases_trtllm_blog)
SECOND += ATOM_DASHBOARD  # D339 on: a run of AMD ATOM's dashboard (cases_atom_dashboard)
SECOND += GPUSTACK_BURSTS  # D369 on: GPUStack's random bursts (cases_gpustack_bursts)
SECOND += ATOM_DASHBOARD_FIRST_TOKENS  # D413 on: its first tokens, shown only (the dashboard's)
SECOND += INFERENCEX_B200  # D443 on: InferenceX's bot on eight B200 (cases_inferencex_b200)
SECOND += SGLANG_COOKBOOK  # D453 on: two more of SGLang's cookbook pages (cases_sglang_cookbook)
SECOND += SGLANG_COOKBOOK_MI300X  # D470 on: the cookbook on MI300X (cases_sglang_cookbook_mi300x)
SECOND += VLLM_LATENCY  # D480 on: a vLLM contributor's bf16 baselines (cases_vllm_latency)

SCORED_SECOND: list[PublishedCase] = [case for case in SECOND if case.scored]
"""The cases the second set is scored on (``scored`` ones, in key order)."""
