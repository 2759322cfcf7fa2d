"""The step simulator of an inference engine: requests arrive, a scheduler batches them, tokens come out.

The simplified serving engine an interview asks for (request batching, per-batch inference,
token-level result collection), simulated step by step on the capacity model's timing, and
what came after continuous batching: chunked prefill and prefill/decode disaggregation.

- **Requests** (:mod:`core.simulator.requests`) arrive as a seeded Poisson stream, or all at
  once for an offline batch, each with a prompt and an answer length drawn from a chosen
  distribution; a mixed stream gives one request in ``k`` a long prompt.
- **Schedulers** (:mod:`core.simulator.scheduler`). *Static* fills a wave up to ``B`` seats
  (or until the oldest request has waited ``wait_cap_s``, or memory is full) and runs it
  until its last request finishes; seats whose request is done sit idle until then.
  *Continuous* retires finished requests and admits waiting ones at every step.
- **KV layouts.** *Reserved* sets aside each request's prompt plus its largest possible
  answer on admission. *Paged* allocates 16-token blocks as tokens are written; when the
  blocks run out mid-run the most recently admitted request is preempted, its blocks freed,
  and it is re-admitted later by recomputing its prompt and the tokens it already wrote
  (vLLM's default recompute preemption). Either way admission stops when memory is out, not
  only at ``B``: that is the memory wall.
- **Steps.** Unchunked, a step prefills the newly admitted prompts whole and writes one
  token for every seat that was already running; its duration is the prefill time plus one
  decode step over the running seats (:class:`core.simulator.steps.StepCosts`). Chunked, a step holds
  at most ``chunk_tokens`` tokens: one per running seat, the rest from waiting prompts; it
  lasts the larger of its read and its arithmetic, so a long prompt slows each step a
  little instead of stopping every stream for its whole prefill.
- **Disaggregated** (:mod:`core.simulator.disaggregated`): prefill nodes write the first token
  and ship the cache over NVLink or InfiniBand to decode nodes, which only decode.

Two modelling choices, both in static batching's favour: a finished request's seat in a
static wave costs no reads and no arithmetic while it waits, and a wave's prompts are
prefilled together in one step. With every answer the same length static batching keeps pace
with continuous batching; the gap comes from answer variance.

Speed: between two events the running set does not change, and its cache grows by one token
per seat per step, so the steps of such a run are an arithmetic series priced in one
vectorised call (:mod:`core.simulator.runs`). Per-token times stay exact. Continuous batching
with whole prefills, every replay's mode, runs in one tight loop under the scheduler's rules
(:mod:`core.simulator.continuous`); a replay reads each request's first and last token only.
"""

from core.simulator.disaggregated import LINKS, transfer_seconds
from core.simulator.requests import (
    ANSWER_SHAPES,
    ARRIVALS,
    DEFAULT_ANSWER_CAP,
    MAX_REQUESTS,
    UNCAPPED_CEILING,
    Requests,
    answer_ceiling,
    draw_requests,
)
from core.simulator.result import SimulationResult
from core.simulator.simulate import (
    DEFAULT_WAIT_CAP_S,
    KV_LAYOUTS,
    MODES,
    POLICIES,
    simulate,
)

__all__ = [
    "ANSWER_SHAPES",
    "ARRIVALS",
    "DEFAULT_ANSWER_CAP",
    "DEFAULT_WAIT_CAP_S",
    "KV_LAYOUTS",
    "LINKS",
    "MAX_REQUESTS",
    "MODES",
    "POLICIES",
    "UNCAPPED_CEILING",
    "Requests",
    "SimulationResult",
    "answer_ceiling",
    "draw_requests",
    "simulate",
    "transfer_seconds",
]
