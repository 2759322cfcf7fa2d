"""A figure two labs show for the same knobs is one number, or its labels say why not."""

from hypothesis import HealthCheck, given, settings

from core import Scenario
from labs.batching.lab import BatchingLab
from labs.frontier.lab import FrontierLab
from labs.page.shown import (
    CONTINUOUS_RATE,
    PRICE,
    SHOWN,
    TTFT,
    Reading,
    disagreements,
    readings,
)
from labs.pool.lab import PoolLab
from labs.prefix.lab import STATES, PrefixLab, prefix_knobs
from tests.strategies import shown_knobs


def every_lab(scenario: Scenario, prefix: dict, batching: dict | None) -> dict:
    """The labs the registry reads, by route, on one shared scenario (batching where given)."""
    labs = {
        "pool": PoolLab(scenario),
        "frontier": FrontierLab(scenario),
        "prefix": PrefixLab(scenario, **prefix),
    }
    if batching is not None:  # its engines and sweep cost a second: drawn less often
        labs["batching"] = BatchingLab(scenario, **batching)
        labs["batching"].view("sweep")  # its folded tab opened, so that its text is read too
    return labs


def aligned_with_prefix(knobs: dict, prefix: dict) -> dict:
    """``knobs`` with the prefix lab's prompt and the cached share of the state it shows."""
    overrides, _hits = prefix_knobs(
        prefix["preamble_tokens"], prefix["question_tokens"], prefix["edit_position"]
    )
    share = float(overrides["prefix_hit_rate"][STATES.index(prefix["state"])])
    return {**knobs, "prompt_tokens": overrides["prompt_tokens"], "prefix_hit_rate": share}


def without_qualifiers(found: dict) -> dict:
    """The readings as a page without qualifiers would show them (the screens issue 34 saw)."""
    return {
        quantity: [(place, Reading("", reading.figure)) for place, reading in places]
        for quantity, places in found.items()
    }


def test_every_quantity_in_the_registry_is_shown_twice():
    """The registry lists a quantity because two places show it."""
    places = {}
    for shown in SHOWN:
        places.setdefault(shown.quantity, set()).add((shown.lab, shown.place))
    assert all(len(where) >= 2 for where in places.values())


def test_the_defaults_show_each_registered_figure():
    """At the defaults every reader finds its figure on its lab."""
    labs = every_lab(Scenario(), {"state": "edited"}, {})
    assert all(shown.read(labs[shown.lab]) for shown in SHOWN)


def drawn_labs(draw: dict, with_batching: bool) -> dict:
    """Every lab on the drawn scenario (the pool given the prefix lab's prompt when aligned)."""
    knobs = draw["scenario"]
    if draw["aligned"]:
        knobs = aligned_with_prefix(knobs, draw["prefix"])
    batching = draw["batching"] if with_batching else None
    return every_lab(Scenario(**knobs), draw["prefix"], batching)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shown_knobs())
def test_figures_named_twice_agree_across_labs(draw):
    """Every registered figure two labs show under the same qualifier is the same number."""
    assert disagreements(readings(drawn_labs(draw, with_batching=False))) == []


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shown_knobs())
def test_the_batching_labs_rates_agree_with_each_other(draw):
    """The timeline's and the sweep's continuous rates agree where they quote the same run."""
    lab = BatchingLab(Scenario(**draw["scenario"]), **draw["batching"])
    lab.view("sweep")  # the sweep's folded tab, opened
    assert disagreements(readings({"batching": lab})) == []


def test_the_sweep_quotes_the_timelines_run_at_the_same_sample():
    """On 100 requests the sweep's point at your B is the timeline's run, to the digit."""
    lab = BatchingLab(Scenario(), requests=100, batch_size=32)
    lab.view("sweep")  # the sweep's folded tab, opened
    rates = readings({"batching": lab})[CONTINUOUS_RATE]
    assert len(rates) >= 2 and len({reading for _place, reading in rates}) == 1


def test_the_pool_and_the_edited_preamble_agree_on_the_same_prompt():
    """The pool at the prefix lab's prompt and cached share shows its first token to the digit."""
    prefix = {"state": "edited", "edit_position": 0}
    knobs = aligned_with_prefix({}, {"preamble_tokens": 1200, "question_tokens": 100, **prefix})
    labs = every_lab(Scenario(**knobs), prefix, {})
    found = dict(readings(labs)[TTFT])
    pool, edited = found["pool: the 'TTFT p95' card"], found["prefix: the 'TTFT p95' card"]
    assert pool == edited


def test_without_their_qualifiers_the_defaults_disagree():
    """Stripped of their qualifiers, the defaults' figures disagree as issue 34 found them."""
    labs = every_lab(Scenario(), {"state": "edited"}, {})
    found = readings(labs)
    assert disagreements(found) == []
    stripped = disagreements(without_qualifiers(found))
    for quantity in (PRICE, TTFT, CONTINUOUS_RATE):
        assert any(line.startswith(quantity) for line in stripped), quantity
