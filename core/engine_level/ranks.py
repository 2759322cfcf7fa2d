"""Attention data-parallel ranks: a prompt prefilled alone runs on its one card.

Under attention data parallelism (DEP) each card runs attention, and every GEMM outside the
routed experts, for its own requests only (every card keeps those weights whole); the cards
meet at every expert layer, where each gathers all the cards' tokens. A prompt's attention side
is therefore prefilled by the one card that holds it: a prompt alone takes one card's time
while the others wait for it at the next expert layer (TensorRT-LLM's ADP-balance blog: the
attention module's time in an iteration is the maximum over the ranks).

Only the lone prompt is priced. Prompts that ride in steps beside others were priced too, in
issue 37's fourteenth round, as a wait for the busiest card with each card's prompts a Poisson
count: scored after the rule was committed, it took both development sets from 14.45 % to
15.1 % (D05, Maverick's 8k prompts on eight H200, x0.95 -> x0.42) and the TensorRT-LLM 1.x check
set from 18.6 % to 19.8 %, though the 1.0 page's set went from 18.8 % to 16.8 %. A benchmark
that queues equal requests at once prefills them in waves in which every card has prompts, so
its cards stay in step; the Poisson picture over-prices its long prompts most. Removed.

:class:`RankWaits` is a part of :class:`core.engine_level.node.Node`; the lone prompt's card
is part of the ``prefill_shape`` term (what a prefill alone costs).
"""

from __future__ import annotations

from functools import cached_property

from core.foundation.vector import any_true

RANK_WAITS_SOURCE = (
    "NVIDIA/TensorRT-LLM docs/source/blogs/tech_blog/blog10_ADP_Balance_Strategy.md (tech blog "
    "10, 'ADP Balance Strategy'): under attention DP an iteration's attention time is the "
    "maximum over the ranks, and a rank prefilling a context request holds the others"
)


class RankWaits:
    """The lone prompt's card of a :class:`~core.engine_level.node.Node` (it holds the fields)."""

    @cached_property
    def any_data_parallel(self) -> bool:
        """Whether any of these nodes runs attention data-parallel."""
        return bool(any_true(self.data_parallel_attention))

    def prefill_waits(self, terms, alone):
        """How many times its even share of the cards' time a prompt's attention side takes.

        ``alone``: the prompt is prefilled by itself, on its one card while the others wait, so
        its attention side takes all the cards' time; riding beside other prompts it takes its
        share. 1 outside attention data parallelism.
        """
        if not alone or "prefill_shape" not in terms or not self.any_data_parallel:
            return 1.0
        return self._request_ranks
