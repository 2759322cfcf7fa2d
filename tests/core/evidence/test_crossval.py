"""Leave-one-publisher-out: the folds, the publisher weighting, and the bands read from them."""

import numpy as np
import pytest
from numpy.testing import assert_allclose

from core import Scenario
from core.evidence.check_cases import CHECK
from core.evidence.crossval import (
    FITTED_ON_ROWS,
    RESAMPLE_SEED,
    RESAMPLES,
    cross_validated,
    cross_validated_band,
    held_out_ratios,
    publisher_weights,
    resampled_spread,
    training_folds,
    weighted_quantiles,
)
from core.evidence.families import is_mixture, vendor
from core.evidence.fidelity import PUBLISHED, report
from core.evidence.level_gap import first_token_band, trust_band
from core.evidence.publishers import PUBLISHERS, publisher_of

# A tiny hand-made set: publisher A has three cases, B one, C two.
TINY_PUBLISHERS = ["A", "A", "A", "B", "C", "C"]
TINY_RATIOS = np.array([1.0, 1.1, 0.9, 2.0, 0.5, 1.0])


def test_every_case_names_one_known_publisher():
    """Every published and check case's source names a publisher; an unknown source is refused."""
    known = {name for _, name in PUBLISHERS}
    assert {case.publisher for case in [*PUBLISHED, *CHECK]} <= known
    assert {case.publisher for case in CHECK} == {"NVIDIA TensorRT-LLM docs"}
    with pytest.raises(ValueError, match="publisher"):
        publisher_of("a blog nobody has heard of")


def test_copies_of_a_page_share_its_publisher_and_a_blog_is_its_own():
    """NVIDIA's perf overview and its forks are one publisher; dstack's SGLang runs are dstack's."""
    by_key = {case.key: case.publisher for case in PUBLISHED}
    assert by_key["T1"] == by_key["O1"] == by_key["D01"] == by_key["D08"] == by_key["D09"]
    assert by_key["S1"] == by_key["D21"] == by_key["D25"] != by_key["T1"]
    assert by_key["D11"] == "dstack" and by_key["N1"] != by_key["T1"]
    assert len({by_key[key] for key in ("D16", "D29", "D32", "D33")}) == 4


def test_no_fold_sees_the_publisher_it_holds_out():
    """Each fold's training cases are exactly the other publishers'; its refit never sees its own."""
    folds = training_folds(TINY_PUBLISHERS)
    assert folds.shape == (3, 6)
    seen = []

    def refit(train):
        seen.append(train.copy())
        # a model that fits one scale, the training cases' geometric-mean ratio, and divides by it
        logs = np.log(TINY_RATIOS)
        scale = np.exp((train @ logs) / train.sum(axis=1))
        return TINY_RATIOS[None, :] / scale[:, None]

    held = held_out_ratios(TINY_PUBLISHERS, TINY_RATIOS, refit)
    (train,) = seen
    owners = np.array(TINY_PUBLISHERS)
    for row, publisher in enumerate(["A", "B", "C"]):
        assert not train[row, owners == publisher].any()
        assert train[row, owners != publisher].all()
    # case 3 (B's only) is scaled by A's and C's geometric mean, never by its own ratio
    others = np.log(TINY_RATIOS[[0, 1, 2, 4, 5]]).mean()
    assert held[3] == pytest.approx(2.0 / np.exp(others))


def test_with_nothing_fitted_each_fold_is_the_model_as_it_stands():
    """No refit: held-out ratios are the in-sample ones, and the engine level declares nothing fitted."""
    assert FITTED_ON_ROWS == ()
    assert_allclose(held_out_ratios(TINY_PUBLISHERS, TINY_RATIOS), TINY_RATIOS)
    assert_allclose(report().held_out, report().steps[:, -1])


def test_the_publisher_weighted_score_gives_each_publisher_one_vote():
    """On the tiny set: the error is the mean of the three publishers' own mean |ln r|."""
    result = cross_validated(TINY_RATIOS, TINY_PUBLISHERS)
    logs = np.abs(np.log(TINY_RATIOS))
    own = [logs[:3].mean(), logs[3], logs[4:].mean()]
    assert result.geometric_mean_error == pytest.approx(np.exp(np.mean(own)) - 1)
    # within x0.80-x1.25: all of A, none of B, half of C
    assert result.within_share == pytest.approx((1 + 0 + 0.5) / 3)
    assert result.publishers == 3 and result.cases == 6
    assert result.by_publisher["B"] == pytest.approx(1.0)
    assert publisher_weights(TINY_PUBLISHERS).sum() == pytest.approx(1.0)


