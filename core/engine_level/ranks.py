"""Attention data-parallel ranks: a step waits for the busiest card.

Under attention data parallelism (DEP) each card runs attention, and every GEMM outside the
routed experts, for its own requests only; the cards meet at every expert layer, where each
gathers all the cards' tokens. A step therefore lasts as long as its busiest card's attention
side (TensorRT-LLM's ADP-balance blog: the attention module's time in an iteration is the
maximum over the ranks). Decoding requests spread evenly, but a prompt is prefilled on the one
card that holds it: a card with a prompt in a step holds every other card at the next expert
layer. A balancer (TensorRT-LLM's ``attention_dp_config.enable_balance``) holds prompts back
until every card has one, so the cards prefill together.

:class:`RankWaits` is a part of :class:`core.engine_level.node.Node`.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

RANK_WAITS_SOURCE = (
    "NVIDIA/TensorRT-LLM docs/source/blogs/tech_blog/blog10_ADP_Balance_Strategy.md (tech blog "
    "10, 'ADP Balance Strategy'): an iteration's attention time is the maximum over the "
    "data-parallel ranks; unbalanced, DeepSeek V3 on 8 x GB200 (DP8, EP8) ran at a 54 % average "
    "balance ratio, and holding prompts back until every rank has one raised throughput 1.31-"
    "1.33x. Which runs balance: the perf overview's option files (enable_balance for DeepSeek R1 "
    "only)"
)
# Prompts one card may take in a step are summed to this many; a card's share of the prompts
# in a step is drawn as a Poisson count, and past 128 the chance left is below 1e-10 for any
# count a step of a real benchmark carries (fewer than 85 prompts a card a step).
_MOST_PROMPTS = 128
_LOG_FACTORIALS = np.concatenate(([0.0], np.cumsum(np.log(np.arange(1.0, _MOST_PROMPTS)))))


def busiest_rank_share(prompts_per_step, ranks):
    r"""How many times its even share of a step's prompts the busiest of ``ranks`` cards holds.

    Parameters
    ----------
    prompts_per_step : float or ndarray
        Prompts that start in one step, over the whole node (at a steady load, the running
        requests over the tokens each answers).
    ranks : float or ndarray
        Attention data-parallel cards.

    Notes
    -----
    Each card takes the prompts of the requests it finished, so a card's prompts in a step
    are a Poisson count :math:`n_r` of mean :math:`\lambda = p / R`, and the step waits for
    the busiest card:

    .. math:: E[\max_r n_r] = \sum_{k \ge 1} \left(1 - F_\lambda(k - 1)^R\right), \qquad
              w = \frac{E[\max_r n_r]}{\lambda}

    :math:`w` is :math:`R` as :math:`p \to 0` (a lone prompt's attention runs on one card
    while the others wait), 1 on one card, and falls towards 1 as the prompts of a step grow
    (every card has some).
    """
    ranks = np.maximum(np.asarray(ranks, dtype=float), 1.0)
    mean = np.maximum(np.divide(prompts_per_step, ranks), 0.0)
    counts = np.arange(_MOST_PROMPTS, dtype=float)
    logs = np.log(np.maximum(mean, 1e-300))[..., None]
    below = np.cumsum(np.exp(counts * logs - mean[..., None] - _LOG_FACTORIALS), axis=-1)
    busiest = np.sum(1.0 - np.minimum(below, 1.0) ** ranks[..., None], axis=-1)
    return np.where(mean > 1e-9, np.maximum(busiest / np.maximum(mean, 1e-300), 1.0), ranks)


class RankWaits:
    """The busiest-card wait of a :class:`~core.engine_level.node.Node` (it holds the fields)."""

    @cached_property
    def any_data_parallel(self) -> bool:
        """Whether any of these nodes runs attention data-parallel."""
        return bool(np.any(self.data_parallel_attention))

    def prefill_waits(self, prompts_per_step, terms, alone):
        r"""How many times its even share of the cards' time a prompt's attention side takes.

        ``alone``: the prompt is prefilled by itself, on its one card, while the others idle.
        Otherwise it rides with the step's other prompts, :math:`p` of them
        (``prompts_per_step``): the step waits for the busiest card
        (:func:`busiest_rank_share`), unless a balancer has every card prefill together
        (``layout="dep-balanced"``). 1 outside attention data parallelism.
        """
        if "rank_waits" not in terms or not self.any_data_parallel:
            return 1.0
        cards = np.asarray(self.cards, dtype=float)
        riding = np.where(self.balanced_ranks, 1.0, busiest_rank_share(prompts_per_step, cards))
        return np.where(self.data_parallel_attention, cards if alone else riding, 1.0)
