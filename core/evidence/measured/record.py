"""What every benchmark reader returns: one run's set-up and its measured figures, in seconds.

A results file of ``vllm bench serve``, SGLang's ``bench_serving``, GuideLLM, AIPerf or
GenAI-Perf becomes one :class:`BenchmarkRun` per run it holds (a sweep holds several). Figures
are kept with their statistic (mean, median, p99) in SI units: seconds, tokens, tokens per
second. :func:`checked` refuses values no benchmark can have, naming the file and the field.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

# The figures a run can state, by key, and what each is in words.
METRICS = {
    "ttft_s": "time to first token",
    "itl_s": "time between tokens",
    "tpot_s": "time per output token after the first",
    "e2e_s": "request latency",
    "output_tokens_per_s": "output token throughput",
    "requests_per_s": "request throughput",
}
# Plausible ranges: a value outside one is a broken file, not a slow engine.
LIMITS = {
    "ttft_s": (0.0, 86_400.0),
    "itl_s": (0.0, 3_600.0),
    "tpot_s": (0.0, 3_600.0),
    "e2e_s": (0.0, 86_400.0),
    "output_tokens_per_s": (0.0, 1e8),
    "requests_per_s": (0.0, 1e6),
    "prompt_tokens": (0.0, 4_000_000.0),
    "answer_tokens": (0.0, 1_000_000.0),
    "concurrency": (0.0, 1_000_000.0),
    "request_rate": (0.0, 1_000_000.0),
}
STATISTICS = ("mean", "median", "p99")


@dataclass(frozen=True)
class Stat:
    """One quantity's summary over a run's requests; None where the file does not give it."""

    mean: float | None = None
    median: float | None = None
    p99: float | None = None

    @property
    def given(self) -> bool:
        return any(value is not None for value in (self.mean, self.median, self.p99))

    @property
    def uniform(self) -> bool:
        """Whether every request had the one value: mean, median and 99th percentile all given
        (the file lists each request's) and equal."""
        return self.mean is not None and self.mean == self.median == self.p99

    def pick(self, order: tuple[str, ...] = ("median", "mean")) -> tuple[float, str] | None:
        """The first statistic of ``order`` the file gives, with its name."""
        for name in order:
            value = getattr(self, name)
            if value is not None:
                return value, name
        return None

    def scaled(self, factor: float) -> Stat:
        """The same summary in another unit (milliseconds to seconds: ``factor=1e-3``)."""
        return Stat(
            *(None if v is None else v * factor for v in (self.mean, self.median, self.p99))
        )


def stat_of(values) -> Stat:
    """Mean, median and 99th percentile of per-request values (nearest rank), or an empty Stat."""
    data = sorted(float(v) for v in values if v is not None)
    if not data:
        return Stat()
    middle = len(data) // 2
    median = data[middle] if len(data) % 2 else (data[middle - 1] + data[middle]) / 2
    rank = max(0, math.ceil(0.99 * len(data)) - 1)
    return Stat(sum(data) / len(data), median, data[rank])


@dataclass(frozen=True)
class BenchmarkRun:
    """One benchmark run as its results file states it.

    Empty text and None mean the file does not say; the lab asks the student for what matters
    (the card) and shows what it guessed. ``request_rate`` is requests per second, ``inf``
    for every request sent at once; ``concurrency`` is the cap on requests in flight.
    """

    file: str
    tool: str  # the tool that wrote the file, in words ("vLLM bench serve", "AIPerf" ...)
    run: int = 0  # the run's place in its file
    engine: str = ""  # the server's backend as written ("vllm", "sglang", "openai" ...)
    model: str = ""  # the model's name as written ("meta-llama/Llama-3.1-8B-Instruct")
    card: str = ""
    weights: str = ""
    cache: str = ""
    prompt_tokens: Stat = field(default_factory=Stat)
    answer_tokens: Stat = field(default_factory=Stat)
    concurrency: float | None = None
    request_rate: float | None = None
    requests: int = 0
    per_request: bool = False  # the file holds each request's figures, not only a summary
    metrics: dict = field(default_factory=dict)  # METRICS key -> Stat

    @property
    def label(self) -> str:
        """The run by file and place, for the page."""
        return self.file if self.run == 0 else f"{self.file} #{self.run + 1}"

    @property
    def load_text(self) -> str:
        if self.concurrency:
            return f"{self.concurrency:g} at a time"
        if self.request_rate is None or math.isinf(self.request_rate):
            return "every request at once"
        return f"{self.request_rate:g} requests/s"

    def __hash__(self) -> int:  # metrics is a dict: hash the run by what names it
        return hash((self.file, self.tool, self.run, self.model))


def figure(file: str, key: str, value) -> float | None:
    """A figure as a float, None where absent; anything else refused naming file and field.

    Text, lists, booleans and integers past any float (a 4,000-digit number) are refused here,
    so no reader multiplies a string or overflows.
    """
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:39] + "\u2026"
        raise bad_file(file, f"{key} is {shown}, not a number")
    if isinstance(value, int) and abs(value) > 10**300:
        raise bad_file(file, f"{key} is a number too large for any benchmark")
    return float(value)


def bad_file(file: str, what: str) -> ValueError:
    """The ValueError every reader raises: the file's name, then what is wrong with it."""
    return ValueError(f"{file}: {what}")


def _check_value(file: str, name: str, value, limits) -> None:
    low, high = limits
    if value is None:
        return
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise bad_file(file, f"{name} is {value!r}, not a number")
    if name == "request_rate" and math.isinf(value) and value > 0:
        return
    if not math.isfinite(value) or value < low or value > high:
        raise bad_file(
            file, f"{name} = {value:g} is absurd (a benchmark gives {low:g} to {high:g})"
        )


def checked(run: BenchmarkRun) -> BenchmarkRun:
    """``run`` unchanged, once every figure lies in :data:`LIMITS`; ValueError naming it if not."""
    file = run.file if run.run == 0 else f"{run.file} (run {run.run + 1})"
    for key, stat in (("prompt_tokens", run.prompt_tokens), ("answer_tokens", run.answer_tokens),
                      *run.metrics.items()):  # fmt: skip
        for statistic in STATISTICS:
            _check_value(file, f"{statistic} {key}", getattr(stat, statistic), LIMITS[key])
    _check_value(file, "concurrency", run.concurrency, LIMITS["concurrency"])
    _check_value(file, "request_rate", run.request_rate, LIMITS["request_rate"])
    if not any(stat.given for stat in run.metrics.values()):
        raise bad_file(file, "no time to first token, time between tokens or throughput in it")
    if not run.answer_tokens.given or not run.prompt_tokens.given:
        missing = "input" if not run.prompt_tokens.given else "output"
        raise bad_file(file, f"missing field: the run's {missing} length (tokens per request)")
    if (run.answer_tokens.mean or run.answer_tokens.median or 0) < 1:
        raise bad_file(file, "its requests generated no tokens")
    return run
