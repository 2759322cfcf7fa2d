"""Leave-one-publisher-out: what an unseen publisher's measurements should expect of a level.

An in-sample score judges a model on the rows it was built beside. Cross validation holds out
one publisher (:mod:`core.evidence.publishers`) at a time: whatever the model fits on published
rows is refitted on every other publisher's cases (:func:`held_out_ratios`), and the held-out
cases are scored with that fold's model. The folds are then weighted by publisher, each one
vote (:func:`cross_validated`), so a 25-row table from one publisher cannot carry the mean:
the figure is what the next publisher, with its own load generator, lengths and build, should
expect.

What the engine level fits on published rows (:data:`FITTED_ON_ROWS`): nothing. An audit of
``core/engine_level/``, ``core/catalog/kernels.py`` and ``bench/moe_kernel_fit.py`` (issue 37)
found every figure read from a kernel table (aiconfigurator's MoE tables, refitted by
``bench/moe_kernel_fit.py`` on kernel microbenchmarks only), a datasheet, an engine's code or
documented default, or a published profile (host step, all-reduce latency, vLLM's per-layer
dispatch from aiconfigurator's own vLLM corpus), never a development-set row. So each fold's
model is the engine level itself, and the cross-validated figure differs from the in-sample
one by the publisher weighting alone. That is not a clean bill: terms and constants were chosen
by people who had the development sets' rows in front of them, which no refit undoes; the gap
between the in-sample figure and the publisher-weighted one, and between either and the hidden
sets', is the visible part of that tuning.

The held-out figure is itself an estimate from a dozen publishers, and another dozen would give
another figure: :func:`resampled_spread` redraws the publishers (a bootstrap over publishers)
and keeps the middle nine tenths of the errors they give, the error bar on the error.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from core.evidence.scores import within_band

FITTED_ON_ROWS: tuple[str, ...] = ()
"""Engine-level figures fitted or calibrated on the development sets' published rows (none)."""

AUDIT = (
    "nothing in the engine level is fitted on the published rows (core/engine_level/, "
    "core/catalog/kernels.py, dense_gemms.py and attention_kernels.py, fitted by "
    "bench/moe_kernel_fit.py, dense_gemm_fit.py, attention_fit.py, prefill_attention_fit.py, "
    "mla_module_fit.py, aiter_moe_fit.py, aiter_gemm_fit.py, aiter_attention_fit.py and "
    "rocm_triton_moe_fit.py: kernel tables, datasheets, engine code, published profiles), so "
    "each fold's model is the engine level "
    "itself and the held-out figure differs from the in-sample one by weighting each "
    "publisher alike; choices people made while looking at the rows are not undone by this, "
    "and the gap shows part of them"
)
"""The audit in one sentence, as ``bench/fidelity.py`` prints it."""

# The share of a family's published cases its trust band holds (10th to 90th percentile).
BAND_SHARE = 0.8
# The error's own spread: the share of publisher resamples it holds (5th to 95th percentile),
# over this many resamples, drawn from this seed so the page and the bench print one figure.
RESAMPLE_SHARE = 0.9
RESAMPLES = 4000
RESAMPLE_SEED = 37


