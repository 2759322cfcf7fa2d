"""The Reality check lab at the parameter level: cases, selection, link state and text."""

import time

import pytest

from core.evidence.cases_azure import AZURE
from core.evidence.fidelity import report
from core.evidence.level_gap import first_token_band
from core.evidence.scores import DEVELOPMENT_TARGET
from labs.frame.shell import LabShell, lab_bindings
from labs.page.format import times
from labs.page.links import query_for, restore
from labs.reality.charts import SET_MARKERS, waterfall_data
from labs.reality.lab import RealityLab
from labs.reality.text import (
    held_out_text,
    score_text,
    spread_words,
    target_tone,
    target_words,
)


@pytest.fixture
def lab():
    return RealityLab()


def test_every_development_case_is_listed_with_both_levels(lab):
    """The table names every case, and each row carries a whiteboard and an engine ratio."""
    html = lab.table.object
    for case in report().cases:
        assert f"<b>{case.key}</b>" in html
    assert html.count('class="chip') == 2 * len(report().cases)


def test_summary_cards_quote_the_scores_from_core(lab):
    """The headline cards state core's geometric-mean errors and counts within the band."""
    engine = report().development["engine"]
    card = next(card for card in lab.cards.cards if card.label.startswith("engine level"))
    assert card.value == f"{engine.geometric_mean_error:.0%}"
    assert f"{engine.within_band} of {engine.cases}" in card.note


def test_choosing_a_case_redraws_its_waterfall_and_marks_it(lab):
    """Selecting N3 refills the waterfall with N3's steps and highlights its row and point."""
    lab.case = "N3"
    index = [case.key for case in report().cases].index("N3")
    assert list(lab.waterfall_source.data["value"]) == list(
        waterfall_data(report().steps[index])["value"]
    )
    assert '<tr class="here"><td><b>N3</b>' in lab.table.object
    assert "N3: Llama-3-70B" in lab.case_text.object
    keys = list(lab.latency_points.data["key"])
    assert lab.latency_points.selected.indices == [keys.index("N3")]
    assert lab.throughput_points.selected.indices == []


def test_clicking_a_point_selects_its_case(lab):
    """A tap on a scatter point (its selection changing) makes it the lab's case."""
    keys = list(lab.throughput_points.data["key"])
    callback = lab._tapped(lab.throughput_points)
    callback("indices", [], [keys.index("T10")])
    assert lab.case == "T10"


def test_waterfall_bars_start_at_the_whiteboard_and_end_at_the_engine_level():
    """First bar is the whiteboard's ratio, last the engine level's, both standing from the axis."""
    steps = report().steps[0]
    data = waterfall_data(steps)
    assert data["value"][0] == pytest.approx(steps[0])
    assert data["value"][-1] == pytest.approx(steps[-1])
    assert data["bottom"][0] == data["bottom"][-1]
    assert len(data["step"]) == len(steps) + 1


def test_case_lives_in_the_link_and_a_link_restores_it():
    """?lab=reality&case=N5 opens N5; a bad case is ignored with a notice."""
    shell = LabShell()
    shell.lab = "reality"
    view = shell.view("reality")
    view.case = "N5"
    query = query_for(lab_bindings(view, shell.scenario))
    assert "case=N5" in query
    other = LabShell()
    other.lab = "reality"
    restore(lab_bindings(other.view("reality"), other.scenario), query)
    assert other.view("reality").case == "N5"
    notices = restore(lab_bindings(other.view("reality"), other.scenario), "?case=Z9")
    assert other.view("reality").case == "N5"
    assert any("case" in notice for notice in notices)


def test_lessons_name_the_terms_that_move_cases(lab):
    """'What holds' lists each term that moves a case, with its count and largest effect."""
    for effect in report().effects:
        if effect.cases_moved:
            assert f"Moves {effect.cases_moved} of" in lab.lessons.object


def test_the_case_picker_and_the_table_cover_both_sets(lab):
    """Every case of both development sets is in the picker, and the table groups them by set."""
    keys = {case.key for case in report().cases}
    assert {"T3", "N3", "D01", "D31", "D33"} <= keys
    assert set(lab.picker.options.values()) == keys
    for group in ('data-set="first"', 'data-set="second"', 'data-set="unscored"'):
        assert group in lab.table.object


def test_the_family_table_states_core_scores_for_each_set(lab):
    """Each family's engine-level score over each set is on the page as core computed it."""
    html = lab.families.object
    for row in report().families:
        assert f'data-family="{row.family}"' in html
        for set_name in ("first", "second", "both"):
            assert score_text(row.score(set_name, "engine")) in html


def test_summary_cards_quote_both_sets_from_core(lab):
    """The second card states core's second-set error and count within the band."""
    second = report().scores["second"]["engine"]
    card = next(card for card in lab.cards.cards if "second set" in card.label)
    assert card.value == f"{second.geometric_mean_error:.0%}"
    assert f"{second.within_band} of {second.cases}" in card.note


