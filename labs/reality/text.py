"""The Reality check lab's words: a case's set-up and the error of each family of cases.

Pure functions of core's report: cases and scores in, HTML out, so they are tested without a
browser. The lab places them.
"""

from __future__ import annotations

from html import escape

from core.evidence.crossval import RESAMPLE_SHARE
from core.evidence.families import SETS
from labs.page import format as fmt
from labs.widgets.level_note import first_tokens_held

SET_NAMES = {"first": "first set", "second": "second set", "both": "both sets"}
# The case table's groups, in order (keys of labs.reality.charts.SET_MARKERS), as HTML.
TABLE_GROUPS = {
    "first": f"<b>first set</b>: {escape(SETS['first'])}",
    "second": f"<b>second set</b>: {escape(SETS['second'])}",
    "unscored": "<b>second set, shown but not scored</b>: early-2025 engine builds running "
    "DeepSeek-R1, before today's latent-attention and expert kernels",
}
# The case table's short words for a figure and a load.
FIGURE_WORDS = {
    "throughput": "throughput",
    "ttft": "first token",
    "itl": "between tokens",
    "request": "whole request",
}
KNOB_WORDS = {
    "engine": "the engine",
    "layout": "the parallel layout",
    "weight_formats": "storage per tensor",
}


def score_text(result) -> str:
    """A score as the page shows it: '12 % · 21 of 25', or a dash where a family has no case."""
    if result is None:
        return "\u2013"
    return (
        f"{fmt.percent(result.geometric_mean_error)} \u00b7 {result.within_band} of {result.cases}"
    )


# Why the lab shows two figures for one level, in one plain line.
EARNED_WORDS = (
    "In-sample scores every case with a model built beside it; publisher held out scores each "
    "publisher's cases as if the model had never seen them, every publisher counting once, so "
    "one big table cannot carry the average. The gap between the two is agreement not yet earned."
)


def spread_words(result) -> str:
    """How far the held-out error moves when its publishers are drawn again, in one clause:
    '12%–22% in 9 of 10 publisher redraws' (the middle 90% of them)."""
    low, high = result.spread
    tenths = round(10 * RESAMPLE_SHARE)
    return f"{fmt.percent(low)}\u2013{fmt.percent(high)} in {tenths} of 10 publisher redraws"


def target_words(target) -> str:
    """A target as a tile states it: 'target ≤15%, ≥80% within'."""
    within = f", ≥{fmt.percent(target.within)} within" if target.within else ""
    return f"target ≤{fmt.percent(target.error)}{within}"


def target_tone(target, error: float, within_share: float) -> str:
    """A tile's note tone: 'met' or 'missed' (coloured, and said in words to a screen reader)."""
    return "met" if target.met(error, within_share) else "missed"


def held_out_text(result) -> str:
    """A cross-validated score as the page shows it: '25 % · 64 % within', or a dash."""
    if result is None:
        return "\u2013"
    return f"{fmt.percent(result.geometric_mean_error)} \u00b7 {fmt.percent(result.within_share)} within"


def first_tokens_html(band) -> str:
    """How far the engine level held on every published first token (``band``:
    :func:`core.evidence.level_gap.first_token_band`), beside the families' table."""
    return (
        f'<p class="small" data-first-tokens>First tokens hold up least: {first_tokens_held(band)}; '
        "the few scored ones sit closer, which is why the scores alone flatter it.</p>"
    )


def families_html(report, first_tokens: str = "") -> str:
    """Each family's typical miss over each set: engine level in-sample, held out, whiteboard
    (and ``first_tokens``, :func:`first_tokens_html`, under the table)."""
    head = "".join(
        f'<th class="num">{escape(SET_NAMES[name])}: engine</th>'
        f'<th class="num">publisher held out</th>'
        f'<th class="num muted">whiteboard</th>'
        for name in SETS
    )
    rows = []
    for row in report.families:
        cells = "".join(
            f'<td class="num"><b>{escape(score_text(row.score(name, "engine")))}</b></td>'
            f'<td class="num" data-held-out="{name}">{escape(held_out_text(row.held_out(name)))}</td>'
            f'<td class="num muted">{escape(score_text(row.score(name, "whiteboard")))}</td>'
            for name in SETS
        )
        rows.append(
            f'<tr data-family="{escape(row.family)}"><td>{escape(row.family)}</td>{cells}</tr>'
        )
    sets = "".join(
        f"<li><b>{escape(SET_NAMES[name])}</b>: {escape(text)}</li>" for name, text in SETS.items()
    )
    return (
        '<div class="lab" style="overflow-x:auto" tabindex="0" role="region" aria-label="Fidelity by family">'
        '<table class="grid"><thead><tr><th>family</th>'
        f"{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
        f'<ul class="facts small muted">{sets}</ul>'
        f'<p class="small" data-earned>{escape(EARNED_WORDS)}</p>{first_tokens}</div>'
    )


def set_up_html(case) -> str:
    """What ran the case, how the scenario types it, and what of it the scenario cannot type."""
    engine = f"{case.engine} {case.engine_version}".strip()
    scenario = case.scenario()
    parts = [
        f"Published by {escape(case.publisher)}. Measured on {escape(engine)}, laid out as {escape(case.layout)}; typed as "
        f"engine={escape(scenario.engine)}, layout={escape(scenario.layout)} over "
        f"{fmt.plural(case.cards, 'card')}{escape(_running_words(case, scenario))}"
        f"{escape(_limit_words(scenario))}."
    ]
    pending = case.pending_knobs
    if pending:
        knobs = "; ".join(
            f"{escape(KNOB_WORDS[knob])}: {escape(value)}" for knob, value in pending.items()
        )
        parts.append(f"The model cannot type {knobs}: the case stores every weight in one format.")
    if case.assumed:
        parts.append(f"Assumed where the source is silent: {escape(case.assumed)}.")
    if not case.scored:
        parts.append(f"Shown, not scored: {escape(case.unscored_why)}.")
    return f'<p class="small">{" ".join(parts)}</p>'


def _limit_words(scenario) -> str:
    """The batch limit, the memory share and SGLang's poll interval the run's command sets,
    where it sets them (the ``batch_limit``, ``memory_share`` and ``recv_interval`` knobs)."""
    words = ""
    if scenario.batch_limit is not None:
        words += f", batch_limit={fmt.count(scenario.batch_limit)} (the limit its command sets)"
    if scenario.memory_share is not None:
        words += (
            f", memory_share={scenario.memory_share:g} (the share of memory its command gives "
            "the engine)"
        )
    if scenario.recv_interval is not None:
        words += (
            f", recv_interval={scenario.recv_interval} (the decode steps between its scheduler's "
            "polls for new requests)"
        )
    return words


def _running_words(case, scenario) -> str:
    """The users a max-load run is typed with where fewer than it sends run at once: an engine
    built for other lengths (the heading names the run's requests, its ``run_requests``)."""
    users = scenario.concurrency
    if case.load != "saturated" or not case.requests or users >= case.requests:
        return ""
    return (
        f", concurrency={fmt.count(users)} (trtllm-bench's batch limit for an engine built for "
        f"{case.built_for[0]:,}/{case.built_for[1]:,})"
    )


def load_words(case) -> str:
    """The benchmark's load in a table cell's few words: max load, 8 users, 4 req/s."""
    if case.load == "saturated":
        return "max load"
    if case.load == "users":
        return case.load_text
    return f"{case.load_value:g} req/s"
