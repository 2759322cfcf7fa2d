"""The hour's bill and goodput under three policies: rent for the mean, for the peak, autoscale."""

from __future__ import annotations

import functools
import math

from core.evaluate import evaluate
from core.scenario.knobs import Scenario
from core.whiteboard.autoscale import (
    PolicyHour,
    autoscaled_hour,
    fixed_hour,
    per_second,
    provisioning_s,
)
from core.whiteboard.traffic import hour_arrivals


def compare_policies(scenario: Scenario) -> tuple[PolicyHour, ...]:
    """Rent for the sized rate, rent for the hour's peak, and autoscale from the former.

    Notes
    -----
    Each node serves :math:`\\min(s_{granted} / D, 1 / t_{prompt})` requests a second (its
    seats, or its prompts one at a time, whichever binds); the peak pool is the closed
    form's at the hour's busiest minute, or enough to serve its busiest second's arrivals in
    that second, whichever is more; the autoscaler starts from the sized pool and waits
    :func:`core.whiteboard.autoscale.provisioning_s` for each node it orders. Bills are for
    this hour, every node paid from its order.
    """
    return _compare(tuple(sorted(scenario.knobs().items())))


@functools.lru_cache(maxsize=16)
def _compare(items: tuple) -> tuple[PolicyHour, ...]:
    knobs = dict(items)
    scenario = Scenario(**knobs)
    sized = evaluate(scenario)
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
    return (
        fixed_hour("rent for the sized rate", arrivals, sized.nodes, rate, first_s, usd_per_node_s),
        fixed_hour("rent for the peak second", arrivals, peak_nodes, rate, first_s, usd_per_node_s),
        autoscaled_hour(
            arrivals, sized.nodes, rate, max(sized.seats_granted, 1), delay, first_s, usd_per_node_s
        ),
    )
