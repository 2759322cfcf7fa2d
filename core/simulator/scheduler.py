"""The step scheduler of one node: runs of steps between events, under the rules in rules.py."""

from __future__ import annotations

import bisect
import heapq
import math

import numpy as np

from core.simulator import rules
from core.simulator.continuous import serve_continuous
from core.simulator.requests import Requests
from core.simulator.runs import (
    Runs,
    first_reaching,
    knee_of,
    paged_cut,
    rebuild_steps,
    step_ends,
    tail_s,
    token_bounds,
)
from core.simulator.steps import StepCosts


class Scheduler(rules.NodeState):
    """One node serving a stream of requests, one run of steps at a time.

    Who is admitted, when a request starts writing and what it gives back when it finishes
    or is preempted are :mod:`core.simulator.rules`'s, over the node's state
    (:class:`~core.simulator.rules.NodeState`): running seats all advance one token per step,
    so the state keeps only aggregates of them (``held``, ``blocks``, ``phases`` and a heap
    of finish steps). This class prices the steps between those events. A run
    ends at the first finish, at the boundary after an arrival that can be admitted, before
    the step paged memory cannot hold, or (chunked) at the step that finishes a prompt; its
    duration is summed in closed form (:func:`core.simulator.runs.tail_s`) and its steps are
    rebuilt vectorised afterwards.

    ``chunk_tokens`` 0 prefills each admitted prompt whole in the step after its admission,
    a pass of its own before the decodes (prefill then decode: their times add). A positive
    ``chunk_tokens`` is a per-step token budget: running seats take one token each and
    admitted prompts share the rest in admission order, in the same pass as the decodes
    (its time is the larger of the read and the arithmetic of every token in it).
    ``prefilled`` requests arrive with their cache already written (a disaggregated decode
    node): they start decoding at once, unless a preemption throws their cache away.

    Continuous batching with whole prefills, the replays' mode, is served by the same rules
    in one tight loop (:mod:`core.simulator.continuous`); static waves and chunked prefill
    step through these methods (:meth:`step_through`).
    """

    # The step loop's own attributes; the rules' state is NodeState's (slots, as there).
    __slots__ = ("base_of", "chunk", "flop", "per_token", "runs", "stalls", "wait_cap",
                 "wave_alloc")  # fmt: skip

    def __init__(
        self,
        costs: StepCosts,
        req: Requests,
        policy: str,
        layout: str,
        batch: int,
        wait_cap: float,
        chunk_tokens: int = 0,
        prefilled: bool = False,
    ):
        paged = layout == "paged"
        capacity = costs.kv_budget_blocks if paged else costs.kv_budget_tokens
        self.runs = Runs()
        super().__init__(req, policy, layout, batch, costs.block_tokens, capacity, prefilled)
        self.wait_cap, self.chunk = wait_cap, chunk_tokens
        _, self.per_token, self.flop = costs.decode_terms(1)
        # The weight read of a step with t tokens in it: a mixture of experts reads only the
        # experts those tokens touch (core.whiteboard.experts), a dense model all of its weights every time.
        top = max(batch, chunk_tokens) + 1
        self.base_of = np.broadcast_to(costs.read_s(0.0, np.arange(top)), (top,)).tolist()
        self.wave_alloc = 0.0  # static + reserved: the wave's reservations, held until it ends
        self.stalls = 0  # boundaries at which memory, not the seats, refused a waiting request

    def admit(self, chosen: list[int]) -> None:
        """Seat the chosen requests (the rules' ``admit``); their prompts wait in line."""
        self.rules.admit(chosen)
        prompt, generated, cached = self.prompt, self.generated, self.cached
        for request in chosen:
            tokens = 0 if cached[request] else prompt[request] + generated[request]
            self.prefilling.append([request, tokens])

    # -- the loop ----------------------------------------------------------------------------
    def run(self) -> dict:
        """Serve every request; return the node's trace (see :meth:`trace`)."""
        return self.serve().trace()

    def serve(self, check=None) -> Scheduler:
        """Serve every request, run by run; then read :meth:`trace` or :meth:`token_bounds`.

        ``check(self)``, when given, is called between slices of the fast loop's runs (a replay
        counting its work); the step-through paths do not call it.
        """
        if not self.static and not self.chunk:
            serve_continuous(self, check)
            return self
        return self.step_through()

    def step_through(self) -> Scheduler:
        """Serve every request through the methods, whatever the policy (the fast loop's check)."""
        room, preempt = self.rules.room, self.rules.preempt
        while self.done < self.n:
            free = room()
            if free < 0:  # paged memory cannot hold the next step
                preempt()
                free = room()
            if self.admission(free):
                self.step()
        return self

    def token_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Each served request's first and last token's time, without every token's."""
        return token_bounds(step_ends(self.runs), self.stays.columns(), self.n)

    def admission(self, free: int) -> bool:
        """Admit what may start now in ``free`` memory; False when the clock jumped instead."""
        arrival, head = self.arrival, self.head
        if self.static:
            if self.running:
                return True
            if not self.requeued and arrival[head] > self.t:
                self.t = arrival[head]
                return False
            chosen, full = self.rules.plan(free)  # every seat is free, and all the memory
            self.stalls += full
            oldest = self.requeued[0][0] if self.requeued else arrival[head]
            # A real engine cannot know no one else is coming: a short wave waits its cap.
            if len(chosen) < self.batch and not full and self.t < oldest + self.wait_cap:
                upcoming = bisect.bisect_right(arrival, self.t, lo=head)
                self.t = min(
                    arrival[upcoming] if upcoming < self.n else math.inf, oldest + self.wait_cap
                )
                return False
            self.wave += 1
            self.wave_alloc = float(sum(self.reserve[request] for request in chosen))
            self.admit(chosen)
            return True
        if len(self.running) < self.batch:
            chosen, blocked = self.rules.plan(free)
            self.stalls += blocked
            self.admit(chosen)
        if not self.running:
            self.t = max(self.t, arrival[self.head])
            return False
        return True

    def first_step(self) -> tuple[float, int]:
        """Prompts finished in the run's first step begin writing; its seconds and chunk tokens."""
        prefilling = self.prefilling
        if not prefilling:  # most runs: every seat decodes
            writers = len(self.running)
            read = self.base_of[writers] + self.per_token * self.held
            return max(read, self.flop * writers), 0
        old = len(self.running) - len(prefilling)
        read_tokens = self.held
        fresh = 0
        ready = 0  # prompts finished in this step by prefilling
        left = self.chunk - old if self.chunk else math.inf
        begun = []
        while prefilling and prefilling[0][1] <= left - fresh:
            request, tokens = prefilling.pop(0)
            if tokens:
                fresh += tokens
                ready += 1
            else:
                read_tokens += self.prompt[request] + self.generated[request]
            begun.append(request)
        if begun:
            self.rules.start(begun)
        if prefilling and left - fresh > 0:
            prefilling[0][1] -= left - fresh
            fresh = left
        decoders = len(self.running) - len(prefilling) - ready
        if self.chunk:
            read = self.base_of[decoders + fresh] + self.per_token * read_tokens
            return max(read, self.flop * (decoders + fresh)), fresh
        first = self.flop * fresh
        if decoders:
            read = self.base_of[decoders] + self.per_token * read_tokens
            first += max(read, self.flop * decoders)
        return first, fresh

    def step(self) -> None:
        """One run of steps with an unchanging set of seats."""
        first, _ = self.first_step()
        steps_done, runs = self.steps_done, self.runs
        finishing, finish_step_of = self.finishing, self.finish_step_of
        while finishing and finish_step_of[finishing[0][1]] != finishing[0][0]:
            heapq.heappop(finishing)  # a stay that ended in preemption
        writers = len(self.running) - len(self.prefilling)
        steps = finishing[0][0] - steps_done if finishing else math.inf
        chunk = 0
        if self.prefilling:
            left = self.chunk - writers
            if left > 0:
                # Later steps give the first prompt in line the budget until the step that
                # finishes it, which starts the next run.
                chunk = left
                steps = min(steps, -(-self.prefilling[0][1] // left))
            steps = max(steps, 1)
        # Step j >= 1 reads the weights and held + writers * j cached tokens.
        alpha = self.base_of[writers + chunk] + self.per_token * self.held
        beta, gamma = self.per_token * writers, self.flop * (writers + chunk)
        knee = knee_of(alpha, beta, gamma)
        tail = tail_s(steps - 1, alpha, beta, gamma, knee) if steps != math.inf else math.inf

        # Continuous batching admits at the first step boundary after a request can start.
        head = self.head
        if (
            not self.static
            and len(self.running) < self.batch
            and not self.requeued
            and head < self.n
            and self.arrival[head] > self.t
        ):
            wait = self.arrival[head] - self.t
            if steps == math.inf or first + tail >= wait:
                steps, tail = first_reaching(wait, steps, first, alpha, beta, gamma, knee)
        steps = int(steps)
        # Paged blocks as the seats grow; stop before the step memory cannot hold.
        if self.paged:
            room, rotation = self.capacity - self.blocks, (steps_done + 1) % self.block
            cut, gained = paged_cut(steps, writers, self.phases, rotation, room, self.block)
            if cut != steps:
                steps, tail = cut, tail_s(cut - 1, alpha, beta, gamma, knee)
            runs.blocks.append(self.blocks)
            runs.phases.extend(self.phases)
            self.blocks += gained
        alloc = self.wave_alloc if self.static else self.reserved
        runs.values.extend(
            (self.t, steps, first, alpha, beta, gamma, self.held, writers, len(self.running), alloc)
        )

        self.t += first + tail
        self.held += writers * steps
        if chunk and steps > 1:
            self.prefilling[0][1] -= chunk * (steps - 1)
        self.steps_done = steps_done = steps_done + steps
        if finishing and finishing[0][0] == steps_done:  # a run may end at a prompt's last chunk
            self.rules.finish()

    def trace(self) -> dict:
        """What the node did: its stays, every step's end, and the run integrals."""
        rebuilt = rebuild_steps(self.runs, self.paged, self.block)
        stays = self.stays.columns()
        return {
            **rebuilt,
            **stays,
            "admit_s": np.asarray(self.admit_s),
            "peak_seats": max(self.runs.values[8 :: len(Runs.FIELDS)], default=0),
            "stalls": self.stalls,
        }
