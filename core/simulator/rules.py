"""The scheduler's contract: admission, start and finish, stated once.

As vLLM writes its scheduler's contract down (``SchedulerInterface``), this module is the
one statement of a node's scheduling rules (:class:`Rules`: ``room`` and ``plan`` for
admission, ``admit``, ``start``, ``finish``, ``leave`` and ``preempt``), over the node's
state (:class:`NodeState`). Both ways of serving a node call them: the step scheduler
(:class:`core.simulator.scheduler.Scheduler`: static waves, chunked prefill) and the fast
loop of continuous batching with whole prefills (:mod:`core.simulator.continuous`), so the
two cannot disagree on who is admitted, when a request writes or what it gives back. What a
step costs and how long a run of steps lasts are the callers' (:mod:`core.simulator.runs`).

The rules are bound to one node's lists once (:func:`bind`), as closures: a replayed hour
calls them for every run, a hundred thousand runs and more, and looking each list up on the
node at every call would cost more than the rules' arithmetic.

Notes
-----
A request holding :math:`T` tokens (its prompt and what it wrote before this stay) costs, on
admission, :math:`\\lceil (T + 1) / b \\rceil` blocks of :math:`b` tokens when paged (room
for its next token) and its whole reservation :math:`T_{prompt} + T_{max\\,answer}` when
reserved. A paged seat holds :math:`\\lceil T / b \\rceil` blocks and needs a fresh one
before global step :math:`g` when it holds a multiple of :math:`b` tokens, that is when
:math:`g \\equiv g_0 + 1 - T \\pmod{b}` (its *phase*; :math:`g_0` is the step it starts at).
The next step fits while :math:`B + P_{(g+1) \\bmod b} \\le C`, with :math:`B` the blocks
held, :math:`P_r` the writing seats of phase :math:`r` and :math:`C` the node's blocks.

>>> from core.simulator.requests import Requests
>>> import numpy as np
>>> two = Requests(np.zeros(2), np.array([15, 40]), np.array([3, 3]), np.array([3, 3]))
>>> node = NodeState(two, "continuous", "paged", batch=4, block=16, capacity=3)
>>> node.rules.plan(node.rules.room())  # 1 block; the next needs 3 of the 2 left
([0], True)
"""

from __future__ import annotations

from bisect import bisect_right, insort
from collections.abc import Callable, Iterable
from heapq import heappop, heappush
from math import isnan
from typing import NamedTuple

from core.simulator.requests import Requests
from core.simulator.runs import Stays


class NodeState:
    """What one node knows of its requests, seats and memory: the state the rules change.

    Per request (lists, indexed by request): its arrival, prompt, answer and reservation;
    ``cached`` (its cache is in this node's memory), ``generated`` (tokens written before its
    current stay), ``admit_s`` (its first admission), and for its current stay ``seat_of``,
    ``start_of`` (admitted at), ``first_step_of`` (the global step of its first token),
    ``finish_step_of`` (the global step after its last; -1 while it is not writing) and
    ``phase_of`` (paged: its phase, see the module's Notes).

    Aggregates: ``held`` (tokens the writing seats hold), ``blocks`` (blocks the seats hold,
    paged), ``reserved`` (tokens the seats reserve), ``phases`` (writing seats per phase),
    ``running`` (seat holders, oldest admission first), ``finishing`` (a heap of
    (finish step, request)), ``free_seats`` (a heap), ``requeued`` (preempted requests, in
    arrival order) and ``head`` (the next fresh request not yet admitted); ``prefilling`` is
    the step scheduler's line of prompts still being prefilled. ``t`` is the clock and
    ``steps_done`` the global step count; ``stays`` records every stay as it ends.
    """

    # Slots: the loops read these on every run, and the Scheduler's attributes are too many
    # for an instance dict's fast shared-key lookups (CPython 3.11 shares at most 30 keys).
    __slots__ = (
        "admit_s", "answer", "arrival", "batch", "block", "blocks", "cached", "capacity",
        "done", "finish_step_of", "finishing", "first_step_of", "free_seats", "generated",
        "head", "held", "n", "paged", "phase_of", "phases", "prefilling", "prompt", "requeued",
        "reserve", "reserved", "rules", "running", "seat_of", "start_of", "static", "stays",
        "steps_done", "t", "wave",
    )  # fmt: skip

    def __init__(self, req: Requests, policy: str, layout: str, batch: int, block: int,
                 capacity: int, prefilled: bool = False) -> None:  # fmt: skip
        n = len(req)
        self.n, self.batch, self.block, self.capacity = n, batch, block, capacity
        self.paged = layout == "paged"
        self.static = policy == "static"
        self.arrival = req.arrival_s.tolist()
        self.prompt = req.prompt_tokens.tolist()
        self.answer = req.answer_tokens.tolist()
        self.reserve = (req.prompt_tokens + req.max_answer_tokens).tolist()
        self.cached = [prefilled] * n
        self.generated = [0] * n
        self.admit_s = [float("nan")] * n
        self.seat_of = [0] * n
        self.start_of = [0.0] * n
        self.first_step_of = [0] * n
        self.finish_step_of = [-1] * n
        self.phase_of = [0] * n
        self.stays = Stays()
        self.requeued: list[tuple[float, int]] = []
        self.head = 0
        self.running: dict[int, None] = {}
        self.prefilling: list[list[int]] = []  # [request, prompt tokens left], admission order
        self.finishing: list[tuple[int, int]] = []
        self.free_seats = list(range(batch))
        self.held = 0
        self.blocks = 0
        self.reserved = 0
        self.phases = [0] * block
        self.wave = -1  # static: the wave being served, numbered from 0
        self.t = 0.0
        self.done = 0
        self.steps_done = 0
        self.rules = bind(self)


