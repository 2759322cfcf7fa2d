"""The KV lab's words over a result: the headline cards, what binds, and the derivation's prose."""

from __future__ import annotations

from core import Scenario
from core.catalog.custom import scenario_shape
from core.foundation.units import kib
from labs.page import format as fmt
from labs.page.cards import Card


def cards(r, sequence_tokens: int) -> list[Card]:
    """The six headline cards: a token, a seat, the seats, the share, the longest sequence."""
    granted_all = r.seats_granted >= r.seats_requested
    return [
        Card("one cached token", fmt.count(r.kv_bytes_per_token), "bytes", f"{kib(r.kv_bytes_per_token):,.0f} KiB"),
        Card("one seat's cache at this length", *fmt.split_unit(fmt.memory(r.seat_kv_bytes)), f"{fmt.count(sequence_tokens)} tokens"),
        Card("seats granted", f"{fmt.count(r.seats_granted)} of {fmt.count(r.seats_requested)}", "",
             f"room for {fmt.count(r.seats_room)}", "" if granted_all else "worse", alarm=not granted_all),
        Card("cache share of the weights", fmt.percent(r.kv_share_of_weights), "", f"{fmt.memory(r.kv_bytes_in_use)} of cache in use"),
        Card("largest sequence the room holds", fmt.tokens(r.kv_budget_tokens), "tokens", f"{fmt.count(r.kv_budget_tokens)} exactly"),
        Card("one sequence outweighs the model", fmt.tokens(r.outweigh_tokens), "tokens", f"past {fmt.memory(r.weight_bytes)} of weights"),
    ]  # fmt: skip


def binding(r, sequence_tokens: int) -> str:
    """The sentence that says what binds: the weights, one seat, the seats asked, or nothing."""
    if not r.weights_fit:
        return (
            f"The weights alone overflow this node: {fmt.memory(r.weight_bytes)} against "
            f"{fmt.memory(r.node_memory_bytes)}. The model needs {fmt.plural(r.cards_needed, 'card')} before a single seat exists."
        )
    if r.seats_granted == 0:
        return (
            f"Memory grants no seat: one {fmt.count(sequence_tokens)}-token sequence needs "
            f"{fmt.memory(r.seat_kv_bytes)} and the room is {fmt.memory(r.kv_budget_bytes)}. Every request waits, and nothing reports an error."
        )
    if r.seats_granted < r.seats_requested:
        return (
            f"Memory binds: it grants {fmt.count(r.seats_granted)} of {fmt.count(r.seats_requested)} requested seats. "
            f"The other {fmt.count(r.seats_waiting)} wait in the queue with no error anywhere; asking for more seats changes nothing."
        )
    return (
        f"Memory grants all {fmt.count(r.seats_requested)} requested seats: {fmt.memory(r.kv_bytes_in_use)} of cache against a "
        f"{fmt.memory(r.kv_budget_bytes)} budget. Memory is not what binds here; the limit is elsewhere (compute, queueing or money)."
    )


def facts(r, scenario: Scenario, sequence_tokens: int) -> list[str]:
    """The derivation's prose: the room, one token's bytes, one sequence, the running seats."""
    s = scenario
    shape = scenario_shape(s)
    number_bytes = round(r.kv_bytes_per_number)
    bill = "the full bf16 bill" if s.kv_dtype == "bf16" else "half the bf16 bill"
    return [
        f"The {shape.name} spans {r.cards} card{'s' if r.cards != 1 else ''} with {fmt.gigabytes(r.weight_bytes)} of weights, "
        f"leaving {fmt.gigabytes(r.kv_budget_bytes)} of KV room at the {fmt.percent(r.margin_share)} margin. A single "
        f"sequence outweighs the whole model at about {fmt.tokens(r.outweigh_tokens)} tokens of cache.",
        f"Storing the cache in {s.kv_dtype} costs {number_bytes} byte{'s' if number_bytes != 1 else ''} per number, so "
        f"one token of cache is {fmt.count(r.kv_bytes_per_token)} bytes, {bill}.",
        f"{_sentence_start(fmt.article(fmt.count(sequence_tokens) + '-token'))} sequence holds {fmt.gigabytes(r.seat_kv_bytes, 2)} of cache; the room "
        f"grants {fmt.plural(r.seats_room, 'such seat')} and holds {fmt.tokens(r.kv_budget_tokens)} tokens in one sequence at most.",
        (
            f"{'The one requested seat runs' if r.seats_requested == 1 else f'All {fmt.count(r.seats_requested)} requested seats run'} at once, holding {fmt.gigabytes(r.kv_bytes_in_use)} of cache "
            f"between them, {fmt.percent(r.kv_share_of_weights)} of the weights' memory."
            if r.seats_granted >= r.seats_requested
            else f"Only {fmt.count(r.seats_granted)} of {fmt.count(r.seats_requested)} requested seats run, holding "
            f"{fmt.gigabytes(r.kv_bytes_in_use)} of cache, {fmt.percent(r.kv_share_of_weights)} of the weights' memory."
            if r.seats_granted
            else f"None of the {fmt.count(r.seats_requested)} requested seats runs: not one sequence of this length fits."
        ),
    ]  # fmt: skip


def _sentence_start(text: str) -> str:
    """The text with its first letter in capitals."""
    return text[:1].upper() + text[1:]
