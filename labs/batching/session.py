"""The batching lab's engine runs for one session: computed once per knob state, kept a while.

One knob change reruns four small engines on the same arrivals (static and continuous, each
with reserved and paged KV), so switching policy or layout costs nothing; the batch-size sweep
is cached per knob state, run only once something shows it, and reruns only when the workload
or the layout changes. Each run serves its stream only as far as core's token budget goes, so
no change holds the session long (``core.simulator.batching.CHANGE_WORK``).
"""

from __future__ import annotations

from collections import OrderedDict

from core.simulator.batching import Stream, run_simulations, run_sweep
from labs.batching.view import NODE_KNOBS, WORKLOAD_KNOBS

CACHE_SIZE = 8


def _remember(cache: OrderedDict, key, compute):
    """``cache[key]``, computed on a miss; the least recently used entry goes past CACHE_SIZE."""
    if key in cache:
        cache.move_to_end(key)
        return cache[key]
    value = compute()
    cache[key] = value
    if len(cache) > CACHE_SIZE:
        cache.popitem(last=False)
    return value


class EngineRuns:
    """The runs and sweep of one lab's knobs, and why they failed when they did.

    ``runs`` maps ``(policy, kv_layout)`` to an engine result; ``sweep`` maps a policy to
    its runs at every batch size of the sweep, run when first read; both are None and
    ``error`` says why when the node cannot run the workload.
    """

    def __init__(self, lab):
        self.lab = lab
        self.runs_cache: OrderedDict = OrderedDict()
        self.sweep_cache: OrderedDict = OrderedDict()
        self.runs: dict | None = None
        self.error = ""

    @property
    def sweep(self) -> dict | None:
        """Both policies at every batch size, for the current knobs (None while they cannot
        run). Run on first reading: a session that never opens the sweep never pays for it."""
        return None if self.runs is None else self.compute_sweep()

    def stream(self) -> Stream:
        """The requests the lab's knobs describe."""
        lab = self.lab
        return Stream(
            arrival=lab.arrival,
            rate_per_s=lab.arrival_rate,
            prompt_tokens=lab.prompt_tokens,
            answer=lab.answer,
            answer_mean=lab.answer_mean,
            answer_cap=lab.answer_cap,
            seed=lab.seed,
        )

    def _workload_key(self) -> tuple:
        knobs = self.lab.scenario.knobs()
        return (
            *(knobs[name] for name in NODE_KNOBS),
            *(getattr(self.lab, name) for name in WORKLOAD_KNOBS if name != "batch_size"),
        )

    def compute_runs(self) -> dict:
        """The four engines (static / continuous x reserved / paged) on the same arrivals."""
        lab = self.lab
        key = (*self._workload_key(), lab.batch_size)
        return _remember(
            self.runs_cache,
            key,
            lambda: run_simulations(
                lab.scenario, self.stream(), lab.requests, lab.batch_size, lab.wait_cap_s
            ),
        )

    def compute_sweep(self) -> dict:
        """Both policies at every batch size of the sweep, on the current layout."""
        lab = self.lab
        key = (*self._workload_key(), lab.kv_layout)
        return _remember(
            self.sweep_cache,
            key,
            lambda: run_sweep(
                lab.scenario, self.stream(), lab.requests, lab.kv_layout, lab.wait_cap_s
            ),
        )

    def rerun(self) -> None:
        """Run (or recall) the engines for the lab's knobs."""
        try:
            runs = self.compute_runs()
        except ValueError as error:
            self.runs = None
            self.error = str(error)
            return
        self.runs, self.error = runs, ""
