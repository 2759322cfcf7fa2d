"""Readers for the two serving benchmarks that share one result shape: vLLM's and SGLang's.

``vllm bench serve --save-result`` writes one JSON object per run; SGLang's ``bench_serving``
appends one per run to a JSONL file. Both name their summary figures ``{mean,median,p99}_
{ttft,tpot,itl}_ms``; with ``--save-detailed`` (vLLM) or ``--output-details`` (SGLang) they
also keep each request's lengths and times (``input_lens``, ``output_lens``, ``ttfts``,
``itls``, in seconds). vLLM calls request latency ``e2el``, SGLang ``e2e_latency``.
"""

from __future__ import annotations

from core.evidence.measured.record import BenchmarkRun, Stat, bad_file, checked, figure, stat_of

VLLM = "vLLM bench serve"
SGLANG = "SGLang bench_serving"


def is_sglang(data: dict) -> bool:
    """Whether a result object is SGLang's (its own field names) rather than vLLM's."""
    return any(key in data for key in ("total_output_tokens_retokenized", "mean_e2e_latency_ms",
                                       "median_e2e_latency_ms", "input_throughput"))  # fmt: skip


def is_vllm(data: dict) -> bool:
    """Whether a result object is vLLM's ``--save-result`` JSON."""
    return ("mean_e2el_ms" in data or "model_id" in data) and (
        "mean_ttft_ms" in data or "output_throughput" in data
    )


def _ms(file: str, data: dict, name: str) -> Stat:
    """``{mean,median,p99}_{name}_ms`` in seconds (each None where absent)."""
    keys = [f"{statistic}_{name}_ms" for statistic in ("mean", "median", "p99")]
    return Stat(*(figure(file, key, data.get(key)) for key in keys)).scaled(1e-3)


def _number(file: str, data: dict, key: str):
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, str) and value.strip().lower() in ("inf", "infinity"):
        return float("inf")
    return figure(file, key, value)


def _lengths(file: str, data: dict, per_request: str, total: str, count: float | None) -> Stat:
    """A length's summary from each request's values, else the run's total over its requests."""
    values = data.get(per_request)
    if isinstance(values, list) and values:
        if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
            raise bad_file(file, f"{per_request} holds something that is not a token count")
        return stat_of(values)
    summed = _number(file, data, total)
    if summed is None or not count:
        return Stat()
    return Stat(mean=summed / count)


def _per_request_times(data: dict) -> tuple[Stat, Stat] | None:
    """TTFT and ITL summaries from each request's times, where the file keeps them."""
    ttfts, itls = data.get("ttfts"), data.get("itls")
    if not isinstance(ttfts, list) or not ttfts:
        return None
    gaps = [gap for row in itls or [] if isinstance(row, list) for gap in row]
    return stat_of(v for v in ttfts if v and v > 0), stat_of(gaps)


def read_openai_run(
    file: str, data: dict, run: int = 0, sglang: bool | None = None
) -> BenchmarkRun:
    """One run of either tool, from its result object."""
    sglang = is_sglang(data) if sglang is None else sglang
    completed = _number(file, data, "completed")
    if completed is not None and completed <= 0:
        raise bad_file(file, "no request completed in this run")
    metrics = {
        "ttft_s": _ms(file, data, "ttft"),
        "tpot_s": _ms(file, data, "tpot"),
        "itl_s": _ms(file, data, "itl"),
        "e2e_s": _ms(file, data, "e2e_latency" if sglang else "e2el"),
        "output_tokens_per_s": Stat(mean=_number(file, data, "output_throughput")),
        "requests_per_s": Stat(mean=_number(file, data, "request_throughput")),
    }
    detailed = _per_request_times(data)
    if detailed is not None:  # the summary wins where the file gives both
        for key, stat in zip(("ttft_s", "itl_s"), detailed, strict=True):
            if not metrics[key].given:
                metrics[key] = stat
    model = data.get("model_id") or data.get("model") or data.get("tokenizer_id") or ""
    rate = _number(file, data, "request_rate")
    return checked(
        BenchmarkRun(
            file=file,
            tool=SGLANG if sglang else VLLM,
            run=run,
            engine=str(data.get("backend") or ("sglang" if sglang else "")),
            model=str(model),
            prompt_tokens=_lengths(file, data, "input_lens", "total_input_tokens", completed),
            answer_tokens=_lengths(file, data, "output_lens", "total_output_tokens", completed),
            concurrency=_number(file, data, "max_concurrency"),
            request_rate=rate,
            requests=int(completed or 0),
            per_request=detailed is not None or isinstance(data.get("input_lens"), list),
            metrics={key: stat for key, stat in metrics.items() if stat.given},
        )
    )
