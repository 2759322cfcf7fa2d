"""One measured expert-layer kernel: the figures a grouped-GEMM table is fitted to, and the
source template of aiconfigurator's tables (:mod:`core.catalog.kernels` holds the rows)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ExpertKernel:
    """One grouped-GEMM expert layer on one card family and weight format.

    A layer of the mixture on one card takes
    ``fixed_s + max(bytes / (bandwidth_share * B), flops / (compute_share * F)) + moved / B``
    with ``B`` and ``F`` the card's measured bandwidth and matmul rate: a launch-and-routing
    floor, the experts' weights streamed (few tokens each) or multiplied (many), and each
    token's hidden state scattered to its experts and gathered back (``moved`` bytes). The
    multiplied ``flops`` count ``padding_rows`` more rows for every expert a step touches
    beyond its routed tokens, never more rows than it has (kernels pick smaller tiles for
    fewer tokens): a tile only partly filled and each expert's own prologue and epilogue,
    which is why a grouped GEMM with a hundred tokens per expert reaches less of the card
    than one with thousands.
    """

    fixed_s: float
    bandwidth_share: float
    compute_share: float
    padding_rows: float
    source: str
    # the tensor rate compute_share is a share of, where the kernel multiplies in another
    # format than its weights' own ("bf16": a W4A16 kernel unpacks 4-bit weights to bf16;
    # "fp8": W4A8 with MXFP8 activations); "" the weights' own rate
    compute: str = ""
    # seconds for each input the layer's two GEMMs walk beside the floor (gate-up the hidden
    # size, down its slice of the expert's width): kept where the table's shapes left out in turn
    # read closer with it (bench/moe_kernel_fit.py, issue 37's forty-fourth round), else 0
    per_input_s: float = 0.0


AIC_SOURCE = (
    "NVIDIA aiconfigurator 0.12 (Apache-2.0) measured MoE kernel tables, {table}; fitted by "
    "bench/moe_kernel_fit.py over 8 model shapes and TP x EP up to 8: floor and bandwidth on "
    "1-256 tokens (with a cost per input where the shapes left out in turn read closer), compute "
    "share and padding rows per expert on 1-16,384 (RMS log errors of the two in brackets)"
)
# The Triton fused-MoE kernels vLLM and SGLang run (issue 37's forty-ninth round), fitted on their
# tables' tensor-parallel rows, the layout the engine level prices them in
AIC_TP_SOURCE = (
    "NVIDIA aiconfigurator (Apache-2.0) measured MoE kernel tables, {table}; fitted by "
    "bench/moe_kernel_fit.py on the tensor-parallel rows (TP 1-8, EP 1) over the table's model "
    "shapes: floor and bandwidth on 1-256 tokens, compute share and padding rows per expert on "
    "1-16,384 (RMS log errors of the two in brackets); its EP rows time more work than their "
    "share of the routed rows"
)