def publisher_index(publishers) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The distinct publishers, each case's index among them, and each publisher's case count."""
    names, owner, counts = np.unique(
        np.asarray(publishers, dtype=str), return_inverse=True, return_counts=True
    )
    return names, owner, counts


def training_folds(publishers) -> np.ndarray:
    """One row per publisher: which cases its fold may fit on (every other publisher's).

    Notes
    -----
    .. math:: M_{pi} = [\\,p(i) \\ne p\\,]

    for publisher :math:`p` (in :func:`publisher_index`'s order) and case :math:`i`.
    """
    names, owner, _ = publisher_index(publishers)
    return owner[None, :] != np.arange(names.size)[:, None]


def held_out_ratios(publishers, ratios, refit: Callable | None = None) -> np.ndarray:
    """Each case's prediction / measurement from the fold that never saw its publisher.

    Parameters
    ----------
    publishers : sequence of str
        Each case's publisher.
    ratios : array_like
        Each case's prediction / measurement by the model as it stands (in-sample).
    refit : callable, optional
        ``refit(folds)`` takes :func:`training_folds` (a boolean matrix, a row per fold) and
        returns every case's ratio under each fold's refitted model, one row per fold. ``None``
        where the model fits nothing on published rows (:data:`FITTED_ON_ROWS`): every fold's
        model is the model as it stands.

    Returns
    -------
    numpy.ndarray
        Case :math:`i`'s ratio from the fold of its own publisher: :math:`r_{p(i), i}`.
    """
    ratios = np.asarray(ratios, dtype=float)
    if refit is None:
        held = ratios.copy()
    else:
        _, owner, _ = publisher_index(publishers)
        refitted = np.asarray(refit(training_folds(publishers)), dtype=float)
        held = refitted[owner, np.arange(ratios.size)]
    held.setflags(write=False)
    return held


def publisher_weights(publishers) -> np.ndarray:
    """Each case's weight when every publisher has one vote, shared among its cases.

    Notes
    -----
    .. math:: w_i = \\frac{1}{P \\, n_{p(i)}}

    with :math:`P` publishers and :math:`n_p` cases of publisher :math:`p`; they sum to one.
    """
    names, owner, counts = publisher_index(publishers)
    return 1.0 / (names.size * counts[owner])


@dataclass(frozen=True)
class CrossValidated:
    """A level's leave-one-publisher-out score over a set of cases, each publisher one vote."""

    geometric_mean_error: float  # exp(publisher-weighted mean |ln ratio|) - 1
    within_share: float  # publisher-weighted share of cases within the band
    cases: int
    publishers: int
    by_publisher: dict[str, float]  # each held-out publisher's own geometric-mean error
    spread: tuple[float, float]  # (low, high): the error over redrawn publishers


def cross_validated(held_out, publishers) -> CrossValidated:
    """The publisher-weighted score of held-out ratios (:func:`held_out_ratios`).

    Raises
    ------
    ValueError
        For no ratios, one that is not positive and finite, or a publisher count that differs.

    Notes
    -----
    Each publisher's cases are scored by the fold that never saw them; each publisher counts
    once (:func:`publisher_weights`):

    .. math:: e_{CV} = \\exp\\Big(\\sum_i w_i |\\ln r_i|\\Big) - 1, \\quad
              s_{CV} = \\sum_i w_i\\,[0.8 \\le r_i \\le 1.25]
    """
    ratios = np.asarray(held_out, dtype=float)
    publishers = np.asarray(publishers, dtype=str)
    if ratios.size == 0 or ratios.shape != publishers.shape:
        raise ValueError("held-out ratios and publishers must be non-empty and of one length")
    if not np.all(np.isfinite(ratios) & (ratios > 0)):
        raise ValueError(f"ratios must be positive finite numbers; got {ratios!r}")
    names, owner, counts = publisher_index(publishers)
    weights = publisher_weights(publishers)
    logs = np.abs(np.log(ratios))
    own_logs = np.bincount(owner, logs) / counts
    own = np.exp(own_logs) - 1.0
    return CrossValidated(
        geometric_mean_error=float(np.exp(np.sum(weights * logs)) - 1.0),
        within_share=float(np.sum(weights * within_band(ratios))),
        cases=int(ratios.size),
        publishers=int(names.size),
        by_publisher={str(name): float(error) for name, error in zip(names, own, strict=True)},
        spread=resampled_spread(own_logs),
    )


def resampled_spread(own_logs, share: float = RESAMPLE_SHARE, draws: int = RESAMPLES,
                     seed: int = RESAMPLE_SEED) -> tuple[float, float]:  # fmt: skip
    """How far the publisher-weighted error moves when the publishers are drawn again.

    ``own_logs``: each publisher's mean :math:`|\\ln r|`. A publisher bootstrap: ``draws`` times,
    :math:`P` publishers are drawn from the :math:`P` with replacement and the error is taken
    over the drawn ones, each counting once; the spread is the middle ``share`` of those
    errors (the 5th to the 95th percentile for 0.9). The unit redrawn is the publisher, not
    the case, because the next publisher, with its own load generator and build, is what the
    held-out figure stands for. The seed is fixed, so every page gives the same figure.

    Notes
    -----
    .. math:: e^{(b)} = \\exp\\Big(\\frac{1}{P} \\sum_{j=1}^{P} \\bar\\ell_{p_{bj}}\\Big) - 1,
              \\quad p_{bj} \\sim U\\{1..P\\}
    """
    own_logs = np.asarray(own_logs, dtype=float)
    drawn = np.random.default_rng(seed).integers(0, own_logs.size, size=(draws, own_logs.size))
    tail = 100.0 * (1.0 - share) / 2.0
    low, high = np.percentile(np.mean(own_logs[drawn], axis=1), [tail, 100.0 - tail])
    return float(np.exp(low) - 1.0), float(np.exp(high) - 1.0)


def weighted_quantiles(values, weights, quantiles) -> np.ndarray:
    """Quantiles of ``values`` where each counts by its weight (the midpoint rule).

    Notes
    -----
    Sorted, value :math:`k` sits at the middle of its weight, :math:`c_k = (\\sum_{j \\le k}
    w_j - w_k / 2) / \\sum_j w_j`, and a quantile is read between neighbours linearly (held
    at the ends). Equal weights give the percentile of the values' midpoints.
    """
    values = np.asarray(values, dtype=float)
    order = np.argsort(values)
    ordered, weight = values[order], np.asarray(weights, dtype=float)[order]
    middle = (np.cumsum(weight) - weight / 2.0) / np.sum(weight)
    return np.interp(np.asarray(quantiles, dtype=float), middle, ordered)


def cross_validated_band(held_out, publishers, share: float = BAND_SHARE) -> tuple[float, float]:
    """The band that held ``share`` of held-out cases, each publisher weighted alike.

    Notes
    -----
    From the :math:`(1 - s)/2` to the :math:`(1 + s)/2` quantile of the held-out ratios,
    weighted by :func:`publisher_weights` (:func:`weighted_quantiles`): the 10th to the 90th
    for :math:`s = 0.8`.
    """
    tail = (1.0 - share) / 2.0
    low, high = weighted_quantiles(held_out, publisher_weights(publishers), [tail, 1.0 - tail])
    return float(low), float(high)
