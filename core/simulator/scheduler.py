"""The scheduler of one engine node: admit, leave, preempt and step, one event at a time."""

from __future__ import annotations

import bisect
import heapq
import math

import numpy as np

from core.simulator.continuous import serve_continuous
from core.simulator.requests import Requests
from core.simulator.runs import (
    Runs,
    Stays,
    first_reaching,
    knee_of,
    paged_cut,
    rebuild_steps,
    step_ends,
    tail_s,
    token_bounds,
)
from core.simulator.steps import StepCosts


class Scheduler:
    """One node serving a stream of requests, one run of steps at a time.

    Running seats all advance one token per step, so the scheduler keeps only aggregates of
    them: ``held`` (their cached tokens), a heap of the global step at which each writes its
    last token and, for the paged layout, ``blocks`` (their blocks) and ``phases`` (how many
    of them need a fresh block at a global step of each residue mod the block size: a seat
    holding :math:`T` tokens before global step :math:`g` needs one when
    :math:`T \\equiv 0 \\pmod{b}`, a residue of :math:`g` fixed for its whole stay). A run
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
    step through these methods.
    """

    # Slots: the loops read these on every run, and 41 attributes are too many for an
    # instance dict's fast shared-key lookups (CPython 3.11 shares at most 30 keys).
    __slots__ = (
        "admit_s", "answer", "arrival", "base_of", "batch", "block", "blocks", "cached",
        "capacity", "chunk", "done", "finish_step_of", "finishing", "first_step_of", "flop",
        "free_seats", "generated", "head", "held", "n", "paged", "per_token", "phase_of",
        "phases", "prefilling", "prompt", "requeued", "reserve", "reserved", "running", "runs",
        "seat_of", "stalls", "start_of", "static", "stays", "steps_done", "t", "wait_cap", "wave",
        "wave_alloc",
    )  # fmt: skip

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
        n = len(req)
        self.n, self.batch, self.wait_cap, self.chunk = n, batch, wait_cap, chunk_tokens
        self.arrival = req.arrival_s.tolist()
        self.prompt = req.prompt_tokens.tolist()
        self.answer = req.answer_tokens.tolist()
        self.reserve = (req.prompt_tokens + req.max_answer_tokens).tolist()
        self.block = costs.block_tokens
        self.paged = layout == "paged"
        self.static = policy == "static"
        self.capacity = costs.kv_budget_blocks if self.paged else costs.kv_budget_tokens
        _, self.per_token, self.flop = costs.decode_terms(1)
        # The weight read of a step with t tokens in it: a mixture of experts reads only the
        # experts those tokens touch (core.whiteboard.experts), a dense model all of its weights every time.
        top = max(batch, chunk_tokens) + 1
        self.base_of = np.broadcast_to(costs.read_s(0.0, np.arange(top)), (top,)).tolist()
        self.cached = [prefilled] * n  # the request's cache is already in this node's memory
        self.generated = [0] * n  # tokens written before the request's current stay began
        self.admit_s = [math.nan] * n
        self.seat_of = [0] * n
        self.start_of = [0.0] * n
        self.first_step_of = [0] * n
        self.finish_step_of = [-1] * n  # -1 while the request is not writing
        self.phase_of = [0] * n
        self.runs, self.stays = Runs(), Stays()
        self.requeued: list[tuple[float, int]] = []  # preempted requests, in arrival order
        self.head = 0  # next fresh request (in arrival order) not yet admitted
        self.running: dict[int, None] = {}  # seat holders in admission order, oldest first
        self.prefilling: list[list[int]] = []  # [request, prompt tokens left], admission order
        self.finishing: list[tuple[int, int]] = []  # (global step after the last token, request)
        self.free_seats = list(range(batch))
        self.held = 0  # tokens the writing seats hold
        self.blocks = 0  # blocks the running seats hold (paged)
        self.reserved = 0  # tokens the running seats reserve (reserved)
        self.phases = [0] * self.block
        self.wave = -1
        self.wave_alloc = 0.0  # static + reserved: the wave's reservations, held until it ends
        self.t = 0.0
        self.done = 0
        self.steps_done = 0
        self.stalls = 0  # boundaries at which memory, not the seats, refused a waiting request

    # -- the queue ---------------------------------------------------------------------------
    def queued(self, limit: int) -> list[int]:
        """Up to ``limit`` waiting requests, highest priority first."""
        out = [request for _, request in self.requeued[:limit]]
        if len(out) < limit:
            arrived = bisect.bisect_right(self.arrival, self.t, lo=self.head)
            out.extend(range(self.head, min(arrived, self.head + limit - len(out))))
        return out

    def plan(self, room: int) -> tuple[list[int], bool]:
        """The waiting requests seats and memory admit now, and whether memory stopped them."""
        chosen: list[int] = []
        prompt, generated, block, reserve = self.prompt, self.generated, self.block, self.reserve
        for request in self.queued(self.batch - len(self.running)):
            tokens = prompt[request] + generated[request]
            cost = -(-(tokens + 1) // block) if self.paged else reserve[request]
            if cost > room:
                return chosen, True
            room -= cost
            chosen.append(request)
        return chosen, False

    # -- seats -------------------------------------------------------------------------------
    def admit(self, chosen: list[int]) -> None:
        """Give each chosen request a seat and its memory; its prompt waits to be prefilled."""
        for request in chosen:
            if self.requeued and self.requeued[0][1] == request:
                self.requeued.pop(0)
            else:
                self.head += 1
            tokens = self.prompt[request] + self.generated[request]
            if self.paged:
                self.blocks += -(-tokens // self.block)
            else:
                self.reserved += self.reserve[request]
            self.seat_of[request] = (
                len(self.running) if self.static else heapq.heappop(self.free_seats)
            )
            self.start_of[request] = self.t
            if math.isnan(self.admit_s[request]):
                self.admit_s[request] = self.t
            self.running[request] = None
            self.prefilling.append([request, 0 if self.cached[request] else tokens])

    def begin(self, request: int) -> None:
        """The request's prompt is in the cache: it writes a token from this step on."""
        tokens = self.prompt[request] + self.generated[request]
        self.held += tokens
        if self.paged:
            self.phase_of[request] = (self.steps_done + 1 - tokens) % self.block
            self.phases[self.phase_of[request]] += 1
        self.cached[request] = True
        self.first_step_of[request] = self.steps_done
        finish = self.steps_done + self.answer[request] - self.generated[request]
        self.finish_step_of[request] = finish
        heapq.heappush(self.finishing, (finish, request))

    def leave(self, request: int, preempted: bool) -> None:
        """The request gives its seat and memory back: finished, or preempted."""
        generated = self.generated
        tokens = self.prompt[request] + generated[request]
        written = 0
        steps_done = self.steps_done
        if self.finish_step_of[request] >= 0:
            written = steps_done - self.first_step_of[request]
            tokens += written
            self.held -= tokens
            if self.paged:
                self.phases[self.phase_of[request]] -= 1
        else:
            self.first_step_of[request] = steps_done
            self.prefilling = [entry for entry in self.prefilling if entry[0] != request]
        if self.paged:
            self.blocks -= -(-tokens // self.block)
        else:
            self.reserved -= self.reserve[request]
        seat = self.seat_of[request]
        self.stays.values.extend(
            (request, seat, self.start_of[request], self.t, self.first_step_of[request], written,
             preempted, self.wave if self.static else -1)
        )  # fmt: skip
        generated[request] += written
        self.finish_step_of[request] = -1
        del self.running[request]
        if not self.static:
            heapq.heappush(self.free_seats, seat)

    def preempt(self) -> None:
        """Paged memory runs out as the seats grow: preempt the newest until the next step fits.

        The preempted request loses its cache (vLLM's recompute preemption) and waits again
        in arrival order.
        """
        while (
            self.running
            and self.blocks + self.phases[(self.steps_done + 1) % self.block] > self.capacity
        ):
            victim = next(reversed(self.running))
            self.leave(victim, True)
            self.cached[victim] = False
            bisect.insort(self.requeued, (self.arrival[victim], victim))

    # -- the loop ----------------------------------------------------------------------------
    def run(self) -> dict:
        """Serve every request; return the node's trace (see :meth:`trace`)."""
        return self.serve().trace()

    def serve(self) -> Scheduler:
        """Serve every request, run by run; then read :meth:`trace` or :meth:`token_bounds`."""
        if not self.static and not self.chunk:
            serve_continuous(self)
            return self
        while self.done < self.n:
            if self.paged:
                self.preempt()
            if not self.admission():
                continue
            self.step()
        return self

    def token_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Each served request's first and last token's time, without every token's."""
        return token_bounds(step_ends(self.runs), self.stays.columns(), self.n)

    def admission(self) -> bool:
        """Admit what may start now; False when the clock jumped instead (nothing to run)."""
        arrival, head = self.arrival, self.head
        if self.static:
            if self.running:
                return True
            if not self.requeued and arrival[head] > self.t:
                self.t = arrival[head]
                return False
            chosen, full = self.plan(self.capacity)
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
            need = (
                self.blocks + self.phases[(self.steps_done + 1) % self.block]
                if self.paged
                else self.reserved
            )
            chosen, blocked = self.plan(self.capacity - need)
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
        while prefilling and prefilling[0][1] <= left - fresh:
            request, tokens = prefilling.pop(0)
            if tokens:
                fresh += tokens
                ready += 1
            else:
                read_tokens += self.prompt[request] + self.generated[request]
            self.begin(request)
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
        while finishing and finishing[0][0] == steps_done:
            _, request = heapq.heappop(finishing)
            if finish_step_of[request] == steps_done:
                self.leave(request, False)
                self.done += 1

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
