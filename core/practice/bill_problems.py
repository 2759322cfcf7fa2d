"""The practice problem about money: the nodes behind the peak minute and their monthly bill."""

from __future__ import annotations

from core.catalog import (
    GPUS,
    HOURS_PER_MONTH,
    TIERS,
)
from core.catalog.workloads import WORKLOADS
from core.evaluate import evaluate
from core.foundation import numbers
from core.foundation.units import express, number_text
from core.practice import draws
from core.practice import wording as say
from core.practice.problems import Step, Trap

# The walkthrough's own numbers (seed 0).
CLASSIC = {"name": TIERS["small"].name, "gpu": "H100 SXM", "weight_dtype": "bf16", "cards": 1,
           "workload": "chat", "seats": 16, "prompt": 1200, "hit": 0.3, "arrivals": None}  # fmt: skip


def monthly_bill(rng) -> dict:
    """The peak minute's arrivals, the nodes that carry them, and what renting them costs a month."""
    drawn = draws.classic_or_draw(rng, CLASSIC, _draw_bill)
    knobs = draws.bill_knobs(drawn)
    result = evaluate(**knobs)
    price = GPUS[drawn["gpu"]].usd_per_hour
    arrivals_per_min = drawn["arrivals"] or WORKLOADS[drawn["workload"]].arrivals_per_min
    steps = _bill_steps(result, arrivals_per_min, price)
    return {
        "question": "The pool is sized for the peak minute with a cold prefix cache and rented by "
        "the month. What is the monthly bill?",
        "givens": _bill_givens(drawn, result, arrivals_per_min, price),
        "hint": "Arrivals per second \u00d7 seconds per request = seats busy on average. Divide "
        "by the seats one node offers, round up to whole nodes, and rent every card all month.",
        "steps": steps,
        "traps": _bill_traps(result, price, busy=steps[1].value, bill=steps[-1].value),
        "knobs": knobs,
    }


def _draw_bill(rng) -> dict | None:
    """A node, workload and peak that keep 2 to 16 nodes partly busy; None to draw again."""
    node = draws.draw_node(rng, weight_dtypes=("bf16",))
    if node is None:
        return None
    workload = draws.pick(rng, WORKLOADS)
    node.update(
        workload=workload,
        seats=draws.pick(rng, draws.REQUESTED_SEATS),
        prompt=WORKLOADS[workload].typical_prompt_tokens,
        hit=0.3,
        arrivals=draws.pick(rng, draws.ARRIVALS_PER_MIN),
    )
    result = evaluate(**draws.bill_knobs(node))
    if not result.weights_fit or result.seats_granted < 1:
        return None
    busy = result.arrivals_per_s * result.sizing_request_s / result.seats_granted
    if not (2 <= result.nodes <= 16 and result.sizing_request_s <= 120):
        return None
    if not 0.1 <= draws.fraction(busy) <= 0.9:
        return None
    return node


def _bill_steps(result, arrivals_per_min: float, price: float) -> tuple[Step, ...]:
    """Arrivals per second, busy seats, whole nodes, and the month's bill."""
    per_s = result.arrivals_per_s
    busy = result.arrivals_per_s * result.sizing_request_s
    nodes, cards = result.nodes, result.cards
    bill = float(nodes) * float(cards) * price * HOURS_PER_MONTH  # as core.evaluate bills
    return (
        Step(
            "Arrivals per second at the peak minute",
            "arrivals per minute / 60",
            f"{number_text(arrivals_per_min)} / 60",
            per_s,
            f"{number_text(per_s, 4)} a second",
        ),
        Step(
            "Seats busy on average: arrivals per second \u00d7 seconds each one holds a seat",
            "arrivals per second \u00d7 seat time",
            f"{number_text(per_s, 4)} \u00d7 {number_text(result.sizing_request_s, 4)} s",
            busy,
            f"{number_text(busy, 4)} busy seats",
        ),
        Step(
            "Whole nodes to carry them: round up, a part-node can't be rented",
            "\u2308busy seats / seats per node\u2309",
            f"\u2308{number_text(busy, 4)} / {result.seats_granted}\u2309 = "
            f"\u2308{number_text(busy / result.seats_granted, 4)}\u2309",
            nodes,
            numbers.plural(nodes, "node", figures=4),
        ),
        Step(
            "Every card is rented every hour of the month, busy or idle",
            "nodes \u00d7 cards per node \u00d7 price per card-hour \u00d7 hours",
            f"{nodes} \u00d7 {cards} \u00d7 ${price:.2f} \u00d7 {HOURS_PER_MONTH}",
            bill,
            f"{express(bill, '$', 'dollars', 6)} a month",
        ),
    )


def _bill_traps(result, price: float, busy: float, bill: float) -> list[Trap]:
    """One hour's bill, a fractional node, one card per node, one node."""
    cards, nodes = result.cards, result.nodes
    fractional = busy / result.seats_granted * cards * price * HOURS_PER_MONTH
    traps = [
        Trap(bill / HOURS_PER_MONTH, f"That is one hour. A month bills {HOURS_PER_MONTH} hours."),
    ]  # fmt: skip
    if fractional < bill * 0.97:
        traps.append(
            Trap(fractional, "That pays for a fraction of a node. Nodes come whole: round up.")
        )
    if cards > 1:
        traps.append(Trap(bill / cards, f"That rents one card per node; each node has {cards}."))
    if nodes > 1:
        traps.append(
            Trap(
                bill / nodes,
                f"That is one node; the peak keeps {numbers.plural(nodes, 'node', figures=4)} busy.",
            )
        )
    return traps


def _bill_givens(drawn: dict, result, arrivals_per_min: float, price: float) -> tuple:
    return (
        ("model and node", f"{drawn['name']} on {say.node(result.cards, drawn['gpu'])}"),
        ("peak arrivals", f"{number_text(arrivals_per_min)} requests a minute"),
        (
            "each request holds a seat for",
            f"{number_text(result.sizing_request_s, 4)} s (whole prompt prefilled, then "
            f"{numbers.plural(result.answer_tokens, 'decode step', figures=4)})",
        ),
        ("seats per node", _seats_per_node(result)),
        ("price", f"${price:.2f} per card-hour"),
        ("a month", f"{HOURS_PER_MONTH} hours"),
    )


def _seats_per_node(result) -> str:
    granted, asked = result.seats_granted, result.seats_requested
    if granted < asked:
        return f"{granted} (memory's cap; the scheduler asks for {asked})"
    return f"{granted}"
