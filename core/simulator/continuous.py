"""The scheduler's fast loop: continuous batching with every prompt prefilled whole.

A replayed hour is tens of thousands of runs of steps, and a method call per admission, first
step, run and finish cost more than the runs' arithmetic. These functions serve a
:class:`~core.simulator.scheduler.Scheduler` under the rules of its methods, in their order and
with their floating-point operations, with the node's lists in locals and each request's
admission, start and finish written out inline, so every time they give is the methods' to the
last bit (``tests/core/traffic/test_replay_pinned.py`` pins the figures; ``tests/core/simulator/test_simulator.py`` checks
the tokens against a step-by-step reference). Static waves and chunked prefill step through
the methods; a preemption, rare, calls :meth:`~core.simulator.scheduler.Scheduler.preempt`.
"""

from __future__ import annotations

import bisect
import heapq
import math

from core.simulator.runs import first_reaching, knee_of, paged_cut, tail_s

# Runs served per call of _serve_runs: CPython 3.11 specialises a function's instructions
# only after a few calls, never inside one long first call, so the loop is served in slices.
RUNS_PER_CALL = 64


def serve_continuous(node) -> None:
    """Serve every request of ``node`` (a continuous-batching Scheduler, no chunks), run by run."""
    while node.done < node.n:
        _serve_runs(node, RUNS_PER_CALL)


