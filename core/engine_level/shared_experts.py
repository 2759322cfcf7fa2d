"""A mixture's shared expert: fused into the routed experts' kernel, or run on a second stream.

:func:`shared_expert_fused` and :func:`shared_stream_tokens` turn a release's rules
(:mod:`core.catalog.release_kernels`) into the node's fields; :class:`FixedCosts
<core.engine_level.fixed_costs.FixedCosts>` prices what each leaves of the shared expert's
launch floors.
"""

from __future__ import annotations

import numpy as np

from core.catalog.engine_versions import engine_version
from core.catalog.kernels import amd_card
from core.catalog.release_kernels import SHARED_EXPERT_FUSION_ROUTED, SHARED_EXPERT_STREAMS
from core.catalog.release_lines import release_line
from core.engine_level.lookups import lookup, release_field


def shared_expert_fused(
    engine, version, gpu, experts, shared_experts, expert_parallel, data_parallel=False
):
    """Whether the release runs a DeepSeek-V3-shaped layer's shared expert inside its routed
    experts' fused kernel (:data:`core.catalog.release_kernels.SHARED_EXPERT_FUSION_RULE`):
    256 routed experts and one shared, on AMD MI300-class cards also under expert parallelism,
    and under data-parallel attention where the release keeps it there (not vLLM with ATOM).
    """
    fuses = lookup(release_field("fuses_shared_expert"), engine, version) > 0
    keeps = lookup(release_field("fuses_shared_expert_data_parallel"), engine, version) > 0
    amd = lookup(amd_card, gpu) > 0
    shaped = (np.asarray(experts) == SHARED_EXPERT_FUSION_ROUTED) & (
        np.asarray(shared_experts) == 1
    )
    layout_allows = (amd | ~np.asarray(expert_parallel, dtype=bool)) & (
        keeps | ~np.asarray(data_parallel, dtype=bool)
    )
    return fuses & shaped & layout_allows


def shared_stream_tokens(gpu, engine, version):
    """The most tokens a decode step may carry and still run a DeepSeek-V3-shaped layer's shared
    expert on a second stream (:data:`core.catalog.release_kernels.SHARED_EXPERT_STREAMS`):
    the release's own limit within its CUDA graph's, on NVIDIA cards; 0 where it never does."""

    def tokens(card, name, release):
        limit, _ = SHARED_EXPERT_STREAMS.get((name, release_line(release)), (0, ""))
        graphed = engine_version(name, release).graph_max_batch
        return 0.0 if amd_card(card) else float(min(limit, graphed))

    return lookup(tokens, gpu, engine, version)
