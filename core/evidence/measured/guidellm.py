"""Reader for GuideLLM's report (``benchmarks.json``): one run per benchmark of its sweep.

The report holds ``args`` (the command's arguments, the model among them) and ``benchmarks``;
each benchmark has its scheduling strategy (``config.strategy``, or ``args.strategy`` in
reports before 0.3), ``metrics`` whose every entry splits by request status into
distribution summaries (``successful.mean``, ``.median``, ``.percentiles.p99``), and, unless
sampled away, each request (``requests.successful``).
"""

from __future__ import annotations

from core.evidence.measured.record import BenchmarkRun, Stat, bad_file, checked

GUIDELLM = "GuideLLM"
# GuideLLM's metric -> (this lab's key, factor to SI units)
_METRICS = {
    "time_to_first_token_ms": ("ttft_s", 1e-3),
    "inter_token_latency_ms": ("itl_s", 1e-3),
    "time_per_output_token_ms": ("tpot_s", 1e-3),
    "request_latency": ("e2e_s", 1.0),
    "requests_per_second": ("requests_per_s", 1.0),
}


def is_guidellm(data) -> bool:
    """Whether a JSON object is a GuideLLM report."""
    if not isinstance(data, dict) or not isinstance(data.get("benchmarks"), list):
        return False
    first = data["benchmarks"][0] if data["benchmarks"] else {}
    return isinstance(first, dict) and ("metrics" in first or "type_" in first)


def _summary(file: str, metrics: dict, name: str) -> Stat:
    entry = metrics.get(name)
    if entry is None:
        return Stat()
    if not isinstance(entry, dict):
        raise bad_file(file, f"metrics.{name} is not a distribution summary")
    good = entry.get("successful", entry)
    if not isinstance(good, dict):
        return Stat()
    percentiles = good.get("percentiles") if isinstance(good.get("percentiles"), dict) else {}
    return Stat(good.get("mean"), good.get("median"), percentiles.get("p99"))


def _load(strategy: dict) -> tuple[float | None, float | None]:
    """(concurrency, request rate) of a GuideLLM scheduling strategy."""
    kind = str(strategy.get("type_", ""))
    if kind == "synchronous":
        return 1.0, None
    if kind == "concurrent":
        return _float(strategy.get("streams")), None
    if kind == "throughput":
        return _float(strategy.get("max_concurrency")), float("inf")
    if kind in ("constant", "poisson", "async"):
        return _float(strategy.get("max_concurrency")), _float(strategy.get("rate"))
    return None, None


def _float(value):
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _model(report: dict, benchmark: dict) -> str:
    config = benchmark.get("config") if isinstance(benchmark.get("config"), dict) else {}
    for holder in (report.get("args"), config.get("backend"), benchmark.get("worker"),
                   config.get("requests")):  # fmt: skip
        if isinstance(holder, dict):
            for key in ("model", "backend_model"):
                if isinstance(holder.get(key), str) and holder[key]:
                    return holder[key]
    return ""


def _strategy(benchmark: dict) -> dict:
    for holder in (benchmark.get("config"), benchmark.get("args")):
        if isinstance(holder, dict) and isinstance(holder.get("strategy"), dict):
            return holder["strategy"]
    return {}


def read_guidellm(file: str, report: dict) -> list[BenchmarkRun]:
    """Every benchmark of a GuideLLM report as a run."""
    runs = []
    for index, benchmark in enumerate(report["benchmarks"]):
        label = file if index == 0 else f"{file} (benchmark {index + 1})"
        metrics = benchmark.get("metrics") if isinstance(benchmark, dict) else None
        if not isinstance(metrics, dict):
            raise bad_file(label, "missing field: metrics")
        found = {key: _summary(label, metrics, name).scaled(factor)
                 for name, (key, factor) in _METRICS.items()}  # fmt: skip
        rate = _summary(label, metrics, "output_tokens_per_second")
        found["output_tokens_per_s"] = Stat(mean=rate.mean)
        concurrency, request_rate = _load(_strategy(benchmark))
        requests = benchmark.get("requests") if isinstance(benchmark.get("requests"), dict) else {}
        successful = requests.get("successful") if isinstance(requests, dict) else None
        totals = metrics.get("request_totals") or benchmark.get("request_totals") or {}
        count = totals.get("successful") if isinstance(totals, dict) else None
        runs.append(
            checked(
                BenchmarkRun(
                    file=file,
                    tool=GUIDELLM,
                    run=index,
                    engine="",
                    model=_model(report, benchmark),
                    prompt_tokens=_summary(label, metrics, "prompt_token_count"),
                    answer_tokens=_summary(label, metrics, "output_token_count"),
                    concurrency=concurrency,
                    request_rate=request_rate,
                    requests=int(count or (len(successful) if isinstance(successful, list) else 0)),
                    per_request=isinstance(successful, list) and bool(successful),
                    metrics={key: stat for key, stat in found.items() if stat.given},
                )
            )
        )
    if not runs:
        raise bad_file(file, "a GuideLLM report with no benchmarks in it")
    return runs
