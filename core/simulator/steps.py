"""What one simulated step costs on a scenario's node: the same timing model as the capacity model.

The step simulator (:mod:`core.simulator`), speculative decoding (:mod:`core.simulator.speculative`) and the
roofline (:mod:`core.simulator.roofline`) all price their steps here, so every lab reads one model:
prefill at ``PREFILL_EFFICIENCY`` of dense peak, decode re-reading the weights and the running
cache at ``BANDWIDTH_EFFICIENCY`` of HBM bandwidth, never faster than its arithmetic.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from core.catalog import KV_BLOCK_TOKENS
from core.catalog.custom import scenario_gpu, scenario_shape
from core.evaluate import evaluate
from core.foundation.validation import knob_error
from core.scenario.knobs import Scenario
from core.scenario.resolve import tensor_peak
from core.whiteboard import timing
from core.whiteboard.experts import expert_weight_bytes_read


@dataclass(frozen=True)
class StepCosts:
    """The figures of one node that price a simulated step, taken from a scenario.

    Sizes in bytes, rates per second. ``kv_budget_bytes`` is the capacity model's KV room:
    the node's memory less the weights, less the safety margin.
    """

    weight_bytes: float
    kv_bytes_per_token: float
    kv_budget_bytes: float
    active_params: float
    cards: int
    hbm_bytes_per_s: float
    peak_flops: float
    block_tokens: int = KV_BLOCK_TOKENS
    # a mixture of experts reads only the experts a step's seats touch (dense: E = 1)
    params: float = 0.0
    experts: int = 1
    experts_per_token: int = 1
    link_bytes_per_s: float = 0.0  # each card's link to the others of its server, each way

    @classmethod
    def from_scenario(cls, scenario: Scenario | None = None, result=None) -> StepCosts:
        """The step costs of ``scenario``'s model, card, card count and storage types.

        ``result`` is ``scenario``'s :func:`core.evaluate.evaluate`, when the caller holds it
        (so it is not evaluated again); evaluated here otherwise.
        """
        scenario = scenario or Scenario()
        result = result if result is not None else evaluate(scenario)
        shape = scenario_shape(scenario)
        gpu = scenario_gpu(scenario)
        return cls(
            weight_bytes=result.weight_bytes,
            kv_bytes_per_token=result.kv_bytes_per_token,
            kv_budget_bytes=result.kv_budget_bytes,
            active_params=shape.active_params,
            cards=result.cards,
            hbm_bytes_per_s=gpu.hbm_bytes_per_s,
            # the capacity model's rule for which tensor rate a weight format multiplies at
            peak_flops=float(
                tensor_peak(scenario.gpu, {scenario.gpu: gpu}, scenario.weight_dtype, "")
            ),
            params=shape.params,
            experts=shape.experts,
            experts_per_token=shape.experts_per_token,
            link_bytes_per_s=gpu.link_bytes_per_s,
        )

    def slowed(self, factor: float) -> StepCosts:
        """The same node run by kernels ``factor`` times slower at both reading and arithmetic.

        Every step then lasts ``factor`` times as long, so a simulation on these costs models a
        less optimised implementation (the published naive baseline) on the same card.
        """
        if not np.isfinite(factor) or factor < 1:
            raise knob_error("factor", factor, "a slowdown of at least 1")
        return replace(
            self, hbm_bytes_per_s=self.hbm_bytes_per_s / factor, peak_flops=self.peak_flops / factor
        )

    @property
    def kv_budget_tokens(self) -> int:
        """Whole tokens of cache the KV room holds."""
        return int(np.floor(self.kv_budget_bytes / self.kv_bytes_per_token + 1e-9))

    @property
    def kv_budget_blocks(self) -> int:
        """Whole ``block_tokens``-token blocks the KV room holds."""
        return self.kv_budget_tokens // self.block_tokens

    def prefill_s(self, tokens):
        """Seconds to prefill ``tokens`` prompt tokens (0 for none).

        Notes
        -----
        .. math:: t_{pre} = \\frac{2 P T}{c \\cdot F \\cdot \\eta_F}
        """
        return timing.prefill_seconds(self.active_params, tokens, self.cards, self.peak_flops)

    def decode_s(self, seats, kv_tokens):
        """Seconds of one decode step writing a token for each of ``seats`` seats (0 for none).

        Notes
        -----
        The step reads the weights once, shared by the batch, and the ``kv_tokens`` cached
        tokens of its seats, and is never faster than its arithmetic:

        .. math:: t = \\max\\left(\\frac{W + K b_{kv}}{c \\cdot B \\cdot \\eta_B},\\
                  \\frac{2 P s}{c \\cdot F \\cdot \\eta_F}\\right)
        """
        step = timing.decode_step_seconds(
            self.weights_read(seats),
            np.multiply(kv_tokens, self.kv_bytes_per_token),
            self.active_params,
            seats,
            self.cards,
            self.hbm_bytes_per_s,
            self.peak_flops,
        )
        return np.where(np.asarray(seats) > 0, step, 0.0)

    def decode_terms(self, seats) -> tuple[float, float, float]:
        """The decode step of ``seats`` seats as ``(base, per_token, floor)`` seconds.

        Notes
        -----
        :meth:`decode_s` is :math:`\\max(a + b K, f)` for ``K`` cached tokens read: ``a`` the
        weight read, ``b`` the read of one cached token, ``f`` the arithmetic of ``seats``
        tokens. A simulated run whose cache grows by ``seats`` tokens a step prices its whole
        run from these three numbers. ``a`` reads every weight, a mixture's idle experts too;
        the scheduler takes a mixture's ``a`` from :meth:`read_s` at each step's token count
        (:meth:`weights_read` gives what a batch of a given size touches).
        """
        base = float(self.read_s(0.0))
        per_token = float(self.read_s(1.0)) - base
        return base, per_token, float(self.compute_s(seats))

    def weights_read(self, seats=None):
        """Weight bytes a decode step of ``seats`` seats reads (all of them for a dense model).

        Notes
        -----
        A mixture of experts reads its shared weights and the experts its seats touch,
        :math:`E (1 - (1 - k/E)^s)` of :math:`E` (:func:`core.whiteboard.experts.distinct_experts`).
        """
        if seats is None or self.experts <= 1:
            return self.weight_bytes
        return expert_weight_bytes_read(
            self.weight_bytes, self.params, self.active_params, self.experts,
            self.experts_per_token, seats,
        )  # fmt: skip

    def read_s(self, kv_tokens, seats=None):
        """The bandwidth side of a decode step alone: the weights ``seats`` seats read (all of
        them when None) plus ``kv_tokens`` cached tokens."""
        return timing.kv_read_seconds(
            self.weights_read(seats) + np.multiply(kv_tokens, self.kv_bytes_per_token),
            self.cards,
            self.hbm_bytes_per_s,
        )

    def compute_s(self, tokens):
        """The arithmetic side of a step that runs ``tokens`` tokens through the model."""
        return self.prefill_s(tokens)


def step_costs(scenario: Scenario | None = None, result=None) -> StepCosts:
    """:meth:`StepCosts.from_scenario` (``result``: the scenario's, if held), refusing a node
    whose weights leave no KV room.

    Raises
    ------
    ValueError
        Naming the scenario's model and card when the weights fill the node.
    """
    costs = StepCosts.from_scenario(scenario, result)
    if costs.kv_budget_tokens < costs.block_tokens:
        scenario = scenario or Scenario()
        name = scenario_shape(scenario).name if scenario.model else f"tier {scenario.tier}"
        raise knob_error(
            "scenario",
            f"{name} on {costs.cards} x {scenario.gpu}",
            "a node whose memory holds the weights and some KV cache; add cards or use fp8 weights",
        )
    return costs