def test_a_second_set_case_shows_its_engine_and_how_it_is_typed(lab):
    """D04 names TensorRT-LLM's DEP8 layout and the layout knob it runs with; D31 its lacking format."""
    lab.case = "D04"
    assert "D04: Qwen3-235B-A22B" in lab.case_text.object
    assert "DEP8" in lab.case_text.object
    assert "layout=dep" in lab.case_text.object
    lab.case = "D31"
    assert "Qwen3-32B" in lab.case_text.object
    assert "fp8/bf16" in lab.case_text.object
    assert "engine=sglang" in lab.case_text.object
    assert "cannot type" in lab.case_text.object
    lab.case = "T3"
    assert "cannot type" not in lab.case_text.object
    assert "batch_limit" not in lab.case_text.object


def test_a_case_whose_command_sets_its_batch_says_so(lab):
    """D336's trtllm-bench command sets its batch: the set-up names the knob and its value, and
    the heading counts its users with separators."""
    lab.case = "D336"
    assert "batch_limit=7,168 (the limit its command sets)" in lab.case_text.object
    assert "7,168 users" in lab.case_text.object


def test_a_case_whose_command_sets_its_memory_share_says_so(lab):
    """D336's command gives the cache 0.93 of free memory: the set-up names the knob and its
    value; T3, whose source sets none, names no share."""
    lab.case = "D336"
    assert "memory_share=0.93 (the share of memory its command gives" in lab.case_text.object
    lab.case = "T3"
    assert "memory_share" not in lab.case_text.object


def test_scatter_markers_tell_the_sets_apart(lab):
    """First-set points are circles, second-set triangles, the unscored cases diamonds."""
    markers = {}
    for points in (lab.throughput_points, lab.latency_points):
        markers.update(zip(points.data["key"], points.data["marker"], strict=True))
    assert markers["T1"] == SET_MARKERS["first"]
    assert markers["D01"] == SET_MARKERS["second"]
    assert markers["D14"] == SET_MARKERS["unscored"]
    assert "D29" in markers  # a whole request's time is on the latency chart
    assert len(markers) == len(report().cases)