def test_the_spread_redraws_whole_publishers_with_replacement():
    """On the tiny set: the spread is the 5th-95th percentile of the error over publishers drawn
    again (each draw three of A, B, C), drawn from one seed, so it is the same figure every time."""
    result = cross_validated(TINY_RATIOS, TINY_PUBLISHERS)
    logs = np.abs(np.log(TINY_RATIOS))
    own = np.array([logs[:3].mean(), logs[3], logs[4:].mean()])
    drawn = np.random.default_rng(RESAMPLE_SEED).integers(0, 3, size=(RESAMPLES, 3))
    expected = np.exp(np.percentile(own[drawn].mean(axis=1), [5, 95])) - 1
    assert_allclose(result.spread, expected)
    assert result.spread == cross_validated(TINY_RATIOS, TINY_PUBLISHERS).spread
    low, high = result.spread
    assert low < result.geometric_mean_error < high
    # the draws are of publishers: B alone (ln 2) is every draw's error, A's three cases count once
    assert resampled_spread([np.log(2.0)]) == pytest.approx((1.0, 1.0))


def test_the_spread_of_both_sets_holds_the_held_out_error_inside_the_publishers_range():
    """Over both sets the spread brackets the held-out error and lies inside the range of the
    publishers' own errors; four times as many publishers erring alike spread it about half as
    wide (a bootstrap's spread shrinks as the square root of what it redraws)."""
    both = report().cross_validated["both"]
    low, high = both.spread
    own = np.log1p(list(both.by_publisher.values()))
    assert np.expm1(own.min()) < low < both.geometric_mean_error < high < np.expm1(own.max())
    wide = np.subtract(*np.log1p(resampled_spread(own))[::-1])
    narrow = np.subtract(*np.log1p(resampled_spread(np.tile(own, 4)))[::-1])
    assert narrow == pytest.approx(wide / 2, rel=0.15)


def test_a_publisher_weighted_score_is_refused_for_bad_ratios():
    """Empty sets, mismatched lengths and non-positive ratios raise ValueError."""
    for ratios, publishers in (([], []), ([1.0], ["A", "B"]), ([0.0], ["A"])):
        with pytest.raises(ValueError):
            cross_validated(ratios, publishers)


def test_weighted_quantiles_count_each_value_by_its_weight():
    """A value holding half the weight holds the middle; equal weights read between neighbours."""
    assert weighted_quantiles([1.0, 2.0, 3.0], [1, 2, 1], 0.5) == pytest.approx(2.0)
    assert weighted_quantiles([1.0, 3.0], [1, 1], 0.5) == pytest.approx(2.0)
    assert weighted_quantiles([1.0, 3.0], [1, 1], [0.0, 1.0]) == pytest.approx([1.0, 3.0])


def test_the_report_keeps_cross_validated_scores_beside_in_sample_ones():
    """Each set's and family's held-out score is cross_validated() over its scored cases."""
    r = report()
    for name, rows in r.sets.items():
        expected = cross_validated(r.held_out[list(rows)], [r.publishers[i] for i in rows])
        assert r.cross_validated[name] == expected
    every = next(row for row in r.families if row.family == "every case")
    assert every.held_out("both") == r.cross_validated["both"]
    amd = next(row for row in r.families if row.family == "AMD")
    assert amd.held_out("first") is None


@pytest.mark.parametrize("model", [None, "gpt-oss-120b"])
def test_the_trust_band_comes_from_the_cross_validated_ratios(model):
    """The engine note's band is the publisher-weighted 10th-90th of the family's held-out ratios."""
    scenario = Scenario() if model is None else Scenario(model=model)
    band = trust_band(scenario)
    r = report()
    mixture = model is not None
    rows = [
        i for i in r.sets["both"]
        if is_mixture(r.cases[i]) == mixture and vendor(r.cases[i]) == "NVIDIA"
    ]  # fmt: skip
    publishers = [r.publishers[i] for i in rows]
    assert (band.low, band.high) == cross_validated_band(r.held_out[rows], publishers)
    assert band.cases == len(rows) and band.publishers == len(set(publishers))


def test_the_first_tokens_band_counts_every_published_first_token_shown_rows_too():
    """Every published time to first token, scored or shown, and no other figure: a band wider
    than the scored ones alone give (they sit within a few per cent; shown rows read far lower)."""
    found = report()
    first = [i for i, case in enumerate(found.cases) if case.metric == "ttft"]
    band = first_token_band()
    assert band.cases == len(first) > len(set(first) & set(found.sets["both"]))
    assert band.publishers == len({found.publishers[i] for i in first})
    scored = [i for i in first if i in set(found.sets["both"])]
    low, high = cross_validated_band(found.held_out[scored], [found.publishers[i] for i in scored])
    assert band.low < low <= high and band.low < 0.5
