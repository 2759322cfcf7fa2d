"""The pool lab's headline: its four cards, the workload's facts and the other workload's checks."""

from __future__ import annotations

from html import escape

from core import BUDGET_USD_PER_MONTH, TTFT_SLO_S, WORKLOADS, Scenario
from core.catalog.traces import TRACES
from labs.page import format as fmt
from labs.page.badges import chips_html, verdicts
from labs.page.cards import Card, tone
from labs.page.qualifiers import FULL_LOAD, PEAK_MINUTE, cached
from labs.pool.hour import trace_workload_html


def _per_million(result) -> str:
    """The bill per million output tokens, at the rate the pool was sized for."""
    if result.answer_tokens == 0:
        return "no output tokens"
    return f"{fmt.token_price(result.usd_per_million_output_tokens)} per M output {PEAK_MINUTE}"


def headline_cards(result, base, workload: str, users: int | None = None) -> list[Card]:
    """The four cards for ``result``, each against ``base`` (its ``workload``'s defaults);
    ``users``: the closed loop's users where a benchmark drives the engine."""
    seats_delta = result.change_from(base, "seats_granted")
    ttft_delta = result.change_from(base, "ttft_p95_s")
    rate_delta = result.change_from(base, "decode_tokens_per_s")
    bill_delta = result.change_from(base, "monthly_usd")
    serves = result.seats_granted >= 1
    rate_value = fmt.rate(result.decode_tokens_per_s).removesuffix(" tok/s")
    # The base is this workload's defaults: the note names it when it is not the default's.
    vs = "vs defaults" if workload == Scenario.param.workload.default else f"vs {workload} defaults"
    if not serves:
        value, unit, ttft_note = fmt.first_token(0.0, seats=0), "", "no seat fits: no first token"
    elif result.queue_unbounded:
        value, unit, ttft_note = "unbounded", "", "the queue never drains"
    else:
        value, unit = fmt.split_unit(fmt.duration(result.ttft_p95_s))
        ttft_note = f"{vs}: {fmt.signed_duration(ttft_delta)}"
    bill_note = (
        f"{vs}: {fmt.signed_dollars(bill_delta)} \u00b7 {_per_million(result)}"
        if serves
        else "pays for a node that serves nothing"
    )
    return [
        Card("live seats", fmt.count(result.seats_granted), "", f"{vs}: {fmt.signed(seats_delta, 'seats')}",
             tone(seats_delta, True), alarm=not result.capacity_ok),
        Card("TTFT p95", value, unit, ttft_note, "worse" if result.queue_unbounded else tone(ttft_delta, False, 0.0005),
             alarm=not result.latency_ok, qualifier=cached(result.prompt_tokens, result.hit_rate, users)),
        Card("aggregate decode rate", rate_value, "tok/s", f"{vs}: {fmt.signed(rate_delta, 'tok/s')}",
             tone(rate_delta, True, 0.5), qualifier=FULL_LOAD),
        Card("monthly bill", fmt.dollars(result.monthly_usd), "/ mo", bill_note,
             "worse" if not serves else tone(bill_delta, False, 0.5), alarm=not result.cost_ok),
    ]  # fmt: skip


def other_workload_html(name: str, other) -> str:
    """The three checks of this config on the other workload ``name``."""
    items = verdicts(other)
    words = ", ".join(f"{item.name}: {'pass' if item.ok else 'fail'}" for item in items)
    return (
        f'<div class="lab"><p>On <b>{escape(name)}</b> this exact config reads {escape(words)}.</p>'
        f"<p>{chips_html(items)}</p>"
        '<p class="small muted">One config rarely fits both: the arrival rate and the answer length '
        "pull the same knobs in different directions.</p></div>"
    )


def workload_html(s: Scenario, result) -> str:
    """The workload's facts, its SLO and its ceiling (a trace's own facts when it replays one)."""
    if s.traffic in TRACES:
        return trace_workload_html(s, result)
    workload = WORKLOADS[s.workload]
    arrivals, answer = result.arrivals_per_min, result.answer_tokens
    return (
        f'<div class="lab small"><p><b>{escape(workload.name.capitalize())}</b>: {escape(workload.description)}. '
        f"Peak minute: <b>{fmt.count(arrivals)}</b> arrivals ({result.arrivals_per_s:,.1f} a second); answers of "
        f"<b>{fmt.count(answer)}</b> tokens; prompts usually near {fmt.count(workload.typical_prompt_tokens)} tokens.</p>"
        f"<p>The SLO: first token in under <b>{fmt.count(TTFT_SLO_S * 1000)} ms</b> at p95, sized at the peak "
        f"minute. The ceiling: <b>{fmt.dollars(BUDGET_USD_PER_MONTH)}</b> a month.</p></div>"
    )
