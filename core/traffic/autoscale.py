"""Autoscaling against renting for the peak: a second-by-second fluid queue over the hour.

Each node serves :math:`\\mu` requests a second (its granted seats over a request's time in
a seat, or its prompts one at a time, whichever binds). Second :math:`k` brings :math:`a_k` arrivals; the backlog is
:math:`b_{k+1} = \\max(0, b_k + a_k - n_k \\mu)` and an arrival in second :math:`k` waits about
:math:`b_k / (n_k \\mu)` (first come, first served). A fixed pool keeps :math:`n_k = n`; the
autoscaler orders a node when the backlog passes one node's seats, pays for it from the
order, and serves with it only after the provisioning delay (boot plus loading the weights at
the storage bandwidth); it hands one back when five minutes' peak second would fit on one node
fewer at :data:`SCALE_DOWN_LOAD` of capacity.

Goodput counts an arrival by the one predicate (:func:`core.traffic.goodput.meets_targets`):
its TTFT is its second's wait plus its own first-token work, its time per output token the
node's decode step (every answer token one step, as on the whiteboard).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.catalog.workloads import TTFT_SLO_S
from core.traffic.goodput import meets_targets

# Booting a GPU node and starting its engine before it loads weights: an assumption of this
# lab (no published figure covers every cloud), shown in the sources table.
BOOT_S = 60.0
# Reading weights from network block storage: AWS EBS gp3's most throughput per volume,
# 1,000 MiB/s (AWS, "Amazon EBS volume types", gp3).
STORAGE_BYTES_PER_S = 1000 * 2**20
SCALE_DOWN_LOAD = 0.7
SCALE_DOWN_WINDOW_S = 300


@dataclass(frozen=True)
class PolicyHour:
    """One policy's hour: nodes each second (bought, serving), bill and goodput."""

    policy: str
    nodes_bought: np.ndarray
    nodes_serving: np.ndarray
    usd: float
    goodput: float
    wait_p95_s: float


def provisioning_s(weight_bytes: float) -> float:
    """Seconds from ordering a node to its first request: boot plus the weights' load."""
    return BOOT_S + weight_bytes / STORAGE_BYTES_PER_S


def per_second(arrival_s: np.ndarray) -> np.ndarray:
    """Arrivals in each second of the hour."""
    return np.bincount(arrival_s.astype(np.int64), minlength=3600).astype(float)


def fixed_hour(policy, arrivals, nodes, rate, first_s, usd_per_node_s, *, tpot_s,
               tpot_slo_s) -> PolicyHour:  # fmt: skip
    """A pool of ``nodes`` all hour (``rate``: requests a second one node serves).

    ``first_s`` is a request's own first-token work and ``tpot_s`` its time per output token;
    ``tpot_slo_s`` is the time-per-token target.
    """
    count = np.full(len(arrivals), float(nodes))
    targets = (tpot_s, tpot_slo_s)
    return _judge(policy, arrivals, count, count, rate, first_s, usd_per_node_s, targets)


def autoscaled_hour(arrivals, start_nodes, rate, seats, delay_s, first_s, usd_per_node_s, *,
                    tpot_s, tpot_slo_s, most=64) -> PolicyHour:  # fmt: skip
    """The autoscaler's hour from ``start_nodes`` (see the module's notes; the rest as
    :func:`fixed_hour`'s)."""
    seconds = len(arrivals)
    bought = np.zeros(seconds)
    serving = np.zeros(seconds)
    ready: list[float] = []  # when each ordered node starts serving
    nodes, backlog = float(start_nodes), 0.0
    for k in range(seconds):
        arrived = [t for t in ready if t <= k]
        nodes += len(arrived)
        ready = [t for t in ready if t > k]
        window = arrivals[max(0, k - SCALE_DOWN_WINDOW_S) : k + 1].max()
        if backlog > seats and not ready and nodes + len(ready) < most:
            ready.append(k + delay_s)
        elif not ready and nodes > 1 and window < SCALE_DOWN_LOAD * (nodes - 1) * rate:
            nodes -= 1
        bought[k], serving[k] = nodes + len(ready), nodes
        backlog = max(0.0, backlog + arrivals[k] - nodes * rate)
    targets = (tpot_s, tpot_slo_s)
    return _judge("autoscale", arrivals, bought, serving, rate, first_s, usd_per_node_s, targets)


def _judge(policy, arrivals, bought, serving, rate, first_s, usd_per_node_s,
           targets) -> PolicyHour:  # fmt: skip
    """Backlog, each second's wait, goodput over the arrivals, and the bill for the nodes bought.

    ``targets`` is ``(tpot_s, tpot_slo_s)``: a request's time per output token and its target.
    """
    capacity = serving * rate
    backlog = np.zeros(len(arrivals))
    carry = 0.0
    for k in range(len(arrivals)):
        backlog[k] = carry
        carry = max(0.0, carry + arrivals[k] - capacity[k])
    wait = backlog / np.maximum(capacity, 1e-12)
    tpot_s, tpot_slo_s = targets
    good = meets_targets(wait + first_s, tpot_s, TTFT_SLO_S, tpot_slo_s)
    total = max(arrivals.sum(), 1.0)
    order = np.argsort(wait)
    cumulative = np.cumsum(arrivals[order]) / total
    p95 = float(wait[order][min(np.searchsorted(cumulative, 0.95), len(order) - 1)])
    for array in (bought, serving):
        array.setflags(write=False)
    return PolicyHour(
        policy=policy,
        nodes_bought=bought,
        nodes_serving=serving,
        usd=float(bought.sum() * usd_per_node_s),
        goodput=float((arrivals * good).sum() / total),
        wait_p95_s=p95,
    )
