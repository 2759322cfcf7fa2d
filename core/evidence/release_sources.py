"""The sources table's rows for what each engine release does: host work, fused kernels, AMD's.

Each row is one release of :data:`core.catalog.engine_versions.ENGINE_VERSIONS` that prices
something the others do not (:mod:`core.evidence.engine_sources` lists them among the engine
level's costs).
"""

from __future__ import annotations

from core.catalog.engine_versions import ENGINE_VERSIONS, PRICE_RELEASE_REQUEST_HOST
from core.catalog.kernels import BLOCK_FP8_MLP_INPUTS, SHARED_EXPERT_KERNELS
from core.evidence.source_groups import Source


def _release_rows(keep, row) -> list[Source]:
    """``row(release)`` for each release of each engine that ``keep(release)`` selects."""
    return [
        row(release)
        for releases in ENGINE_VERSIONS.values()
        for release in releases
        if keep(release)
    ]


def host_request_rows() -> list[Source]:
    """Each release whose host work per running request is priced, with its profile."""
    if not PRICE_RELEASE_REQUEST_HOST:
        return []
    return _release_rows(
        lambda release: release.host_per_request_s > 0,
        lambda release: Source(
            f"host time per running request, {release.engine} {release.version}",
            f"{release.host_per_request_s * 1e6:.1f}",
            "µs per request a step, per rank"
            + (
                " (beside the GPU's step: only what outlasts it)"
                if release.overlap_scheduler
                else ""
            ),
            release.host_per_request_source,
            kind="measurements",
        ),
    )


def shared_expert_fusion_rows() -> list[Source]:
    """Each release that runs a DeepSeek layer's shared expert inside its routed experts' kernel."""
    return _release_rows(
        lambda release: release.fuses_shared_expert,
        lambda release: Source(
            f"shared expert fused into the routed experts, {release.engine} {release.version}",
            f"{SHARED_EXPERT_KERNELS} (+ {BLOCK_FP8_MLP_INPUTS} in block fp8)",
            "kernels fewer per expert layer (the shared expert's gate-up, activation and down, "
            "and its two quantisers), its two GEMM floors too; its weights are still read",
            release.fuses_shared_expert_source,
            kind="engine",
        ),
    )


def amd_kernel_rows() -> list[Source]:
    """Each release that runs AMD's AITER kernels on AMD cards (the rows keyed "aiter")."""
    return _release_rows(
        lambda release: release.amd_kernels,
        lambda release: Source(
            f"kernels on AMD cards, {release.engine} {release.version}",
            release.amd_kernels.upper(),
            "its expert and block-fp8 GEMM rows measured on the card (the kernel tables below)",
            release.amd_kernels_source,
            kind="engine",
        ),
    )


def release_rows() -> list[Source]:
    """Every release-level row: host work per request, the fused shared expert, AMD's kernels."""
    return [*host_request_rows(), *shared_expert_fusion_rows(), *amd_kernel_rows()]
