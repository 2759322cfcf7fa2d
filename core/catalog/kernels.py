"""What kernels reach on each card family: expert layers, by engine and release.

The engine level prices a mixture-of-experts layer from measured grouped-GEMM tables instead
of a dense matmul at full bandwidth, and launches the kernels each kind of layer runs
(:mod:`core.catalog.layer_kernels`; each serving engine's own costs outside the kernels are in
:mod:`core.catalog.engines`). Every figure here has a source; the expert-layer figures are fitted
to kernel microbenchmarks (never to a serving benchmark) by ``bench/moe_kernel_fit.py``,
``bench/aiter_moe_fit.py`` and ``bench/rocm_triton_moe_fit.py``.
"""

from __future__ import annotations

from core.catalog.engine_versions import engine_version
from core.catalog.expert_kernels import (
    AIC_MOE_SOURCE,
    ENGINE_EXPERT_KERNELS,
    EXPERT_KERNELS,
    ExpertKernel,
)
from core.catalog.release_kernels import RELEASE_EXPERT_KERNELS

# -- Card families: which measured kernel tables describe a card.
CARD_FAMILIES: dict[str, str] = {
    "H100 SXM": "hopper",
    "H200": "hopper",
    "H20": "hopper",
    "A100 80GB SXM": "ampere",
    "A100 40GB SXM": "ampere",
    "L40S": "ada",
    "L4": "ada",
    "B200": "blackwell",
    "MI300X": "cdna3",
    "MI325X": "cdna3",
    "MI355X": "cdna4",
    "custom": "hopper",
}
# Families without kernel tables of their own borrow a measured family's, and say so.
BORROWED_FAMILY: dict[str, str] = {
    "ampere": "hopper",
    "ada": "hopper",
    "cdna3": "hopper",
    "cdna4": "blackwell",
}


def card_family(gpu: str) -> str:
    """The family of ``gpu``'s kernels (:data:`CARD_FAMILIES`; a pasted card counts as Hopper)."""
    return CARD_FAMILIES.get(gpu, "hopper")


def amd_card(gpu: str) -> bool:
    """Whether ``gpu`` is one of AMD's (a CDNA family)."""
    return card_family(gpu).startswith("cdna")


def tables_family(gpu: str) -> tuple[str, bool]:
    """The card family whose kernel tables price ``gpu``, and whether they are its own.

    A family without tables borrows a measured family's engine-neutral figures only: its
    engines run other kernels again (ROCm's aiter and Composable Kernel, for one).
    """
    family = card_family(gpu)
    own = family not in BORROWED_FAMILY
    return (family if own else BORROWED_FAMILY[family]), own


def kernels_engine(gpu: str, engine: str, version: str | None = None) -> str:
    """Whose rows measured on ``gpu``'s own family price ``engine``'s release ``version``
    (None: its newest): ``"aiter"`` on AMD cards where the release runs AMD's AITER kernels
    (its ``amd_kernels``: SGLang's ROCm builds, vLLM with the ATOM plugin), else the engine.
    """
    if not engine or not amd_card(gpu):
        return engine
    return engine_version(engine, version).amd_kernels or engine


def priced_row(engine_rows: dict, neutral_rows: dict, gpu: str, kind: str, engine: str,
               version: str | None = None):  # fmt: skip
    """The row of a kernel table that prices ``engine``'s ``kind`` of kernel on ``gpu``, and the
    card family that measured it.

    The precedence every kernel table follows: the row of the kernels the engine's release
    runs (:func:`kernels_engine`) measured on the card's own family (AMD's AITER rows), else,
    on a family with tables of its own, the engine's own row there; else the engine-neutral
    row of the family whose tables price the card (:func:`tables_family`). ``engine_rows`` are
    keyed (family, kind, engine or library), ``neutral_rows`` (family, kind); the row is None
    where neither table holds one.
    """
    own_family = card_family(gpu)
    measured_on_card = engine_rows.get((own_family, kind, kernels_engine(gpu, engine, version)))
    if measured_on_card is not None:
        return measured_on_card, own_family
    family, own = tables_family(gpu)
    engine_own = engine_rows.get((family, kind, engine)) if own else None
    return (neutral_rows.get((family, kind)) if engine_own is None else engine_own), family


def expert_kernel(
    gpu: str, weight: str, engine: str = "", version: str | None = None
) -> tuple[ExpertKernel, str]:
    """The expert-layer kernel ``engine``'s release ``version`` (None: its newest) runs on
    ``gpu`` for experts stored as ``weight``.

    Returns the kernel and the card family whose tables measured it. ``weight`` is a format of
    :data:`core.catalog.WEIGHT_FORMATS`, or ``"fp8_block"`` for fp8 with a scale per 128 x 128
    block (the format DeepSeek's and Qwen's own fp8 checkpoints ship). An engine's own kernel
    (:data:`ENGINE_EXPERT_KERNELS`) is used on the family it was measured on (a release's own
    first, where its engine changed them since: ``RELEASE_EXPERT_KERNELS``); otherwise every
    engine runs the engine-neutral row of :data:`EXPERT_KERNELS` (:func:`priced_row`'s
    precedence, which lets a card family that borrows another's tables run a row of its own
    where one measured the engine's kernel on it: AMD's AITER rows).
    """
    line = engine_version(engine, version).version if engine and not amd_card(gpu) else ""
    older, _ = RELEASE_EXPERT_KERNELS.get((engine, line), ("", ""))
    if (row := ENGINE_EXPERT_KERNELS.get((card_family(gpu), weight, older))) is not None:
        return row, card_family(gpu)
    kernel, family = priced_row(ENGINE_EXPERT_KERNELS, EXPERT_KERNELS, gpu, weight, engine, version)
    if kernel is None:
        raise KeyError(f"no expert kernel prices {weight!r} experts on {family} cards")
    return kernel, family


# -- Routing imbalance: a real router favours some experts, so under expert parallelism the
# card holding the busiest experts multiplies more tokens than its share and sets the step's
# pace. Fitted by bench/moe_kernel_fit.py to the ratio of the same tables' power-law-routed
# (alpha 1.2, aiconfigurator's default for mixtures) to balanced latencies at 2,048 tokens and
# more: 1 + floor + spread * sqrt(2 ln(EP) / experts per card), mean error 13 % over 2,695
# rows of 10 kernels (28 % if ignored).
ROUTING_IMBALANCE_FLOOR = 0.08
ROUTING_IMBALANCE_SPREAD = 0.90
ROUTING_IMBALANCE_SOURCE = AIC_MOE_SOURCE.format(
    table="power_law_1.2 over balanced rows, TP x EP up to 8, 2,048-16,384 tokens (13 %)"
)

# Bytes a routed copy of one hidden number moves: scattered (written, read) and gathered
# (written, read), 2 bytes each in bf16.
PERMUTE_BYTES = 4 * 2
