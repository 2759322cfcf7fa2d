"""How much work a replayed hour is, counted before and while it runs, and the bound on it.

A replay's time is not set by its requests alone. The scheduler's fast loop
(:mod:`core.simulator.continuous`) pays for every *run* of steps (a boundary: an arrival, a
finish, a preemption), for every *step* when the runs are rebuilt into token times
(:func:`core.simulator.runs.step_ends`, vectorised but one number per step), and, at each
boundary where requests wait, for a *scan* of the waiting line up to the free seats
(:func:`core.simulator.rules` ``plan``). Three kinds of hour are slow with few requests:
long answers on fast steps (tens of millions of steps), a node whose memory seats far fewer
than its ``seats`` while a line builds (thousands of waiting requests scanned at every
boundary: a preemption storm), and bursts on many replicas (many runs, many steps).

:func:`estimate` reckons the work from the hour's requests before anything runs, and
:class:`WorkMeter` counts it as the nodes are served; either past :data:`MAX_REPLAY_WORK`
refuses the hour with :class:`ReplayTooLong`, naming the knobs that would shrink it.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

import numpy as np

from core.traffic.arrivals import HOUR_S

# The work one replay may do, in runs of the scheduler (or their equivalent in steps and
# scans): about 5 s on the lab's two-core machine, what a knob change may hold a page.
MAX_REPLAY_WORK = 600_000
# What a step and a scanned waiting request cost beside one run of the fast loop (measured:
# ~8 us a run, ~0.1 us a rebuilt step, ~0.05 us a scanned request).
STEPS_PER_RUN = 80
SCANS_PER_RUN = 150
# Runs a request makes when estimated ahead: its admission and its finish (measured 1.1-1.9).
RUNS_PER_REQUEST = 2.0


class ReplayTooLong(ValueError):
    """An hour whose replay would do more than :data:`MAX_REPLAY_WORK` (its message says why)."""

    def __init__(self, work: Work, counted: str) -> None:
        super().__init__(work.refusal(counted))
        self.work = work


@dataclass(frozen=True)
class Work:
    """A replay's work: scheduler runs, simulated steps and waiting requests scanned.

    Notes
    -----
    Its size in runs is :math:`W = R + S / s + Q / q`, with :math:`s` =
    :data:`STEPS_PER_RUN` and :math:`q` = :data:`SCANS_PER_RUN`.
    """

    runs: float
    steps: float
    scans: float

    @property
    def total(self) -> float:
        """The work in runs of the scheduler (see Notes)."""
        return self.runs + self.steps / STEPS_PER_RUN + self.scans / SCANS_PER_RUN

    def refusal(self, counted: str) -> str:
        """Why an hour of this work is not replayed, naming the knobs that shrink its largest part."""
        parts = {
            "runs": (self.runs, "fewer requests (arrivals_per_min, replicas)"),
            "steps": (self.steps / STEPS_PER_RUN, "shorter answers (answer_tokens) or fewer "
                      "replicas"),
            "scans": (self.scans / SCANS_PER_RUN, "no more seats than the memory holds (seats), "
                      "or less traffic (arrivals_per_min, burstiness)"),
        }  # fmt: skip
        largest = max(parts, key=lambda name: parts[name][0])
        return (
            f"the hour is too much work to replay ({counted} {self.runs:,.0f} runs of the "
            f"scheduler, {self.steps:,.0f} steps, {self.scans:,.0f} waiting requests scanned; "
            f"a replay does at most {MAX_REPLAY_WORK:,} runs' worth, about 5 s): "
            f"{parts[largest][1]} would replay"
        )


def estimate(answers_per_node: np.ndarray, requests_per_node: np.ndarray, step_s: float,
             longest_answer: float, seats: int, seats_held: int, service_s: float) -> Work:  # fmt: skip
    """The work of serving each node's requests, reckoned before the run.

    Parameters
    ----------
    answers_per_node, requests_per_node : numpy.ndarray
        Answer tokens and requests routed to each node.
    step_s : float
        The quickest decode step (one seat's weight read): the most steps an hour can hold.
    longest_answer : float
        The longest answer, in tokens (the hour drains it after the last arrival).
    seats : int
        The scheduler's seats per node (``Scenario.seats``).
    seats_held : int
        The requests the node's memory holds at once (the closed form's ``seats_granted``).
    service_s : float
        One request's time in a seat (the closed form's ``request_s``).

    Notes
    -----
    A node writes one token per running request per step, so its steps are at most its
    answer tokens (one request at a time) and at most its span over the quickest step:
    :math:`S = \\sum_n \\min(A_n, (T + a_{max} t_1) / t_1)`. Runs are :math:`2 N`. Where the
    memory seats fewer than the seats (:math:`m < b`) and the node is overloaded
    (:math:`\\rho = \\lambda_n t_s / m > 1`), a line grows to :math:`(1 - 1/\\rho) N_n` and
    every run scans up to :math:`b - m` of it: :math:`Q = \\sum_n 2 N_n \\min((1 - 1/\\rho)
    N_n / 2, b - m)`.
    """
    span_steps = (HOUR_S + longest_answer * step_s) / max(step_s, 1e-12)
    steps = np.minimum(answers_per_node, span_steps).sum()
    runs = RUNS_PER_REQUEST * requests_per_node
    load = requests_per_node / HOUR_S * service_s / max(seats_held, 1)
    line = np.where(load > 1, (1 - 1 / np.maximum(load, 1)) * requests_per_node / 2, 0.0)
    scans = (runs * np.minimum(line, max(seats - seats_held, 0))).sum()
    return Work(float(runs.sum()), float(steps), float(scans))


class WorkMeter:
    """Counts a replay's work as its nodes are served; raises :class:`ReplayTooLong` past the bound.

    Pass :meth:`check` to :meth:`core.simulator.scheduler.Scheduler.serve`, then
    :meth:`node_done` after each node. The scans are sampled at each check (the waiting line
    then, up to the free seats, for each run of the slice).
    """

    def __init__(self, seats_held: int, limit: float = MAX_REPLAY_WORK) -> None:
        self.seats_held, self.limit = seats_held, limit
        self.runs = self.steps = self.scans = 0.0  # finished nodes'
        self.node_runs = self.node_steps = self.node_scans = 0.0  # the node being served

    def expect(self, replica: np.ndarray, answers: np.ndarray, nodes: int, step_s: float,
               seats: int, service_s: float) -> Work:  # fmt: skip
        """The hour's :func:`estimate` from each request's node and answer; raise past the bound."""
        work = estimate(
            np.bincount(replica, weights=answers, minlength=nodes),
            np.bincount(replica, minlength=nodes).astype(float),
            step_s,
            float(answers.max(initial=0)),
            seats,
            self.seats_held,
            service_s,
        )
        if work.total > self.limit:
            raise ReplayTooLong(work, "about")
        return work

    def work(self) -> Work:
        """The work counted so far, the node being served included."""
        return Work(self.runs + self.node_runs, self.steps + self.node_steps,
                    self.scans + self.node_scans)  # fmt: skip

    def check(self, node) -> None:
        """Count ``node``'s runs and steps so far and its waiting line; raise past the bound."""
        runs = len(node.runs.values) / len(node.runs.FIELDS)
        arrived = bisect_right(node.arrival, node.t, lo=node.head) if node.head < node.n else 0
        waiting = len(node.requeued) + max(arrived - node.head, 0)
        line = min(waiting, max(node.batch - len(node.running), 0))
        self.node_scans += line * (runs - self.node_runs)
        self.node_runs, self.node_steps = runs, float(node.steps_done)
        work = self.work()
        if work.total > self.limit:
            raise ReplayTooLong(work, "stopped after")

    def node_done(self, node) -> None:
        """Close ``node``'s count (its steps, rebuilt next, are the last of its work)."""
        self.check(node)
        work = self.work()
        self.runs, self.steps, self.scans = work.runs, work.steps, work.scans
        self.node_runs = self.node_steps = self.node_scans = 0.0
