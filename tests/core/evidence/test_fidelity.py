"""The engine level against published engine measurements, and the whiteboard left as it was."""

from dataclasses import replace

import numpy as np
import pytest
from numpy.testing import assert_allclose

from core import Scenario, evaluate
from core.engine_level.terms import ALL_TERMS, TERMS
from core.evaluate import evaluate_terms
from core.evidence.cases import DEVELOPMENT, ENGINES, SATURATED_SEATS
from core.evidence.cases_2026 import SCORED_SECOND, SECOND
from core.evidence.check_cases import CHECK
from core.evidence.configs import QWEN3_32B_FP8
from core.evidence.families import FAMILIES, is_mixture, vendor
from core.evidence.fidelity import (
    BAND,
    predict,
    predictions,
    report,
    score,
    waterfall,
    with_terms,
)
from core.evidence.scores import summarise


def test_engine_level_meets_the_development_set():
    """Geometric-mean error at most 20 % and at least 20 of 25 cases within x0.80 to x1.25."""
    result = score(DEVELOPMENT, "engine")
    assert result.cases == 25
    assert result.geometric_mean_error <= 0.20
    assert result.within_band >= 20


def test_engine_level_generalises_to_cases_it_was_not_built_on():
    """On the held-apart check set: error at most 25 % and three cases in four within the band."""
    result = score(CHECK, "engine")
    assert result.cases > 200
    assert result.geometric_mean_error <= 0.25
    assert result.within_band >= 0.75 * result.cases


def test_engine_level_beats_the_whiteboard_on_published_cases():
    """The whiteboard misses by far more: that gap is the lesson of the Reality check lab."""
    engine = score(DEVELOPMENT, "engine").geometric_mean_error
    whiteboard = score(DEVELOPMENT, "whiteboard").geometric_mean_error
    assert whiteboard > 2 * engine


def test_the_issue_example_prompt_heavy_row():
    """T3's exact API call: the whiteboard treats prefill as free, the engine level does not."""
    knobs = dict(
        model="Llama-3-8B", gpu="H100 SXM", cards=1, weight_dtype="fp8", kv_dtype="fp8",
        seats=4096, prompt_tokens=2048, answer_tokens=128, prefix_hit_rate=0.0,
        concurrency=100_000,
    )  # fmt: skip
    engine = evaluate(Scenario(realism="engine", **knobs)).throughput_tokens_per_s
    whiteboard = evaluate(Scenario(**knobs)).throughput_tokens_per_s
    measured = next(case for case in DEVELOPMENT if case.key == "T3").measured
    assert BAND[0] <= engine / measured <= BAND[1]
    assert whiteboard / measured > 3


def test_waterfall_runs_from_the_whiteboard_to_the_engine_level():
    """First bar is the whiteboard's figure, last is the engine level's, one bar per term between."""
    for case in DEVELOPMENT:
        steps = waterfall(case)
        assert steps[0].value == pytest.approx(predict(case, "whiteboard"))
        assert steps[-1].value == pytest.approx(predict(case, "engine"))
        assert [step.term for step in steps[2:]] == list(TERMS)


def test_engine_level_without_terms_is_the_whiteboard_under_a_benchmark_load():
    """With every term off, a saturated closed loop gives the whiteboard's own throughput."""
    for case in DEVELOPMENT:
        if case.load == "saturated":
            assert with_terms((case,), ())[0] == pytest.approx(predict(case, "whiteboard"))


@pytest.mark.parametrize("term", list(TERMS))
def test_every_term_moves_some_published_case(term):
    """No term is dead weight: dropping it changes at least one case by 1 %.

    The cases are both development sets and the first set's mixture of experts served to a
    single user, where a step touches two experts of eight (a full batch touches them all).
    """
    mixtral = next(case for case in DEVELOPMENT if case.model == "Mixtral-8x7B")
    alone = replace(mixtral, metric="itl", load="users", load_value=1)
    cases = (*DEVELOPMENT, *SCORED_SECOND, alone)
    moved = with_terms(cases, ALL_TERMS - {term}) / predictions(cases, "engine")
    assert np.max(np.abs(np.log(moved))) > 0.01


def test_whiteboard_is_the_default_and_unchanged_by_the_engine_knobs():
    """realism defaults to the whiteboard, and the seed figures do not depend on concurrency."""
    default = evaluate(Scenario())
    explicit = evaluate(Scenario(realism="whiteboard", concurrency=None))
    assert default == explicit
    assert Scenario().realism == "whiteboard"