class Rules(NamedTuple):
    """One node's rules, bound to its state by :func:`bind` (each reads the node's lists
    without looking them up again: a replayed hour calls them once a run, 100,000 runs and more).

    - ``room()``: memory free for admission, blocks (paged: the next step's fresh blocks
      taken) or tokens (reserved); negative only when paged memory cannot hold the next step.
    - ``plan(free)`` (admission): the waiting requests the free seats and ``free`` memory
      admit now, and whether memory, not the seats, stopped them. Preempted requests come
      first, in arrival order, then fresh arrivals in arrival order, up to the free seats;
      each is taken while its cost (the module's Notes) fits what is left, and the first that
      does not fit stops admission (none overtakes it). It changes nothing.
    - ``admit(requests)``: each planned request gets a seat (a static wave's in order, else
      the lowest free one) and its memory.
    - ``start(requests)``: each request's prompt is in the cache; it writes one token a step
      from the node's current step on, and its finish step is set.
    - ``finish()``: the requests whose last token the node's last step wrote leave.
    - ``leave(requests, preempted)``: each request gives its seat and memory back, finished
      or preempted, and its stay is recorded.
    - ``preempt()``: while paged memory cannot hold the next step, the newest seat is
      preempted; its cache is lost (vLLM's recompute preemption) and it waits again in
      arrival order, ahead of every fresh arrival.
    """

    room: Callable[[], int]
    plan: Callable[[int], tuple[list[int], bool]]
    admit: Callable[[Iterable[int]], None]
    start: Callable[[Iterable[int]], None]
    finish: Callable[[], None]
    leave: Callable[[Iterable[int], bool], None]
    preempt: Callable[[], None]


def bind(node: NodeState) -> Rules:
    """The rules over ``node``'s state (:class:`Rules`), its lists bound once."""
    room, plan = _admission(node)
    admit, start = _seating(node)
    finish, leave, preempt = _leaving(node, room)
    return Rules(room, plan, admit, start, finish, leave, preempt)


