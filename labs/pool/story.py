"""The pool lab's words: what binds the pool now, and the story of its numbers, all from a Result."""

from __future__ import annotations

from html import escape

from core import BUDGET_USD_PER_MONTH, Scenario
from core.catalog.traces import TRACES
from core.engine_level.load import run_waves
from labs.page import format as fmt


def binding_sentence(result, closed_users=None) -> str:
    """One sentence naming what binds the pool now, or what will bind next (``closed_users``:
    the benchmark's closed-loop users where they drive the engine, None for arrivals)."""
    asked, granted = fmt.count(result.seats_requested), fmt.count(result.seats_granted)
    in_use, budget = fmt.tokens(result.kv_tokens_in_use), fmt.tokens(result.kv_budget_tokens)
    if not result.weights_fit:
        return (
            f"Memory binds before any seat exists: the weights need {fmt.plural(result.cards_needed, 'card')} and "
            f"the node has {result.cards}."
        )
    if result.seats_granted < 1:
        return (
            f"Nothing can be served: one request's cache ({fmt.gigabytes(result.seat_kv_bytes)} for "
            f"{fmt.tokens(result.seat_tokens)} tokens) is larger than all {fmt.gigabytes(result.kv_budget_bytes)} "
            "of KV room, so memory grants no seat at any batch size. Shorter prompts, a smaller cache "
            "number or more cards per node are the ways back."
        )
    if not result.capacity_ok:
        return (
            f"Memory binds: it grants {granted} of {asked} requested seats ({in_use} KV tokens fill "
            f"the {budget}-token budget). Past {granted}, the batch size dial stops mattering and the "
            "excess waits in the queue."
        )
    if not result.latency_ok:
        if result.queue_unbounded or result.queue_wait_p95_s > result.prefill_s:
            wait = fmt.duration(result.queue_wait_p95_s, result.queue_unbounded)
            if closed_users is not None:  # the peak's arrivals and seats are not this load's
                return (
                    f"Queueing binds: with {fmt.plural(closed_users, 'closed-loop user')} "
                    f"sending each next prompt as soon as an answer ends, a prompt waits {wait} "
                    "at p95 behind the other users' prompts before its own prefill."
                )
            return (
                f"Queueing binds: arrivals wait {wait} "
                f"at p95 for a free seat, with {fmt.percent(result.utilization)} of seats busy."
            )
        return (
            f"Latency binds in tensor time: prefilling {fmt.tokens(result.miss_tokens)} cache-miss "
            f"tokens takes {fmt.duration(result.prefill_s)} before any queue."
        )
    if not result.cost_ok:
        return (
            f"Cost binds: carrying the peak takes {fmt.plural(result.nodes, 'node')}, "
            f"{fmt.dollars(result.monthly_usd)} a month against {fmt.dollars(BUDGET_USD_PER_MONTH)}."
        )
    pressures = {
        "memory": result.kv_share_of_budget,
        "queueing": result.utilization,
        "cost": result.bill_share_of_budget,
    }
    nearest = max(pressures, key=pressures.get)
    return (
        f"Memory grants all {asked} requested seats: {in_use} KV tokens in use against {budget} in "
        f"the budget. The next constraint is {nearest}"
        f"{', not memory' if nearest != 'memory' else ''} ({fmt.percent(pressures[nearest])} of its limit)."
    )


def _held_back(scenario: Scenario, result) -> str:
    """What memory each level keeps back from the cache, in words."""
    if scenario.realism == "engine":
        return (
            f"the engine's activation workspace, keeping {fmt.percent(result.kv_reserve_share)} "
            "of the rest in reserve"
        )
    return f"the {fmt.percent(result.margin_share)} margin"


def benchmark_sentence(scenario: Scenario, result, steady=None) -> str:
    """What a benchmark's closed loop measures on this node, and how its run's end lowers it
    (``steady``: the same loop's Result with no end to its run)."""
    running = result.running_requests
    whose = "its command's" if scenario.batch_limit is not None else "its own"
    limit = (
        f" ({whose} batch limit, not the seats dial)" if running > result.seats_requested else ""
    )
    line = (
        f"Driven as a benchmark by {fmt.plural(scenario.concurrency, 'closed-loop user')}, the "
        f"engine runs {fmt.count(running)} requests at once{limit}"
        f" and puts out {fmt.rate(result.throughput_tokens_per_s)} of answers; each request "
        f"takes {fmt.duration(result.request_s)} from its prompt to its last token."
    )
    if steady is None:
        return line
    waves, last = run_waves(scenario.run_requests, running)
    if last < 1:
        line += (
            f" A run of {fmt.count(scenario.run_requests)} requests makes "
            f"{fmt.plural(waves, 'whole wave')} of {fmt.count(running)}: the steady state's rate."
        )
    else:
        line += (
            f" That is the whole run of {fmt.count(scenario.run_requests)} requests: "
            f"{fmt.plural(waves, 'full wave')} of {fmt.count(running)}, then a last one of "
            f"{fmt.count(last)} alone (a smaller batch, fewer tokens a second); a loop that never "
            f"ends would hold {fmt.rate(steady.throughput_tokens_per_s)}."
        )
    return line + _opening_burst(result, steady)


