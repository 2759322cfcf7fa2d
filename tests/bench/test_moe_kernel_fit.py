"""bench/moe_kernel_fit.py's --release option: the TensorRT-LLM kernels at another release."""

from bench.moe_kernel_fit import ENGINE_KERNELS, KERNELS, release_kernels


def test_a_release_refits_every_tensorrt_llm_kernel_and_no_other():
    """--release 1.2.0rc5 lists each TensorRT-LLM kernel the catalog cites at that release, the
    card, kernel, format and compute path unchanged, and no SGLang or vLLM kernel."""
    cited = [row for row in KERNELS + ENGINE_KERNELS if row[1].startswith("trtllm/")]
    refit = release_kernels("1.2.0rc5")
    assert len(refit) == len(cited) > 0
    for (card, _, kernel, dtype, compute), row in zip(cited, refit, strict=True):
        assert row == (card, "trtllm/1.2.0rc5", kernel, dtype, compute)