def test_a_case_click_takes_well_under_100_ms_of_server_time(lab):
    """Switching cases only reads the report computed once per process: no model evaluation."""
    timings = []
    for key in ("D04", "T10", "D31", "N3", "D29"):
        start = time.perf_counter()
        lab.case = key
        timings.append(time.perf_counter() - start)
    assert sorted(timings)[len(timings) // 2] < 0.1


def test_no_waterfall_label_sits_on_the_measurement_line():
    """Every case's labels stand above a bar that tops out over the line, or hang under one that doesn't."""
    from labs.reality.charts import LABEL_CLEARANCE, waterfall_range, waterfall_ticks

    for steps in report().steps:
        data = waterfall_data(steps)
        for i, top in enumerate(data["top"]):
            if data["label_above"][i]:
                assert top >= 1.0 or top * LABEL_CLEARANCE <= 1.0
            if data["label_below"][i]:
                assert data["bottom"][i] < 1.0 and not data["label_above"][i]
        low, high = waterfall_range(data)
        assert len(waterfall_ticks(low, high)) >= 3


def test_every_engine_term_has_its_own_waterfall_label():
    """The waterfall names each step once: every engine-level term has a short label of its own."""
    from core.engine_level.terms import TERMS
    from labs.reality.charts import SHORT

    assert list(SHORT) == ["whiteboard", "load", *TERMS, "engine"]
    assert len(set(SHORT.values())) == len(SHORT)


def test_the_lab_shows_in_sample_and_held_out_figures_side_by_side(lab):
    """A card states both sets' in-sample and publisher-held-out errors; each family row both."""
    r = report()
    both, held = r.scores["both"]["engine"], r.cross_validated["both"]
    card = next(card for card in lab.cards.cards if "publisher held out" in card.label)
    assert card.value == f"{held.geometric_mean_error:.0%}"
    assert (
        f"in-sample {both.geometric_mean_error:.0%}, {both.within_band} of {both.cases}"
        in card.note
    )
    low, high = held.spread
    assert spread_words(held) in card.note and f"{low:.0%}\u2013{high:.0%}" in card.note
    html = lab.families.object
    for row in r.families:
        for set_name in ("first", "second", "both"):
            assert held_out_text(row.held_out(set_name)) in html
    assert "data-earned" in html and "not yet earned" in html


def test_the_families_table_says_how_far_every_published_first_token_held(lab):
    """Under the table: the engine level's band on every published first token, shown rows too."""
    band = first_token_band()
    html = lab.families.object
    assert "data-first-tokens" in html and f"on all {band.cases} published first tokens" in html
    assert f"{times(band.low)}\u2013{times(band.high)}" in html


def test_a_case_names_its_publisher(lab):
    """The chosen case's set-up says who published it."""
    lab.case = "D25"
    assert "Published by SGLang project" in lab.case_text.object


def test_the_long_parts_fold_and_are_built_only_when_opened(lab):
    """At the defaults every fold is closed and unbuilt; opening the case table builds it, with its rows."""
    folds = (lab.lessons_fold, lab.family_fold, lab.mine_fold, lab.table_fold)
    assert not any(fold.toggle.value or fold.built for fold in folds)
    assert f"All {len(report().cases)} cases" in lab.table_fold.summary.object
    lab.table_fold.toggle.value = True
    assert lab.table_fold.built and lab.table in lab.table_fold.body.objects
    assert not lab.family_fold.built


def test_a_link_with_a_measurement_set_up_opens_your_measurements():
    """A link that sets the set-up for the student's files (my_gpu) opens and builds that fold."""
    from core.scenario.knobs import Scenario
    from labs.widgets.measurements import session_measurements

    scenario = Scenario()
    session_measurements(scenario).gpu = "H200"
    lab = RealityLab(scenario=scenario)
    assert lab.mine_fold.toggle.value and lab.mine_fold.built
    assert not lab.table_fold.built


def test_neighbouring_waterfall_labels_never_touch():
    """No two bars within LABEL_REACH of each other carry labels at nearly one height on one
    side; the whiteboard and engine-level bars always keep theirs."""
    import numpy as np

    from labs.reality.charts import LABEL_NEIGHBOUR, LABEL_REACH

    for steps in report().steps:
        data = waterfall_data(steps)
        below = [bool(text) for text in data["label_below"]]
        heights = np.where(below, data["bottom"], data["top"])
        labelled = [bool(text) for text in data["label"]]
        assert labelled[0] and labelled[-1]
        for i in range(1, len(labelled)):
            for j in range(max(0, i - LABEL_REACH), i):
                if labelled[i] and labelled[j] and below[i] == below[j]:
                    assert abs(np.log(heights[i] / heights[j])) >= np.log(LABEL_NEIGHBOUR)


def test_the_own_build_card_quotes_argonnes_score_and_its_peers_from_core(lab):
    """The sixth card states core's score over Argonne's table and over that release's peers."""
    found = report()
    argonne, peers = found.check_argonne["engine"], found.argonne_peers
    card = next(card for card in lab.cards.cards if "own build" in card.label)
    assert card.value == f"{argonne.geometric_mean_error:.0%}"
    assert card.note.startswith(f"{argonne.within_band} of {argonne.cases} runs of Argonne")
    assert f"{peers.geometric_mean_error:.0%}, {peers.within_band} of {peers.cases}" in card.note


def test_a_case_names_another_publishers_run_of_its_set_up(lab):
    """D118 shows NVIDIA's T1 of the same set-up with its measurement; a case without one shows none."""
    lab.case = "D118"
    assert "data-elsewhere" in lab.case_text.object and "T1 (NVIDIA" in lab.case_text.object
    lab.case = "D29"
    assert "data-elsewhere" not in lab.case_text.object


def test_an_unscored_case_says_its_own_reason(lab):
    """Lambda's D44 says it is one burst, not dstack's early DeepSeek builds."""
    lab.case = "D44"
    assert "burst" in lab.case_text.object and "latent-attention" not in lab.case_text.object


def test_a_run_of_stated_requests_says_them_and_the_users_its_engine_runs(lab):
    """D118's heading names its 1,000 requests and its typing the batch its 2048/2048 engine
    set; D142 and T1 name their runs' requests (1,000, 30,000) alone; S3 states none."""
    short, wide = AZURE[0], AZURE[24]
    lab.case = short.key
    users = short.scenario().concurrency
    assert "1,000 requests at once</h2>" in lab.case_text.object
    assert f"concurrency={users:,} (trtllm-bench" in lab.case_text.object
    assert "built for 2,048/2,048" in lab.case_text.object
    lab.case = wide.key
    assert "1,000 requests at once</h2>" in lab.case_text.object
    assert "concurrency=" not in lab.case_text.object
    lab.case = "T1"
    assert "30,000 requests at once</h2>" in lab.case_text.object
    lab.case = "S3"
    assert "requests at once</h2>" not in lab.case_text.object


def test_tiles_are_coloured_by_their_stated_target_never_by_a_default(lab):
    """Each engine tile's note states its target and is 'met' or 'missed' by it; the
    whiteboard's (held to none) is uncoloured; no tile says 'better/worse than the default'."""
    tones = {card.label: card.tone for card in lab.cards.cards}
    assert tones["whiteboard: typical miss, first set"] == ""
    engine_cards = [card for card in lab.cards.cards if not card.label.startswith("whiteboard")]
    for card in engine_cards:
        assert card.tone in ("met", "missed")
        assert "target \u2264" in card.note
    second = report().scores["second"]["engine"]
    second_card = next(card for card in engine_cards if "second set" in card.label)
    assert second_card.tone == target_tone(
        DEVELOPMENT_TARGET, second.geometric_mean_error, second.within_share
    )


def test_a_tile_above_its_target_reads_missed():
    """A typical miss over the target, or too few cases in the band, is 'missed'."""
    assert target_tone(DEVELOPMENT_TARGET, 0.149, 0.80) == "met"
    assert target_tone(DEVELOPMENT_TARGET, 0.151, 0.95) == "missed"
    assert target_tone(DEVELOPMENT_TARGET, 0.10, 0.79) == "missed"
    assert target_words(DEVELOPMENT_TARGET) == "target \u226415%, \u226580% within"