def _opening_burst(result, steady) -> str:
    """The run's first token beside the endless loop's, where its opening burst moves it."""
    typical, endless = result.ttft_p50_s, steady.ttft_p50_s
    if result.queue_unbounded or abs(typical - endless) <= 0.01 * endless:
        return ""
    return (
        f" Every user's first prompt arrives at once, so the run's first tokens wait "
        f"{fmt.duration(typical)} on average and {fmt.duration(result.ttft_p95_s)} at the 95th "
        f"percentile, that opening burst counted in (a loop that never ends: "
        f"{fmt.duration(endless)} and {fmt.duration(steady.ttft_p95_s)})."
    )


def explanations(scenario: Scenario, result, steady=None) -> list[str]:
    """The story of the numbers, one sentence per step, all from ``result`` (and ``steady``:
    a benchmark's closed loop with no end to its run, beside a finite run)."""
    cards = result.cards
    card_word = "card" if cards == 1 else "cards"
    waiting = result.seats_waiting
    if not waiting:
        granted = "all of them." if result.seats_requested != 1 else "it."
    elif result.seats_granted < 1:
        granted = "none: not one request's cache fits."
    else:
        granted = f"{fmt.count(result.seats_granted)}; the other {fmt.count(waiting)} wait."
    nodes = fmt.plural(result.nodes, "node")
    bill = (
        f"{nodes} \u00d7 {cards} {card_word} \u00d7 {fmt.price(result.usd_per_gpu_hour)} per "
        f"GPU-hour \u00d7 {result.hours_per_month:,.0f} hours = {fmt.dollars(result.monthly_usd)} a month"
    )
    lines = [
        f"The scheduler runs up to {fmt.plural(result.seats_requested, 'seat')} at once, and memory grants {granted}",
        f"The {fmt.model_name(scenario)} spans {cards} {escape(scenario.gpu)} {card_word} using {fmt.gigabytes(result.weight_bytes_per_card)} "
        f"of weights each, leaving {fmt.gigabytes(result.kv_budget_bytes)} of KV room after "
        f"{_held_back(scenario, result)}: room for {fmt.tokens(result.kv_budget_tokens)} tokens of cache.",
        f"{'The trace' + chr(39) + 's requests average' if scenario.traffic in TRACES else 'Every request carries'} "
        f"{fmt.article(fmt.count(result.prompt_tokens) + '-token')} prompt and "
        f"{fmt.article(fmt.count(result.answer_tokens) + '-token')} answer, so each seat holds {fmt.tokens(result.seat_tokens)} "
        f"KV tokens ({fmt.gigabytes(result.seat_kv_bytes)}).",
    ]
    if result.seats_granted < 1:
        return [
            *lines,
            "Nothing can be served: no request ever starts, so there is no first token, no decode "
            "rate and no number of nodes that carries the traffic.",
            f"Renting {nodes} anyway: {bill} for no answers.",
        ]
    lines += [
        f"{fmt.percent(scenario.prefix_hit_rate)} of each prompt ({fmt.tokens(result.hit_tokens)} tokens) is "
        f"found in the prefix cache and {_hit_cost(result)}; the other {fmt.tokens(result.miss_tokens)} "
        f"cache-miss tokens are prefilled in tensor time on arrival, {fmt.duration(result.prefill_s)}.",
        f"Each decode step re-reads {fmt.gigabytes(result.weight_bytes_read)} of weights"
        + (
            f" (the experts its batch touches, of {fmt.gigabytes(result.weight_bytes)})"
            if result.weight_bytes_read < result.weight_bytes
            else ""
        )
        + " and "
        f"{fmt.gigabytes(result.kv_bytes_in_use)} of running cache: {fmt.duration(result.decode_step_s)} "
        f"a step, {fmt.rate(result.stream_tokens_per_s)} for each reader, {fmt.rate(result.decode_tokens_per_s)} "
        "across the batch.",
        *(
            [_sizing_sentence(result), benchmark_sentence(scenario, result, steady)]
            if scenario.runs_a_benchmark()
            else [_seat_sentence(result)]
        ),
        f"The bill: {bill}.",
        f"Held at the peak-minute rate all month, that bill comes to {fmt.token_price(result.usd_per_million_output_tokens)} "
        f"per million output tokens, or {fmt.token_price(result.usd_per_million_input_tokens)} per million "
        "input tokens (the whole bill over each kind; quieter hours make both dearer, and a node at full "
        "load, as the frontier prices it, cheaper).",
    ]
    return lines


def _seat_sentence(result) -> str:
    """How long the peak minute's arrivals hold a seat, and the nodes that carry them."""
    return (
        f"A request holds its seat for {fmt.duration(result.request_s)}. At "
        f"{fmt.count(result.arrivals_per_min)} arrivals a minute that keeps "
        f"{result.offered_load:,.1f} seats busy on average; sized for a cold prefix cache the "
        f"pool needs {fmt.plural(result.nodes, 'node')} of "
        f"{fmt.plural(result.seats_granted, 'seat')}."
    )


def _sizing_sentence(result) -> str:
    """The nodes the peak minute's arrivals need, where a benchmark's closed loop sets the load
    figures: its request time is not the one the arrivals' seats are held for."""
    return (
        f"Sized for the peak minute's {fmt.count(result.arrivals_per_min)} arrivals a minute and "
        f"a cold prefix cache, the pool needs {fmt.plural(result.nodes, 'node')} of "
        f"{fmt.plural(result.seats_granted, 'seat')}; the benchmark below drives one node with "
        "its own users instead."
    )


def _hit_cost(result) -> str:
    """What a prefix hit costs: a read in HBM, or, for hits offload kept, the copy back."""
    if result.prefix_offloaded_share <= 0:
        return "costs only a memory read"
    return "is copied back from the tier it waited in (the ledger's tier table gives the time)"