def test_more_users_never_lower_throughput_and_never_speed_up_tokens():
    """Closed-loop users add throughput until the seats run out, and stretch the time between tokens."""
    users = np.array([1, 2, 5, 10, 25, 50, 100, 400, 1000])
    r = evaluate(Scenario(realism="engine", tier="large", prompt_tokens=4000), concurrency=users)
    assert np.all(np.diff(r.throughput_tokens_per_s) >= -1e-6)
    assert np.all(np.diff(r.itl_s) >= -1e-12)


def test_engine_sweep_equals_scalar_evaluations():
    """The engine level vectorises: one array call gives each scenario's own figures."""
    seats = np.array([1, 8, 64, 512])
    swept = evaluate(Scenario(realism="engine"), seats=seats)
    for index, value in enumerate(seats):
        alone = evaluate(Scenario(realism="engine", seats=int(value)))
        assert_allclose(swept.throughput_tokens_per_s[index], alone.throughput_tokens_per_s)
        assert_allclose(swept.ttft_p95_s[index], alone.ttft_p95_s)


def test_terms_evaluated_all_at_once_are_the_engine_level():
    """evaluate_terms with every term is exactly realism='engine'."""
    scenario = Scenario(tier="large", seats=64)
    assert evaluate_terms(scenario, ALL_TERMS) == evaluate(scenario, realism="engine")


@pytest.mark.parametrize(("knob", "value"), [("realism", "magic"), ("concurrency", 0)])
def test_bad_engine_knobs_name_the_knob_and_the_range(knob, value):
    """A bad realism or concurrency raises ValueError naming the knob and what is allowed."""
    with pytest.raises(ValueError, match=knob):
        evaluate(Scenario(), **{knob: value})


def test_a_benchmark_runs_at_the_engines_batch_limit_not_the_pool_dial():
    """50 closed-loop users all run on an engine even with the pool's dial at 16 seats."""
    knobs = dict(
        model="Llama-3-70B",
        cards=2,
        weight_dtype="fp8",
        kv_dtype="fp8",
        prompt_tokens=5000,
        answer_tokens=500,
        realism="engine",
    )
    dial = evaluate(Scenario(seats=16, concurrency=50, **knobs))
    wide = evaluate(Scenario(seats=4096, concurrency=50, **knobs))
    assert dial.running_requests == wide.running_requests == 50
    assert dial.itl_s == pytest.approx(wide.itl_s)


# -- the second development set and the scores per family ---------------------------------


def test_second_set_is_the_files_487_cases_346_scored_each_with_its_source():
    """D01-D487 in order, D11-D15, D44-D66, D67-D74, D154-D164, D166-D205, D210-D213,
    D217-D219, D322, D328, D331, D413-D442, D447-D452, D459-D461, D468-D469 and D476-D478 shown
    but not scored, each with its source and row."""
    assert [case.key for case in SECOND] == [f"D{n:02d}" for n in range(1, 488)]
    unscored = [*range(11, 16), *range(44, 75), *range(154, 165), *range(166, 206),
                *range(210, 214), *range(217, 220), 322, 328, 331, *range(413, 443),
                *range(447, 453), *range(459, 462), 468, 469, *range(476, 479)]  # fmt: skip
    assert [case.key for case in SECOND if not case.scored] == [f"D{n}" for n in unscored]
    assert [case for case in SECOND if case.scored] == SCORED_SECOND
    assert len(SCORED_SECOND) == 346
    for case in SECOND:
        assert case.source and case.quoted and case.engine in ENGINES


