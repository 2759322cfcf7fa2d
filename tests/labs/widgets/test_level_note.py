"""The 'a real engine would see' line in the pool, KV and batching labs."""

from core import Scenario, evaluate
from core.evidence.level_gap import first_token_band, gaps, level_gaps
from labs.batching import BatchingLab
from labs.kv.lab import KvLab
from labs.page import format as fmt
from labs.pool.checks import ENGINE_FIELDS
from labs.pool.lab import PoolLab
from labs.reality.text import first_tokens_html
from labs.widgets.level_note import first_tokens_held


def test_gaps_keep_only_figures_outside_the_band():
    """A figure within x0.80-x1.25 of the whiteboard's is not reported; one outside is."""
    found = gaps({"a": 100.0, "b": 100.0, "c": 0.0}, {"a": 120.0, "b": 130.0, "c": 0.0})
    assert [gap.field for gap in found] == ["b"]


def test_pool_line_quotes_the_engine_level_where_it_differs():
    """At the defaults the engine's TTFT p95 differs by over 25 %, and the line quotes it."""
    lab = PoolLab(scenario=Scenario())
    found = level_gaps(lab.scenario, ENGINE_FIELDS)
    assert [gap.field for gap in found] == ["ttft_p95_s"]
    engine = evaluate(Scenario(realism="engine"))
    assert fmt.duration(engine.ttft_p95_s) in lab.engine_note._pane.object
    assert "A real engine would see" in lab.engine_note._pane.object


def test_pool_line_turns_round_when_the_engine_level_is_on_screen():
    """With realism='engine' the cards show the engine and the line quotes the whiteboard."""
    scenario = Scenario()
    lab = PoolLab(scenario=scenario)
    scenario.realism = "engine"
    assert "On the whiteboard these would read" in lab.engine_note._pane.object
    assert fmt.duration(evaluate(Scenario()).ttft_p95_s) in lab.engine_note._pane.object


def test_seed_figures_stay_on_the_pool_cards_at_defaults():
    """The engine line is added beside the cards; the cards keep the seed's 27 ms."""
    lab = PoolLab(scenario=Scenario())
    ttft = next(card for card in lab.cards.cards if card.label == "TTFT p95")
    assert (ttft.value, ttft.unit) == ("27", "ms")


def test_kv_line_says_when_both_levels_agree():
    """At the calculator's defaults the two levels agree within 25 % and the line says so."""
    lab = KvLab(scenario=Scenario())
    assert "about the same" in lab.engine_note._pane.object


def test_batching_line_compares_only_continuous_batching():
    """Under static batching the line explains; under continuous it compares."""
    lab = BatchingLab(scenario=Scenario())
    note = lab.views["headline"].engine_note
    lab.policy = "static"
    assert "continuous batching" in note._pane.object
    lab.policy = "continuous"
    lab.arrival = "offline"
    assert "output throughput" in note._pane.object


def test_first_token_band_reads_the_same_on_the_pool_lab_and_the_reality_check():
    """One clause words the first-token band: the pool lab's note and the Reality check quote it
    word for word."""
    clause = first_tokens_held(first_token_band())
    lab = PoolLab(scenario=Scenario(realism="engine"))
    assert clause in lab.engine_note._pane.object
    assert clause in first_tokens_html(first_token_band())
