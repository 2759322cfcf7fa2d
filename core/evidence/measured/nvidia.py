"""Readers for NVIDIA's AIPerf and GenAI-Perf profile exports, JSON and CSV.

The JSON export (``profile_export_aiperf.json``, ``profile_export_genai_perf.json``) holds
one entry per metric with its ``unit`` and statistics (``avg``, ``p50``, ``p99`` ...), under
``records`` in AIPerf's newer files and at the top level otherwise, beside ``input_config``
(the model and the load). The CSV export has a table of metrics with statistics
(``Metric,avg,min,max,p1 ... p99``) then, after a blank line, one of single values
(``Metric,Value``); it names neither the model nor the load.
"""

from __future__ import annotations

import csv
import io
import re

from core.evidence.measured.record import BenchmarkRun, Stat, bad_file, checked

AIPERF = "AIPerf"
GENAI_PERF = "GenAI-Perf"
_UNITS = {"ms": 1e-3, "s": 1.0, "sec": 1.0, "seconds": 1.0, "ns": 1e-9, "us": 1e-6}
# The tools' metric names (JSON tags, or CSV headers folded to lower case) -> this lab's key
_NAMES = {
    "ttft": "ttft_s",
    "time_to_first_token": "ttft_s",
    "inter_token_latency": "itl_s",
    "request_latency": "e2e_s",
    "output_token_throughput": "output_tokens_per_s",
    "request_throughput": "requests_per_s",
    "input_sequence_length": "prompt_tokens",
    "output_sequence_length": "answer_tokens",
}


def is_nvidia_json(data) -> bool:
    """Whether a JSON object is an AIPerf or GenAI-Perf profile export."""
    if not isinstance(data, dict):
        return False
    metrics = data.get("records") if isinstance(data.get("records"), dict) else data
    entry = metrics.get("time_to_first_token") or metrics.get("ttft") or metrics.get(
        "request_latency") or metrics.get("output_token_throughput")  # fmt: skip
    return isinstance(entry, dict) and "avg" in entry and "unit" in entry


def is_nvidia_csv(text: str) -> bool:
    """Whether a text is an AIPerf or GenAI-Perf CSV export."""
    return text.lstrip("\ufeff").startswith("Metric,")


def _factor(file: str, name: str, unit: str) -> float:
    unit = unit.strip().lower()
    if name in ("prompt_tokens", "answer_tokens", "output_tokens_per_s", "requests_per_s"):
        return 1.0
    if unit not in _UNITS:
        raise bad_file(file, f"{name} is in {unit!r}, a unit this lab does not read")
    return _UNITS[unit]


def _first(values) -> float | None:
    for value in values:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
    return None


def _load(config: dict) -> tuple[str, float | None, float | None]:
    """(model, concurrency, request rate) from an export's ``input_config``."""
    endpoint = config.get("endpoint") if isinstance(config.get("endpoint"), dict) else {}
    names = endpoint.get("model_names") or config.get("model") or config.get("model_names") or []
    model = (
        names[0] if isinstance(names, list) and names else names if isinstance(names, str) else ""
    )
    load = config.get("loadgen") if isinstance(config.get("loadgen"), dict) else config
    stimulus = (config.get("perf_analyzer") or {}).get("stimulus") if isinstance(
        config.get("perf_analyzer"), dict) else None  # fmt: skip
    if isinstance(stimulus, dict):
        load = {**load, **stimulus}
    return str(model), _first([load.get("concurrency")]), _first([load.get("request_rate")])


def read_nvidia_json(file: str, data: dict) -> BenchmarkRun:
    """One AIPerf or GenAI-Perf run from its JSON profile export."""
    aiperf = "records" in data or isinstance((data.get("input_config") or {}).get("endpoint"), dict)
    metrics = data["records"] if isinstance(data.get("records"), dict) else data
    found: dict[str, Stat] = {}
    for tag, key in _NAMES.items():
        entry = metrics.get(tag)
        if not isinstance(entry, dict) or key in found:
            continue
        factor = _factor(file, key, str(entry.get("unit", "")))
        stat = Stat(
            _first([entry.get("avg")]), _first([entry.get("p50")]), _first([entry.get("p99")])
        )
        found[key] = stat.scaled(factor)
    config = data.get("input_config") if isinstance(data.get("input_config"), dict) else {}
    model, concurrency, rate = _load(config)
    count = metrics.get("request_count")
    return checked(
        BenchmarkRun(
            file=file,
            tool=AIPERF if aiperf else GENAI_PERF,
            model=model,
            prompt_tokens=found.pop("prompt_tokens", Stat()),
            answer_tokens=found.pop("answer_tokens", Stat()),
            concurrency=concurrency,
            request_rate=rate,
            requests=int(_first([count.get("avg")]) or 0) if isinstance(count, dict) else 0,
            metrics={key: stat for key, stat in found.items() if stat.given},
        )
    )


def _header_key(header: str) -> tuple[str, str]:
    """A CSV row's metric name as this lab's key (or '') and its unit: ``Time to First Token
    (ms)`` is ``("ttft_s", "ms")``."""
    match = re.match(r"\s*(.*?)\s*(?:\(([^)]*)\))?\s*$", header)
    name, unit = (match.group(1), match.group(2) or "") if match else (header, "")
    tag = re.sub(r"[^a-z]+", "_", name.lower()).strip("_")
    return _NAMES.get(tag, ""), unit


def read_nvidia_csv(file: str, text: str) -> BenchmarkRun:
    """One AIPerf or GenAI-Perf run from its CSV profile export (no model, no load stated)."""
    found: dict[str, Stat] = {}
    columns: list[str] = []
    aiperf = "Benchmark Duration" in text or "Time to First Token" in text
    for row in csv.reader(io.StringIO(text.lstrip("\ufeff"))):
        if not row or not row[0].strip():
            continue
        if row[0].strip() == "Metric":
            columns = [cell.strip().lower() for cell in row]
            continue
        key, unit = _header_key(row[0])
        if not key or key in found:
            continue
        cells = dict(zip(columns, row, strict=False))
        try:
            values = [float(cells[name]) if cells.get(name, "").strip() else None
                      for name in ("avg", "p50", "p99")]  # fmt: skip
            if "value" in cells:
                values[0] = float(cells["value"])
        except ValueError as error:
            raise bad_file(file, f"{row[0]} has a value that is not a number") from error
        found[key] = Stat(*values).scaled(_factor(file, key, unit))
    if not columns:
        raise bad_file(
            file, "a CSV without the Metric header row of an AIPerf or GenAI-Perf export"
        )
    return checked(
        BenchmarkRun(
            file=file,
            tool=AIPERF if aiperf else GENAI_PERF,
            prompt_tokens=found.pop("prompt_tokens", Stat()),
            answer_tokens=found.pop("answer_tokens", Stat()),
            metrics={key: stat for key, stat in found.items() if stat.given},
        )
    )