@pytest.mark.parametrize(
    ("key", "knobs"),
    [
        ("D01", dict(model="gpt-oss-120b", gpu="H200", cards=1, weight_dtype="mxfp4",
                     kv_dtype="bf16", prompt_tokens=8192, answer_tokens=1024, seats=4096,
                     concurrency=1500, run_requests=1500, engine_version="1.0")),
        ("D17", dict(model="Llama-3-8B", gpu="H100 SXM", cards=1, weight_dtype="bf16",
                     kv_dtype="fp8", prompt_tokens=20000, answer_tokens=2000, seats=1024,
                     concurrency=8, engine="vllm", engine_version="0.19")),
        ("D31", dict(model="custom", model_config=QWEN3_32B_FP8, gpu="H20", cards=1,
                     weight_dtype="fp8", kv_dtype="bf16", prompt_tokens=1, answer_tokens=2048,
                     seats=2048, concurrency=1, engine="sglang", engine_version="0.4",
                     memory_share=0.85)),
    ],
)  # fmt: skip
def test_a_second_set_case_is_the_files_scenario_call(key, knobs):
    """The case's scenario is published-2026.md's Scenario call, knob for knob, with its engine,
    the release that ran it, that release's batch limit as its seats, the checkpoint that ran
    (D31: Qwen3-32B-FP8's block-scaled config.json) and the requests its run sent (D01's 1,500,
    from its page's table)."""
    case = next(case for case in SECOND if case.key == key)
    expected = Scenario(prefix_hit_rate=0.0, realism="engine", **knobs)
    assert case.scenario().param.values() | {"name": ""} == expected.param.values() | {"name": ""}


def test_every_second_set_case_fits_and_predicts_a_positive_figure():
    """Each case's weights fit its node and both levels give a finite positive figure."""
    for case in SECOND:
        assert evaluate(case.scenario()).weights_fit, case.key
    for level in ("whiteboard", "engine"):
        figures = predictions(SECOND, level)
        assert np.all(np.isfinite(figures) & (figures > 0))


def test_batched_predictions_equal_one_case_at_a_time():
    """The vectorised call gives each case its own figure, the pasted Qwen3-32B config included."""
    batched = predictions(SECOND, "engine")
    assert_allclose(batched, [predict(case, "engine") for case in SECOND], rtol=1e-12)


def test_cases_run_with_their_engine_and_layout():
    """A case's engine and layout are knobs of its scenario; only undescribed formats stay pending."""
    by_key = {case.key: case for case in (*DEVELOPMENT, *SECOND)}
    assert by_key["D04"].scenario().layout == "dep"
    assert by_key["D15"].scenario().layout == "ep"
    assert by_key["D21"].scenario().engine == "sglang"
    assert by_key["D16"].scenario().engine == "vllm"
    assert by_key["T1"].scenario().engine == "tensorrt-llm"
    assert by_key["D21"].pending_knobs == {}  # gpt-oss's bf16 tensors are the catalog's
    assert set(by_key["D30"].pending_knobs) == {"weight_formats"}
    assert by_key["D17"].storage == "bf16/fp8"


def test_report_scores_the_first_set_as_score_does():
    """The report's first-set figures are score()'s over DEVELOPMENT, at both levels."""
    for level in ("whiteboard", "engine"):
        direct = score(DEVELOPMENT, level)
        reported = report().scores["first"][level]
        assert reported.cases == direct.cases == 25
        assert reported.within_band == direct.within_band
        assert reported.geometric_mean_error == pytest.approx(direct.geometric_mean_error)
    assert report().development is report().scores["first"]


def test_report_scores_the_second_set_without_its_unscored_cases():
    """Second set: the 346 scored cases; both sets: the 371 of the two, scored as one."""
    r = report()
    for level in ("whiteboard", "engine"):
        direct = score(SCORED_SECOND, level)
        assert r.scores["second"][level].cases == 346
        assert r.scores["second"][level].geometric_mean_error == pytest.approx(
            direct.geometric_mean_error
        )
        both = score([*DEVELOPMENT, *SCORED_SECOND], level)
        assert r.scores["both"][level].cases == 371
        assert r.scores["both"][level].within_band == both.within_band


@pytest.mark.parametrize("set_name", ["first", "second", "both"])
def test_each_familys_score_is_the_score_of_its_own_cases(set_name):
    """A family's row is score() over the set's scored cases that share its trait."""
    members = {
        "first": DEVELOPMENT,
        "second": SCORED_SECOND,
        "both": [*DEVELOPMENT, *SCORED_SECOND],
    }[set_name]
    rows = {row.family: row for row in report().families}
    assert set(rows) == set(FAMILIES)
    for family, (_dimension, belongs) in FAMILIES.items():
        cases = [case for case in members if belongs(case)]
        reported = rows[family].score(set_name, "engine")
        if not cases:
            assert reported is None
            continue
        assert reported.cases == len(cases)
        assert reported.geometric_mean_error == pytest.approx(
            score(cases, "engine").geometric_mean_error
        )


