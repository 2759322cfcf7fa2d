"""Azure's public LLM inference traces (2023): one hour of two production services, loaded once.

The CSV files beside this module are unchanged copies from ``Azure/AzurePublicDataset``
(CC-BY 4.0; see this folder's README). :func:`load_trace` reads one into immutable numpy
arrays, once per process: every page reads the same arrays and none can change them.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import numpy as np

_FOLDER = Path(__file__).resolve().parent
TRACE_FILES = {
    "azure-conversation": "AzureLLMInferenceTrace_conv.csv",
    "azure-code": "AzureLLMInferenceTrace_code.csv",
}
TRACES = tuple(TRACE_FILES)
# Quantiles of the prompt lengths the closed form averages its goodput over.
LENGTH_GRID = 64


def _frozen(array: np.ndarray) -> np.ndarray:
    array.setflags(write=False)
    return array


@dataclass(frozen=True)
class Trace:
    """One service's hour: each request's arrival, prompt and answer, and the figures read off them.

    ``arrival_s`` counts seconds from the start of the calendar minute of the first arrival, so
    request ``i`` arrived in minute ``floor(arrival_s[i] / 60)`` of the hour and in second
    ``floor(arrival_s[i])``, as the trace's own clock bins them.
    """

    name: str
    arrival_s: np.ndarray
    prompt_tokens: np.ndarray
    answer_tokens: np.ndarray

    @property
    def requests(self) -> int:
        """How many requests the hour holds."""
        return len(self.arrival_s)

    @property
    def span_s(self) -> float:
        """Seconds from the first arrival to the last."""
        return float(self.arrival_s[-1] - self.arrival_s[0])

    @property
    def mean_per_min(self) -> float:
        """Requests over the span, per minute."""
        return self.requests / self.span_s * 60.0

    @functools.cached_property
    def per_minute(self) -> np.ndarray:
        """Arrivals in each calendar minute of the hour, quiet minutes included."""
        return _frozen(np.bincount((self.arrival_s // 60.0).astype(np.int64)))

    @property
    def peak_minute(self) -> int:
        """The most arrivals in one calendar minute."""
        return int(self.per_minute.max())

    @property
    def peak_minute_index(self) -> int:
        """Which minute of the hour (from 0) holds the peak."""
        return int(self.per_minute.argmax())

    @functools.cached_property
    def peak_second(self) -> int:
        """The most arrivals in one calendar second."""
        return int(np.bincount(self.arrival_s.astype(np.int64)).max())

    def percentile(self, which: str, q: float) -> float:
        """The ``q``-th percentile (0-100) of ``which`` ("prompt" or "answer") tokens.

        Notes
        -----
        The order statistic at or below rank :math:`q (n - 1) / 100` of the sorted lengths
        (numpy's ``"lower"`` method): always a length some request had.
        """
        lengths = self.prompt_tokens if which == "prompt" else self.answer_tokens
        return float(np.percentile(lengths, q, method="lower"))

    @functools.cached_property
    def moments(self) -> dict:
        """Means, variances and covariance of the prompt (P) and answer (A) lengths."""
        p = self.prompt_tokens.astype(float)
        a = self.answer_tokens.astype(float)
        return {
            "prompt_mean": float(p.mean()),
            "answer_mean": float(a.mean()),
            "prompt_var": float(p.var()),
            "answer_var": float(a.var()),
            "covariance": float(np.mean((p - p.mean()) * (a - a.mean()))),
        }

    @functools.cached_property
    def gap_cv(self) -> float:
        """Coefficient of variation of the gaps between consecutive arrivals (1 for Poisson)."""
        gaps = np.diff(self.arrival_s)
        return float(gaps.std() / gaps.mean())

    @functools.cached_property
    def prompt_grid(self) -> np.ndarray:
        """:data:`LENGTH_GRID` evenly spaced quantiles of the prompt lengths (mid-points)."""
        q = (np.arange(LENGTH_GRID) + 0.5) / LENGTH_GRID
        return _frozen(np.quantile(self.prompt_tokens.astype(float), q))


@functools.cache
def load_trace(name: str) -> Trace:
    """The trace ``name`` (one of :data:`TRACES`), read once per process.

    Raises
    ------
    ValueError
        Naming the trace and the known ones.
    """
    if name not in TRACE_FILES:
        raise ValueError(f"traffic={name!r} is not a trace: one of {', '.join(TRACES)}")
    raw = np.loadtxt(_FOLDER / TRACE_FILES[name], delimiter=",", skiprows=1, dtype=str)
    stamps = raw[:, 0].astype("datetime64[ns]")
    stamps = np.sort(stamps)
    start = stamps[0].astype("datetime64[m]").astype("datetime64[ns]")
    arrival_s = (stamps - start).astype(np.int64) / 1e9
    return Trace(
        name=name,
        arrival_s=_frozen(arrival_s),
        prompt_tokens=_frozen(raw[:, 1].astype(np.int64)),
        answer_tokens=_frozen(np.maximum(raw[:, 2].astype(np.int64), 1)),
    )
