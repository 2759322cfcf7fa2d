"""Reader for AIPerf's per-request records (``profile_export.jsonl``): one run from every line.

Each line is one request: ``metadata`` (its start, ``timestamp_ns`` or ``request_start_ns``)
and ``metrics``, each ``{"value": ..., "unit": ...}``; a failed request has an ``error`` and
is left out. The run's output throughput is its output tokens over the span from the first
request's start to the last one's end.
"""

from __future__ import annotations

from core.evidence.measured.nvidia import AIPERF
from core.evidence.measured.record import BenchmarkRun, Stat, bad_file, checked, stat_of

_TAGS = {"ttft": "ttft_s", "time_to_first_token": "ttft_s", "inter_token_latency": "itl_s",
         "request_latency": "e2e_s"}  # fmt: skip
_SECONDS = {"ms": 1e-3, "s": 1.0, "sec": 1.0, "ns": 1e-9, "us": 1e-6}


def is_aiperf_records(values: list) -> bool:
    """Whether parsed JSON lines are AIPerf's per-request records."""
    first = values[0] if values else None
    return (
        isinstance(first, dict) and isinstance(first.get("metadata"), dict) and "metrics" in first
    )


def _value(file: str, metric) -> float | None:
    if not isinstance(metric, dict) or not isinstance(metric.get("value"), int | float):
        return None
    unit = str(metric.get("unit", "")).lower()
    if unit in ("tokens", ""):
        return float(metric["value"])
    if unit not in _SECONDS:
        raise bad_file(file, f"a record's metric is in {unit!r}, a unit this lab does not read")
    return float(metric["value"]) * _SECONDS[unit]


def read_aiperf_records(file: str, values: list) -> BenchmarkRun:
    """The run AIPerf's per-request records describe (model and load are not in them)."""
    columns: dict[str, list[float]] = {key: [] for key in (*_TAGS.values(), "isl", "osl")}
    starts, ends = [], []
    for record in values:
        if (
            not isinstance(record, dict)
            or record.get("error")
            or not isinstance(record.get("metrics"), dict)
        ):
            continue
        metrics = record["metrics"]
        for tag, key in _TAGS.items():
            value = _value(file, metrics.get(tag))
            if value is not None and not (key == "ttft_s" and tag == "time_to_first_token"
                                          and "ttft" in metrics):  # fmt: skip
                columns[key].append(value)
        for tag, key in (("input_sequence_length", "isl"), ("output_sequence_length", "osl")):
            value = _value(file, metrics.get(tag))
            if value is not None:
                columns[key].append(value)
        meta = record["metadata"]
        start = meta.get("request_start_ns", meta.get("timestamp_ns"))
        latency = _value(file, metrics.get("request_latency"))
        if isinstance(start, int | float) and latency is not None:
            starts.append(start * 1e-9)
            ends.append(start * 1e-9 + latency)
    if not columns["osl"]:
        raise bad_file(file, "AIPerf records with no successful request in them")
    span = max(ends) - min(starts) if starts else 0.0
    throughput = Stat(mean=sum(columns["osl"]) / span) if span > 0 else Stat()
    metrics = {key: stat_of(columns[key]) for key in _TAGS.values() if columns[key]}
    metrics["output_tokens_per_s"] = throughput
    return checked(
        BenchmarkRun(
            file=file,
            tool=AIPERF,
            prompt_tokens=stat_of(columns["isl"]),
            answer_tokens=stat_of(columns["osl"]),
            requests=len(columns["osl"]),
            per_request=True,
            metrics={key: stat for key, stat in metrics.items() if stat.given},
        )
    )