def test_families_split_the_cases_by_their_traits():
    """Dense and mixture, NVIDIA and AMD, the three engines, throughput and latency: each a split."""
    cases = [*DEVELOPMENT, *SECOND]
    for dimension in ("model", "card", "engine", "figure"):
        tests = [belongs for kind, belongs in FAMILIES.values() if kind == dimension]
        assert all(sum(belongs(case) for belongs in tests) == 1 for case in cases), dimension
    assert is_mixture(next(case for case in SECOND if case.key == "D01"))
    assert not is_mixture(next(case for case in SECOND if case.key == "D31"))
    assert vendor(next(case for case in SECOND if case.key == "D33")) == "AMD"


@pytest.mark.parametrize("ratios", [[], [1.0, 0.0], [1.0, float("nan")], [-1.0]])
def test_summarise_refuses_ratios_that_are_not_positive_numbers(ratios):
    """No ratios, a zero, a NaN or a negative ratio raise ValueError naming the ratios."""
    with pytest.raises(ValueError, match="ratios"):
        summarise(ratios)


def test_the_report_is_computed_once_and_cannot_be_changed():
    """report() returns one object per process whose arrays are read-only."""
    assert report() is report()
    with pytest.raises(ValueError):
        report().steps[0, 0] = 1.0
    with pytest.raises(ValueError):
        report().scores["first"]["engine"].ratios[0] = 1.0


def test_a_benchmark_runs_at_its_engines_own_batch_limit():
    """vLLM 0.6's benchmark runs at most max_num_seqs (256); trtllm-bench sizes its own batch."""
    cases = {case.key: case for case in SECOND}
    assert cases["D37"].version_knob == "0.6" and cases["D37"].scenario().seats == 256
    assert cases["D04"].scenario().seats == SATURATED_SEATS
    assert evaluate(cases["D37"].scenario()).running_requests <= 256


def test_a_command_that_sets_max_num_seqs_gives_the_case_that_batch_limit():
    """D220 (AMD's 3,200 prompts at --max-num-seqs 3200) runs them all at once where the
    release's default would hold 256; the same row without its command's limit runs 256."""
    case = {case.key: case for case in SECOND}["D220"]
    assert case.max_seqs == case.requests == 3200 and case.scenario().seats == 3200
    assert evaluate(case.scenario()).running_requests == pytest.approx(3200)
    default = replace(case, max_seqs=0)
    assert default.scenario().seats == 256
    assert evaluate(default.scenario()).running_requests <= 256


def test_a_check_sets_run_of_a_set_up_is_found_too():
    """D80 (AMD's run of TensorRT-LLM 0.16 on eight H100) names NVIDIA's own TensorRT-LLM 1.0
    table's cell of the same set-up (the fourth check set), which measured more."""
    found = report()
    keys = [case.key for case in found.cases]
    runs = found.elsewhere[keys.index("D80")]
    assert [other.key for other, _ in runs] == ["v1.0 page, Llama-3.1-405B H100 SXM TP8 128/4096"]
    (other, ratio), case = runs[0], found.cases[keys.index("D80")]
    assert ratio == pytest.approx(other.measured / case.measured) and ratio > 1.25


def test_every_unscored_case_says_why_it_is_left_out():
    """Each case shown but not scored carries its own reason: dstack's early builds, Lambda's burst."""
    unscored = [case for case in SECOND if not case.scored]
    assert unscored and all(len(case.unscored_why) > 20 for case in unscored)
    reasons = {case.key: case.unscored_why for case in unscored}
    assert "DeepSeek-R1" in reasons["D11"] and "burst" in reasons["D44"]


def test_another_publishers_run_of_a_set_up_is_found_with_its_ratio():
    """T1 (NVIDIA, TensorRT-LLM 0.17) and D118 (Azure, 0.15) are one set-up: each names the other,
    with the ratio of the two measurements; a case never names its own publisher's rows."""
    found = report()
    keys = [case.key for case in found.cases]
    t1, d118 = found.cases[keys.index("T1")], found.cases[keys.index("D118")]
    assert [(other.key, ratio) for other, ratio in found.elsewhere[keys.index("T1")]] == [
        ("D118", pytest.approx(d118.measured / t1.measured))
    ]
    assert [other.key for other, _ in found.elsewhere[keys.index("D118")]] == [
        "T1",
        "v1.0 page, Llama-3-8B H100 SXM TP1 128/128",
    ]
    for case, runs in zip(found.cases, found.elsewhere, strict=True):
        assert all(other.publisher != case.publisher for other, _ in runs)