def _serve_runs(node, runs: int) -> None:
    """Up to ``runs`` passes: admit who waits and fits, one run of steps, retire who finished."""
    n, batch, block, capacity, paged = node.n, node.batch, node.block, node.capacity, node.paged
    arrival, running, requeued, phases = node.arrival, node.running, node.requeued, node.phases
    finishing, finish_step_of, generated = node.finishing, node.finish_step_of, node.generated
    prompt, first_step_of, phase_of = node.prompt, node.first_step_of, node.phase_of
    seat_of, start_of, free_seats = node.seat_of, node.start_of, node.free_seats
    add_stay = node.stays.values.extend
    base_of, per_token, flop = node.base_of, node.per_token, node.flop
    for _ in range(runs):
        if node.done >= n:
            return
        if paged and running and node.blocks + phases[(node.steps_done + 1) % block] > capacity:
            node.preempt()
        t, head = node.t, node.head
        if len(running) < batch and (requeued or (head < n and arrival[head] <= t)):
            first = _admit_and_begin(node)
        elif running:  # every seat decodes: _decode_s, written out
            first = max(base_of[len(running)] + per_token * node.held, flop * len(running))
        if not running:  # nothing to run: the clock jumps to the next arrival
            node.t = max(t, arrival[node.head])
            continue
        steps_done = _run(node, first)
        # The requests whose last token the run wrote leave: Scheduler.leave's bookkeeping.
        while finishing and finishing[0][0] == steps_done:
            request = heapq.heappop(finishing)[1]
            if finish_step_of[request] != steps_done:
                continue
            first_step = first_step_of[request]
            written = steps_done - first_step
            tokens = prompt[request] + generated[request] + written
            node.held -= tokens
            if paged:
                phases[phase_of[request]] -= 1
                node.blocks -= -(-tokens // block)
            else:
                node.reserved -= node.reserve[request]
            seat = seat_of[request]
            add_stay((request, seat, start_of[request], node.t, first_step, written, False, -1))
            generated[request] += written
            finish_step_of[request] = -1
            del running[request]
            heapq.heappush(free_seats, seat)
            node.done += 1


def _decode_s(node, decoders: int, read_tokens: int) -> float:
    """A decode step's seconds: the weights ``decoders`` seats read and ``read_tokens`` of cache."""
    read = node.base_of[decoders] + node.per_token * read_tokens
    return max(read, node.flop * decoders)


def _run(node, first: float) -> int:
    """One run of steps from a first step of ``first`` seconds; the global step it ends at.

    The run ends at the first finish, the boundary after the next arrival, or before the
    step paged memory cannot hold; it is recorded and the clock, cache and blocks advance.
    """
    finishing, finish_step_of, arrival = node.finishing, node.finish_step_of, node.arrival
    while finish_step_of[finishing[0][1]] != finishing[0][0]:
        heapq.heappop(finishing)  # a stay that ended in preemption
    t, head, steps_done, held = node.t, node.head, node.steps_done, node.held
    writers = len(node.running)
    steps = finishing[0][0] - steps_done
    # Step j >= 1 reads the weights and held + writers * j cached tokens.
    alpha = node.base_of[writers] + node.per_token * held
    beta, gamma = node.per_token * writers, node.flop * writers
    knee = 1.0 if alpha + beta >= gamma else knee_of(alpha, beta, gamma)  # mostly read-bound
    tail = (  # tail_s, written out for a run read-bound from its first step (the knee at 1)
        (steps - 1) * alpha + beta * ((steps - 1) * steps) / 2
        if knee == 1.0 and steps > 1
        else tail_s(steps - 1, alpha, beta, gamma, knee)
    )
    # Continuous batching admits at the first step boundary after a request can start.
    if writers < node.batch and not node.requeued and head < node.n and arrival[head] > t:
        wait = arrival[head] - t
        if first + tail >= wait:
            steps, tail = first_reaching(wait, steps, first, alpha, beta, gamma, knee)
    if node.paged:
        blocks, block, phases = node.blocks, node.block, node.phases
        room, rotation = node.capacity - blocks, (steps_done + 1) % block
        end = rotation + steps % block  # blocks_gained, inline: the residues the steps pass
        gained = (steps // block) * writers + (
            sum(phases[rotation:end]) if end <= block
            else sum(phases[rotation:]) + sum(phases[: end - block])
        )  # fmt: skip
        if gained > room:
            steps, gained = paged_cut(steps, writers, phases, rotation, room, block)
            tail = tail_s(steps - 1, alpha, beta, gamma, knee)
        node.runs.blocks.append(blocks)
        node.runs.phases.extend(phases)
        node.blocks = blocks + gained
    node.runs.values.extend(
        (t, steps, first, alpha, beta, gamma, held, writers, writers, node.reserved)
    )
    node.t = t + (first + tail)
    node.held = held + writers * steps
    node.steps_done = steps_done + steps
    return steps_done + steps


def _admit_and_begin(node) -> float:
    """Admit the waiting requests that seats and memory take now, and begin their prompts.

    The queue is :meth:`~core.simulator.scheduler.Scheduler.queued`'s, the memory rule
    :meth:`~core.simulator.scheduler.Scheduler.plan`'s; each admitted request then begins as
    :meth:`~core.simulator.scheduler.Scheduler.begin` does, at the run's first step. Returns
    that first step's seconds.
    """
    prompt, generated, cached, answer = node.prompt, node.generated, node.cached, node.answer
    running, requeued, phases, block = node.running, node.requeued, node.phases, node.block
    paged, reserve, t, steps_done = node.paged, node.reserve, node.t, node.steps_done
    room = node.capacity - (
        node.blocks + phases[(steps_done + 1) % block] if paged else node.reserved
    )  # fmt: skip
    fresh, prefills, read_tokens = 0, 0, node.held
    limit, head = node.batch - len(running), node.head
    if requeued:
        queue = node.queued(limit)
    else:  # the queue's fresh arrivals alone, as Scheduler.queued finds them
        queue = range(head, min(bisect.bisect_right(node.arrival, t, lo=head), head + limit))
    for request in queue:
        tokens = prompt[request] + generated[request]
        cost = -(-(tokens + 1) // block) if paged else reserve[request]
        if cost > room:
            node.stalls += 1
            break
        room -= cost
        if requeued and requeued[0][1] == request:
            requeued.pop(0)
        else:
            node.head += 1
        if paged:
            node.blocks += -(-tokens // block)
            phase = (steps_done + 1 - tokens) % block
            node.phase_of[request] = phase
            phases[phase] += 1
        else:
            node.reserved += reserve[request]
        node.seat_of[request] = heapq.heappop(node.free_seats)
        node.start_of[request] = t
        if math.isnan(node.admit_s[request]):
            node.admit_s[request] = t
        running[request] = None
        if cached[request]:
            read_tokens += tokens
        else:
            fresh += tokens
            prefills += 1
        cached[request] = True
        node.first_step_of[request] = steps_done
        finish = steps_done + answer[request] - generated[request]
        node.finish_step_of[request] = finish
        heapq.heappush(node.finishing, (finish, request))
    node.held = read_tokens + fresh
    # The first step prefills the admitted prompts whole, then every seat decodes.
    decoders = len(running) - prefills
    first = node.flop * fresh
    if decoders:
        first += _decode_s(node, decoders, read_tokens)
    return first