def _admission(node: NodeState):
    """``room`` and ``plan`` over ``node`` (see :class:`Rules`)."""
    arrival, prompt, generated, reserve = node.arrival, node.prompt, node.generated, node.reserve
    requeued, running, phases = node.requeued, node.running, node.phases
    paged, block, capacity, batch = node.paged, node.block, node.capacity, node.batch

    def room() -> int:
        if paged:
            return capacity - node.blocks - phases[(node.steps_done + 1) % block]
        return capacity - node.reserved

    def plan(free: int) -> tuple[list[int], bool]:
        head, limit = node.head, batch - len(running)
        arrived = bisect_right(arrival, node.t, lo=head)
        if requeued:
            queue = [request for _, request in requeued[:limit]]
            queue.extend(range(head, min(arrived, head + limit - len(queue))))
        else:  # most boundaries: the fresh arrivals alone
            queue = range(head, min(arrived, head + limit))
        chosen: list[int] = []
        for request in queue:
            tokens = prompt[request] + generated[request]
            cost = -(-(tokens + 1) // block) if paged else reserve[request]
            if cost > free:
                return chosen, True
            free -= cost
            chosen.append(request)
        return chosen, False

    return room, plan


def _seating(node: NodeState):
    """``admit`` and ``start`` over ``node`` (see :class:`Rules`)."""
    prompt, generated, answer, reserve = node.prompt, node.generated, node.answer, node.reserve
    requeued, running, free_seats = node.requeued, node.running, node.free_seats
    finishing, cached, admit_s = node.finishing, node.cached, node.admit_s
    seat_of, start_of = node.seat_of, node.start_of
    first_step_of, finish_step_of, phase_of = node.first_step_of, node.finish_step_of, node.phase_of
    phases, paged, static, block = node.phases, node.paged, node.static, node.block

    def admit(requests: Iterable[int]) -> None:
        t = node.t
        for request in requests:
            if requeued and requeued[0][1] == request:
                requeued.pop(0)
            else:
                node.head += 1
            if paged:
                node.blocks += -(-(prompt[request] + generated[request]) // block)
            else:
                node.reserved += reserve[request]
            seat_of[request] = len(running) if static else heappop(free_seats)
            start_of[request] = t
            if isnan(admit_s[request]):
                admit_s[request] = t
            running[request] = None

    def start(requests: Iterable[int]) -> None:
        steps_done = node.steps_done
        for request in requests:
            tokens = prompt[request] + generated[request]
            node.held += tokens
            if paged:
                phase = (steps_done + 1 - tokens) % block
                phase_of[request] = phase
                phases[phase] += 1
            cached[request] = True
            first_step_of[request] = steps_done
            finish = steps_done + answer[request] - generated[request]
            finish_step_of[request] = finish
            heappush(finishing, (finish, request))

    return admit, start


def _leaving(node: NodeState, room: Callable[[], int]):
    """``finish``, ``leave`` and ``preempt`` over ``node`` (see :class:`Rules`)."""
    prompt, generated, reserve, arrival = node.prompt, node.generated, node.reserve, node.arrival
    running, free_seats, finishing = node.running, node.free_seats, node.finishing
    requeued, cached, prefilling = node.requeued, node.cached, node.prefilling
    seat_of, start_of = node.seat_of, node.start_of
    first_step_of, finish_step_of, phase_of = node.first_step_of, node.finish_step_of, node.phase_of
    phases, paged, static, block = node.phases, node.paged, node.static, node.block
    add_stay = node.stays.values.extend

    def leave(requests: Iterable[int], preempted: bool) -> None:
        steps_done, t, wave = node.steps_done, node.t, node.wave if static else -1
        for request in requests:
            tokens = prompt[request] + generated[request]
            written = 0
            if finish_step_of[request] >= 0:
                written = steps_done - first_step_of[request]
                tokens += written
                node.held -= tokens
                if paged:
                    phases[phase_of[request]] -= 1
            else:  # still prefilling (chunks): it leaves the line too
                first_step_of[request] = steps_done
                prefilling[:] = [entry for entry in prefilling if entry[0] != request]
            if paged:
                node.blocks -= -(-tokens // block)
            else:
                node.reserved -= reserve[request]
            seat = seat_of[request]
            add_stay((request, seat, start_of[request], t, first_step_of[request], written,
                      preempted, wave))  # fmt: skip
            generated[request] += written
            finish_step_of[request] = -1
            del running[request]
            if not static:
                heappush(free_seats, seat)

    def finish() -> None:
        steps_done = node.steps_done
        due = []
        while finishing and finishing[0][0] == steps_done:
            request = heappop(finishing)[1]
            if finish_step_of[request] == steps_done:  # else a stay that ended in preemption
                due.append(request)
        leave(due, False)
        node.done += len(due)

    def preempt() -> None:
        while running and room() < 0:
            victim = next(reversed(running))
            leave((victim,), True)
            cached[victim] = False
            insort(requeued, (arrival[victim], victim))

    return finish, leave, preempt
