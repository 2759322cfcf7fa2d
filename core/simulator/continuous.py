"""The scheduler's fast loop: continuous batching with every prompt prefilled whole.

A replayed hour is a hundred thousand runs of steps and more, and a method call per run cost
more than the run's arithmetic. This loop serves a :class:`~core.simulator.scheduler.Scheduler`
with the node's lists in locals, one run after another. Who is admitted, when a request
starts writing, when it leaves and who is preempted are :mod:`core.simulator.rules`'s, the
same functions the step scheduler calls; the run between two events is priced as
:meth:`~core.simulator.scheduler.Scheduler.step` prices it, with the same floating-point
operations, so every time the loop gives is the step scheduler's to the last bit
(``tests/core/simulator/test_scheduler_paths.py`` checks the two on random streams,
``tests/core/traffic/test_replay_pinned.py`` pins the figures). Static waves and chunked prefill step
through the scheduler's methods.

A run's first step prefills the prompts admitted at its start whole (a preempted request's
cache, gone, is prefilled again), then every other seat decodes one token; the run ends at
the first finish, at the boundary after the next arrival, or before the step paged memory
cannot hold, and is recorded as the clock, cache and blocks advance.
"""

from __future__ import annotations

from heapq import heappop

from core.simulator.runs import first_reaching, knee_of, paged_cut, tail_s

# Runs served per call of _serve_runs: CPython 3.11 specialises a function's instructions
# only after a few calls, never inside one long first call, so the loop is served in slices.
RUNS_PER_CALL = 64


def serve_continuous(node, check=None) -> None:
    """Serve every request of ``node`` (a continuous-batching Scheduler, no chunks), run by run.

    ``check``, when given, is called with ``node`` after every slice of runs: a caller that
    bounds its work (core/traffic/replay_budget.py) raises there to stop.
    """
    while node.done < node.n:
        _serve_runs(node, RUNS_PER_CALL)
        if check is not None:
            check(node)


def _serve_runs(node, runs: int) -> None:
    """Up to ``runs`` passes: admit who waits and fits, one run of steps, retire who finished."""
    n, batch, arrival, running = node.n, node.batch, node.arrival, node.running
    requeued, finishing, finish_step_of = node.requeued, node.finishing, node.finish_step_of
    prompt, generated, cached = node.prompt, node.generated, node.cached
    base_of, per_token, flop = node.base_of, node.per_token, node.flop
    paged, block, phases, capacity = node.paged, node.block, node.phases, node.capacity
    rows = node.runs
    record, add_blocks, add_phases = rows.values.extend, rows.blocks.append, rows.phases.extend
    room, plan, admit, start, finish, _, preempt = node.rules
    for _ in range(runs):
        if node.done >= n:
            return
        free = room()
        if free < 0:  # paged memory cannot hold the next step
            preempt()
            free = room()
        t, head, held = node.t, node.head, node.held
        writers = len(running)
        if writers < batch and (requeued or (head < n and arrival[head] <= t)):  # someone waits
            chosen, blocked = plan(free)
            node.stalls += blocked
            admit(chosen)
            fresh = 0
            for request in chosen:
                tokens = prompt[request] + generated[request]
                if cached[request]:
                    held += tokens  # read as cache by the first step
                else:
                    fresh += tokens
                    writers -= 1
            start(chosen)
            decoders = writers + len(chosen)
            first = flop * fresh
            if decoders:
                first += max(base_of[decoders] + per_token * held, flop * decoders)
            writers, held, head = len(running), node.held, node.head
        elif writers:  # every seat decodes
            first = max(base_of[writers] + per_token * held, flop * writers)
        if not writers:  # nothing to run: the clock jumps to the next arrival
            node.t = max(t, arrival[head])
            continue
        # The run ends at the first finish, the boundary after the next arrival, or before the
        # step paged memory cannot hold.
        while finish_step_of[finishing[0][1]] != finishing[0][0]:
            heappop(finishing)  # a stay that ended in preemption
        steps_done = node.steps_done
        steps = finishing[0][0] - steps_done
        # Step j >= 1 reads the weights and held + writers * j cached tokens.
        alpha = base_of[writers] + per_token * held
        beta, gamma = per_token * writers, flop * writers
        knee = 1.0 if alpha + beta >= gamma else knee_of(alpha, beta, gamma)  # mostly read-bound
        # tail_s, written out for a run read-bound from its first step (the knee at 1)
        tail = ((steps - 1) * alpha + beta * ((steps - 1) * steps) / 2 if knee == 1.0 and steps > 1
                else tail_s(steps - 1, alpha, beta, gamma, knee))  # fmt: skip
        # Continuous batching admits at the first step boundary after a request can start.
        if writers < batch and not requeued and head < n and arrival[head] > t:
            wait = arrival[head] - t
            if first + tail >= wait:
                steps, tail = first_reaching(wait, steps, first, alpha, beta, gamma, knee)
        if paged:
            blocks = node.blocks
            free, rotation = capacity - blocks, (steps_done + 1) % block
            end = rotation + steps % block  # blocks_gained, inline: the residues the steps pass
            gained = (steps // block) * writers + (
                sum(phases[rotation:end]) if end <= block
                else sum(phases[rotation:]) + sum(phases[: end - block])
            )  # fmt: skip
            if gained > free:
                steps, gained = paged_cut(steps, writers, phases, rotation, free, block)
                tail = tail_s(steps - 1, alpha, beta, gamma, knee)
            add_blocks(blocks)
            add_phases(phases)
            node.blocks = blocks + gained
        record((t, steps, first, alpha, beta, gamma, held, writers, writers, node.reserved))
        node.t = t + (first + tail)
        node.held = held + writers * steps
        node.steps_done = steps_done = steps_done + steps
        if finishing[0][0] == steps_done:  # the requests whose last token the run wrote leave
            finish()
