"""vLLM's MXFP4 experts on the A100 run its Marlin MoE kernel, priced by the A100's own table."""

from __future__ import annotations

from core.catalog.kernels import EXPERT_KERNELS, expert_kernel


def test_vllm_prices_mxfp4_experts_on_an_a100_by_the_a100s_marlin_table():
    """Below SM90 vLLM picks Marlin for MXFP4 experts: the A100's own measured row, which
    multiplies in bf16 at well under the Triton W4A16 kernel's share that prices Hopper."""
    kernel, family = expert_kernel("A100 80GB SXM", "mxfp4", "vllm")
    hopper, _ = expert_kernel("H100 SXM", "mxfp4", "vllm")
    assert family == "ampere"
    assert "a100_sxm" in kernel.source and "marlin" in kernel.source
    assert kernel.compute == "bf16"
    assert kernel.compute_share < hopper.compute_share
    assert hopper is EXPERT_KERNELS[("hopper", "mxfp4")]


def test_other_engines_keep_the_borrowed_row_on_an_a100():
    """The rule is vLLM's own backend choice: another engine on the A100 borrows Hopper's row."""
    kernel, family = expert_kernel("A100 80GB SXM", "mxfp4", "sglang")
    assert family == "hopper"
    assert kernel is EXPERT_KERNELS[("hopper", "mxfp4")]
