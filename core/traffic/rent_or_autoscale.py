"""The hour's bill and goodput under three policies: rent for the mean, for the peak, autoscale."""

from __future__ import annotations

import functools
import math

from core.evaluate import evaluate
from core.foundation.caching import Unkeyed
from core.scenario.knobs import Scenario
from core.traffic.arrivals import hour_arrivals
from core.traffic.autoscale import (
    PolicyHour,
    autoscaled_hour,
    fixed_hour,
    per_second,
    provisioning_s,
)


def compare_policies(scenario: Scenario, result=None) -> tuple[PolicyHour, ...]:
    """Rent for the sized rate, rent for the hour's peak, and autoscale from the former.

    ``result`` is ``scenario``'s :func:`core.evaluate.evaluate` when the caller holds it; the
    study then evaluates only the peak sizing. Cached per process by the scenario's knobs.

    Notes
    -----
    Each node serves :math:`\\min(s_{granted} / D, 1 / t_{prompt})` requests a second (its
    seats, or its prompts one at a time, whichever binds); the peak pool is the closed
    form's at the hour's busiest minute, or enough to serve its busiest second's arrivals in
    that second, whichever is more; the autoscaler starts from the sized pool and waits
    :func:`core.traffic.autoscale.provisioning_s` for each node it orders. Bills are for
    this hour, every node paid from its order. Goodput is the one predicate's, each token
    taking the sized node's decode step.
    """
    return _compare(tuple(sorted(scenario.knobs().items())), Unkeyed(result))


@functools.lru_cache(maxsize=16)
def _compare(items: tuple, held: Unkeyed) -> tuple[PolicyHour, ...]:
    knobs = dict(items)
    scenario = Scenario(**knobs)
    sized = held.value if held.value is not None else evaluate(scenario)
    arrival = hour_arrivals(knobs["traffic"], float(sized.arrivals_per_min),
                            float(knobs["burstiness"]))  # fmt: skip
    arrivals = per_second(arrival)
    busiest = float(arrivals.reshape(-1, 60).sum(axis=1).max()) if len(arrivals) % 60 == 0 else 0
    peak = evaluate(scenario, arrivals_per_min=max(busiest, 0.01), replicas=None)
    first_s = sized.prefill_s + sized.prefix_read_s
    rate = min(max(sized.seats_granted, 1) / sized.request_s, 1.0 / first_s)
    usd_per_node_s = sized.cards * sized.usd_per_gpu_hour / 3600.0
    delay = provisioning_s(sized.weight_bytes)
    # Enough nodes for the busiest minute by the closed form and for the busiest second's arrivals.
    peak_nodes = min(max(peak.nodes, math.ceil(arrivals.max() / rate - 1e-9)), 64)
    node = (rate, first_s, usd_per_node_s)
    targets = {"tpot_s": sized.decode_step_s, "tpot_slo_s": knobs["tpot_slo_s"]}
    seats = max(sized.seats_granted, 1)
    return (
        fixed_hour("rent for the sized rate", arrivals, sized.nodes, *node, **targets),
        fixed_hour("rent for the peak second", arrivals, peak_nodes, *node, **targets),
        autoscaled_hour(arrivals, sized.nodes, rate, seats, delay, *node[1:], **targets),
    )
