"""The throughput-latency frontier: batch size x node size x precision in one evaluation.

A serving engineer reads a design space as a curve: output tokens per second each card earns
against the tokens per second each user sees. Every configuration is driven as a benchmark
drives one node (as many closed-loop users as the batch has seats); the Pareto frontier keeps
the configurations no other beats on both axes. Each level of detail draws its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields

import numpy as np

from core.catalog.custom import scenario_gpu
from core.evaluate import evaluate
from core.scenario.knobs import REALISMS, Scenario

SECONDS_PER_HOUR = 3600.0
PER_MILLION = 1e6
# Batch sizes a frontier tries: a geometric ladder inside the pool lab's batch-size range.
FRONTIER_SEATS = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256)
# Tensor-parallel node sizes a frontier tries (cards that share one copy of the model).
FRONTIER_CARDS = (1, 2, 4, 8)
# The axes, in the order the sweep's grid is laid out; the last varies fastest.
AXES = ("seats", "cards", "weight_dtype", "kv_dtype", "realism")
# What each axis of a chart can show: the Frontier field, and whether higher is better.
X_MEASURES = {"user": ("user_tokens_per_s", True), "ttft": ("ttft_p95_s", False)}
Y_MEASURES = {"gpu": ("gpu_tokens_per_s", True), "cost": ("usd_per_million_output", False)}


@dataclass(frozen=True)
class Frontier:
    """Every configuration of one sweep as flat arrays, one entry per configuration."""

    seats: np.ndarray
    cards: np.ndarray
    weight_dtype: np.ndarray
    kv_dtype: np.ndarray
    realism: np.ndarray
    gpu_tokens_per_s: np.ndarray  # output tokens per second per card, at a full batch
    user_tokens_per_s: np.ndarray  # output tokens per second each user sees (1 / ITL)
    ttft_p95_s: np.ndarray  # p95 first token of the pool sized for the workload's peak
    usd_per_million_output: np.ndarray  # card-hours a million output tokens take, in dollars
    feasible: np.ndarray  # the weights and the whole batch fit the node's memory
    bounded: np.ndarray  # the pool's queue drains (its TTFT is finite)
    latency_ok: np.ndarray  # the pool meets the p95 first-token SLO
    passes: np.ndarray  # the pool passes all three checks

    def as_dict(self) -> dict:
        """The arrays by name."""
        return {field.name: getattr(self, field.name) for field in fields(self)}

    def __len__(self) -> int:
        return len(self.seats)

    def at(self, index: int) -> Frontier:
        """The one configuration at ``index``, as a sweep of one."""
        return Frontier(
            **{name: values[index : index + 1 or None] for name, values in self.as_dict().items()}
        )


def sweep_axes(
    scenario: Scenario,
    cards: bool = True,
    weights: bool = True,
    cache: bool = True,
    levels: Sequence[str] = tuple(REALISMS),
) -> dict:
    """The values each axis takes: the full range where swept, the scenario's own where not.

    Parameters
    ----------
    scenario : Scenario
        Supplies the held values (its ``cards`` may be None: the model's usual count).
    cards, weights, cache : bool
        Whether to sweep the node size, the weight storage and the cache storage.
    levels : sequence of str
        Levels of detail, each with its own frontier.
    """
    return {
        "seats": FRONTIER_SEATS,
        "cards": FRONTIER_CARDS if cards else (scenario.cards,),
        "weight_dtype": tuple(Scenario.param.weight_dtype.objects)
        if weights
        else (scenario.weight_dtype,),
        "kv_dtype": tuple(Scenario.param.kv_dtype.objects) if cache else (scenario.kv_dtype,),
        "realism": tuple(levels),
    }


def _grid(axes: Mapping[str, Sequence]) -> dict:
    """Every combination of the axes' values, as flat arrays (object arrays for names)."""
    values = [np.asarray(axes[name], dtype=object) for name in AXES]
    index = np.indices([len(v) for v in values]).reshape(len(values), -1)
    return {name: v[i] for name, v, i in zip(AXES, values, index, strict=True)}


def sweep(scenario: Scenario, axes: Mapping[str, Sequence] | None = None) -> Frontier:
    """Evaluate every configuration of ``axes`` for ``scenario``'s model, card and workload.

    Parameters
    ----------
    scenario : Scenario
        The model, card, workload, prompt and price; its own batch size, node size and
        storage are replaced by the axes.
    axes : mapping, optional
        Values of each name in :data:`AXES`; :func:`sweep_axes` when omitted. A ``cards`` of
        None takes the model's usual count.

    Returns
    -------
    Frontier
        One entry per combination, the last axis (``realism``) varying fastest.

    Notes
    -----
    One vectorised call of :func:`core.evaluate.evaluate` per level of detail, with
    ``concurrency`` set to the batch size so each node runs full as a benchmark runs it. With :math:`T` the node's output tokens
    per second, :math:`c` cards at :math:`p` dollars an hour and :math:`t_{itl}` the time
    between a user's tokens:

    .. math:: \\text{per card} = T / c, \\quad \\text{per user} = 1 / t_{itl}, \\quad
              \\$/\\text{M out} = 10^6 \\, c \\, p / (3600 \\, T)

    The p95 first token is that closed loop's own, at a full batch, and unbounded where the
    nodes bought for the workload's peak (sized with that batch size) cannot keep up; a batch
    that memory cannot hold whole is not feasible (it repeats a smaller batch).
    """
    return sweeps(scenario, axes if axes is not None else sweep_axes(scenario))[0]


def sweeps(scenario: Scenario, *axes: Mapping[str, Sequence]) -> list[Frontier]:
    """Several sweeps of :func:`sweep` evaluated together, split back apart.

    The engine level costs a fixed few milliseconds per call whatever its size, so a lab that
    needs the whole space and its own configuration's batch sizes asks for both at once: one
    vectorised call per level of detail for all of them.
    """
    grids = [_grid(each) for each in axes]
    sizes = np.cumsum([len(grid["seats"]) for grid in grids])[:-1]
    grid = {name: np.concatenate([each[name] for each in grids]) for name in AXES}
    result = _by_level(scenario, grid)
    throughput = result["throughput_tokens_per_s"]
    used_cards = result["cards"]
    feasible = result["weights_fit"] & result["capacity_ok"] & (throughput > 0)
    safe_throughput = np.where(feasible, throughput, 1.0)
    itl = result["itl_s"]
    price = _price(scenario)
    columns = {
        "seats": grid["seats"].astype(int),
        "cards": used_cards.astype(int),
        "weight_dtype": grid["weight_dtype"].astype(str),
        "kv_dtype": grid["kv_dtype"].astype(str),
        "realism": grid["realism"].astype(str),
        "gpu_tokens_per_s": np.where(feasible, throughput / used_cards, 0.0),
        "user_tokens_per_s": np.where(feasible & (itl > 0), 1.0 / np.where(itl > 0, itl, 1.0), 0.0),
        "ttft_p95_s": result["ttft_p95_s"],
        "usd_per_million_output": np.where(
            feasible, PER_MILLION * used_cards * price / (SECONDS_PER_HOUR * safe_throughput), 0.0
        ),
        "feasible": feasible,
        "bounded": ~result["queue_unbounded"],
        "latency_ok": result["latency_ok"],
        "passes": result["latency_ok"] & result["capacity_ok"] & result["cost_ok"],
    }
    parts = {name: np.split(values, sizes) for name, values in columns.items()}
    return [Frontier(**{name: parts[name][i] for name in columns}) for i in range(len(grids))]


# The Result fields a sweep reads.
_FIELDS = (
    "throughput_tokens_per_s", "cards", "weights_fit", "capacity_ok", "itl_s", "ttft_p95_s",
    "queue_unbounded", "latency_ok", "cost_ok",
)  # fmt: skip


def _by_level(scenario: Scenario, grid: dict) -> dict:
    """The fields of :data:`_FIELDS` for every row of ``grid``: one vectorised call per level.

    ``evaluate`` runs the engine level over the whole array as soon as one row asks for it,
    so the rows of each level are evaluated apart (the whiteboard's call costs little).
    """
    size = len(grid["seats"])
    out = {}
    for level in np.unique(grid["realism"].astype(str)):
        rows = np.flatnonzero(grid["realism"] == level)
        knobs = {name: values[rows] for name, values in grid.items()}
        result = evaluate(scenario, **knobs, concurrency=knobs["seats"])
        for name in _FIELDS:
            values = np.asarray(getattr(result, name))
            if name not in out:
                out[name] = np.zeros(size, dtype=bool if values.dtype == bool else float)
            out[name][rows] = values
    return out


def _price(scenario: Scenario) -> float:
    """Dollars per card-hour: the scenario's override, else the catalog's price for its card."""
    if scenario.usd_per_gpu_hour is not None:
        return float(scenario.usd_per_gpu_hour)
    return scenario_gpu(scenario).usd_per_hour


def pareto(x, y, eligible, x_higher=True, y_higher=True) -> np.ndarray:
    """Which points no other eligible point beats on both axes (the Pareto frontier).

    Parameters
    ----------
    x, y : ndarray
        The two measures, one entry per point.
    eligible : ndarray of bool
        Points that take part; the others are never on the frontier.
    x_higher, y_higher : bool
        Whether a higher value is better on each axis.

    Returns
    -------
    ndarray of bool
        True for frontier points. Of points equal on both axes, only the first is kept.

    Notes
    -----
    With both axes oriented so higher is better, sort by x descending (ties by y descending);
    a point is on the frontier when its y beats every y before it:
    :math:`y_i > \\max_{j < i} y_j`, one cumulative maximum.
    """
    x = np.asarray(x, dtype=float) * (1.0 if x_higher else -1.0)
    y = np.asarray(y, dtype=float) * (1.0 if y_higher else -1.0)
    eligible = np.asarray(eligible, dtype=bool)
    mask = np.zeros(x.shape, dtype=bool)
    if not eligible.any():
        return mask
    candidates = np.flatnonzero(eligible)
    order = candidates[np.lexsort((-y[candidates], -x[candidates]))]
    ys = y[order]
    best_before = np.maximum.accumulate(np.concatenate(([-np.inf], ys[:-1])))
    mask[order[ys > best_before]] = True
    return mask


def frontiers(points: Frontier, x_measure: str = "user", y_measure: str = "gpu") -> np.ndarray:
    """The Pareto frontier of each level of detail on its own, as one mask.

    ``x_measure`` is a key of :data:`X_MEASURES`, ``y_measure`` of :data:`Y_MEASURES`. A point
    whose queue never drains has no first-token time, so it never joins a TTFT frontier.
    """
    x_field, x_higher = X_MEASURES[x_measure]
    y_field, y_higher = Y_MEASURES[y_measure]
    x, y = getattr(points, x_field), getattr(points, y_field)
    eligible = points.feasible & (points.bounded if x_measure == "ttft" else True)
    mask = np.zeros(len(points), dtype=bool)
    for level in np.unique(points.realism):
        mine = eligible & (points.realism == level)
        mask |= pareto(x, y, mine, x_higher, y_higher)
    return mask


def best_within_slo(
    points: Frontier, level: str, y_measure: str = "gpu", x_measure: str = "user"
) -> int:
    """The index of the best point on the y measure among ``level``'s that meet the SLO; -1 if none.

    "Meets the SLO" is the pool's p95 first-token check at the workload's peak. Of points tied on
    the y measure, the best on the x measure wins (then the first), as :func:`pareto` keeps it,
    so the point named is the frontier table's row.
    """
    field, higher = Y_MEASURES[y_measure]
    x_field, x_higher = X_MEASURES[x_measure]
    eligible = points.feasible & points.latency_ok & (points.realism == level)
    if not eligible.any():
        return -1
    y = np.where(eligible, getattr(points, field), -np.inf if higher else np.inf)
    tied = eligible & (y == (y.max() if higher else y.min()))
    x = np.asarray(getattr(points, x_field), dtype=float) * (1.0 if x_higher else -1.0)
    candidates = np.flatnonzero(tied)
    return int(candidates[np.argmax(np.nan_to_num(x[candidates], nan=-np.inf))])
