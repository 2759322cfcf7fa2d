"""The words that make a figure a different quantity from one of the same name on another page.

Two pages may show a figure under one name for different reasons: the frontier drives each
node full as a benchmark does, the pool carries the peak minute's arrivals; the prefix lab's
edited preamble is 0 % cached, the pool's prompt 30 %. Each such figure carries its qualifier
beside its name, in these words, so equal names with equal qualifiers mean equal figures
(``labs.page.shown`` lists them and the test holds them to it).
"""

from __future__ import annotations

from labs.page import format as fmt

FULL_LOAD = "at full load"  # every seat busy, as a benchmark drives a node
PEAK_MINUTE = "at the peak-minute rate"  # the workload's peak-minute arrivals, held
LEVEL_NAMES = {"whiteboard": "whiteboard", "engine": "engine level"}


def cached(prompt_tokens: float, hit_rate: float, users: int | None = None) -> str:
    """A first token's prompt, the share of it served from the prefix cache and, where a
    benchmark's closed loop drives the engine (:func:`closed_users`), its users: their first
    token queues behind each other's prompts, not behind the peak minute's arrivals.

    >>> cached(1200, 0.3)
    '1,200-token prompt, 30% cached'
    >>> cached(1650, 0.3, 93)
    '1,650-token prompt, 30% cached, 93 closed-loop users'
    """
    words = f"{fmt.count(prompt_tokens)}-token prompt, {fmt.percent(hit_rate)} cached"
    return words if users is None else f"{words}, {fmt.plural(users, 'closed-loop user')}"


def closed_users(scenario) -> int | None:
    """The closed-loop users driving ``scenario``'s engine level (its ``concurrency``), None
    where the peak minute's arrivals are the load (the whiteboard has no closed loop)."""
    return scenario.concurrency if scenario.runs_a_benchmark() else None


def judged(realism: str, replayed: bool = False) -> str:
    """Which figures a row of checks judges: the level on screen, or the replayed hour's.

    >>> judged("whiteboard")
    "The checks judge the whiteboard's figures; the engine level's line below is not judged."
    """
    level = LEVEL_NAMES[realism]
    other = LEVEL_NAMES["engine" if realism == "whiteboard" else "whiteboard"]
    latency = " (latency: the replayed hour's)" if replayed else ""
    return (
        f"The checks judge the {level}'s figures{latency}; the {other}'s line below is not judged."
    )
