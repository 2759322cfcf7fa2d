"""My report: a session's work as one self-contained HTML file a student hands in.

One file, built in the session and downloaded from it (nothing is sent anywhere): inline CSS,
no script, no image or font fetched, tables only, so it opens offline and prints to PDF. It
holds the predictions with the calibration score (:mod:`core.practice.calibration`), the
practice answers and their grades, the tour's answers (judged again,
:mod:`labs.tour.record`), the pinned configurations with their figures and links
(every figure from :func:`core.evaluate`) and the uploaded measurements with their ratios
(:func:`core.evidence.measured.explain.table_rows`).
"""

from __future__ import annotations

import io
import time
from html import escape
from urllib.parse import urlencode

import panel as pn

from core import Scenario, evaluate
from core.evidence.measured.explain import table_rows
from core.foundation.numbers import figure as significant_figure
from core.practice.calibration import WITHIN, Calibration
from labs.frame.compare import FIGURES
from labs.frame.pins import CONFIG, LETTERS, describe, pack_config
from labs.page import format as fmt
from labs.page.links import serialise
from labs.tour.record import tour_html
from labs.widgets.measurements import Measurements, session_measurements
from labs.widgets.predict import GUESSED

FILENAME = "my-llm-serving-report.html"
REPORT_CSS = """
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1f2430;
       max-width: 980px; margin: 24px auto; padding: 0 16px; }
h1 { font-size: 1.6em; margin: 0 0 4px; } h2 { font-size: 1.2em; margin: 24px 0 6px; }
.muted { color: #5b6478; } .small { font-size: 0.88em; }
table { border-collapse: collapse; width: 100%; margin: 6px 0; }
th, td { border: 1px solid #c9cfdb; padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #eef1f6; } td.num { text-align: right; white-space: nowrap; }
.right { color: #1e7b3c; font-weight: 600; } .wrong { color: #b3261e; font-weight: 600; }
a { color: #1f4fb4; word-break: break-all; }
@media print { body { margin: 0; max-width: none; } h2 { break-after: avoid; }
  tr { break-inside: avoid; } a { color: inherit; } }
"""


def _table(head: list[str], rows: list[list[str]], numeric: set[int] = frozenset()) -> str:
    """An HTML table; cells are HTML already (escape them before)."""
    heads = "".join(f"<th>{escape(h)}</th>" for h in head)
    body = "".join(
        "<tr>"
        + "".join(f'<td class="num">{c}</td>' if i in numeric else f"<td>{c}</td>" for i, c in enumerate(row))
        + "</tr>"
        for row in rows
    )  # fmt: skip
    return f"<table><thead><tr>{heads}</tr></thead><tbody>{body}</tbody></table>"


def _verdict(right: bool, words: str) -> str:
    return f'<span class="{"right" if right else "wrong"}">{escape(words)}</span>'


def predictions_html(calibration: Calibration) -> str:
    """Every readable guess beside the figure it was judged on, and the running score."""
    if not calibration.guesses:
        return '<section data-report="predictions"><h2>Predictions</h2><p class="muted">No guesses this session.</p></section>'  # fmt: skip
    rows = []
    for found in calibration.reveals:
        name, write = GUESSED.get(found.field, (found.field, significant_figure))
        verdict = _verdict(found.within, "within" if found.within else "outside")
        rows.append([escape(name), escape(found.reading.text), escape(write(found.shown)),
                     escape(write(found.whiteboard)), escape(write(found.engine)),
                     escape(fmt.percent(found.miss)), verdict])  # fmt: skip
    score = (
        f"<p data-calibration><b>{fmt.percent(calibration.share_within)}</b> of "
        f"{fmt.count(calibration.guesses)} guesses within {fmt.percent(WITHIN)} of the figure "
        f"shown; median miss <b>{fmt.percent(calibration.median_miss)}</b>.</p>"
    )
    table = _table(["figure", "your guess", "the lab said", "whiteboard", "engine level",
                    "miss", f"within {fmt.percent(WITHIN)}"], rows, {2, 3, 4, 5})  # fmt: skip
    return f'<section data-report="predictions"><h2>Predictions</h2>{score}{table}</section>'


def practice_html(practice) -> str:
    """Every practice answer judged this session, with its grade and what the lab said."""
    answered = getattr(practice, "answered", []) if practice is not None else []
    if not answered:
        return '<section data-report="practice"><h2>Practice</h2><p class="muted">No practice answers this session.</p></section>'  # fmt: skip
    # The exact answer is left out: a report must not hand over what a retry would be asked.
    rows = [
        [escape(problem.title), str(seed), escape(text),
         _verdict(verdict.status == "right", verdict.status), escape(verdict.message)]
        for problem, seed, text, verdict in answered
    ]  # fmt: skip
    score = (
        f"<p>Scored: {fmt.count(practice.first_try)} right first time, "
        f"{fmt.count(practice.with_hint)} with a hint or a retry, "
        f"{fmt.count(practice.revealed)} revealed.</p>"
    )
    table = _table(
        ["problem", "seed", "your answer", "the answer", "grade", "what the lab said"], rows
    )
    return f'<section data-report="practice"><h2>Practice</h2>{score}{table}</section>'


def pin_link(base: str, knobs: dict) -> str:
    """The link that opens a pinned configuration: its knobs that differ from the defaults."""
    pairs = [
        (knob, pack_config(value) if knob == CONFIG else serialise(value))
        for knob, value in knobs.items()
    ]
    return base + ("?" + urlencode(pairs) if pairs else "")


def pins_html(configurations: list[dict], base: str) -> str:
    """Each pinned configuration: its knobs in words, its link, and every compared figure."""
    if not configurations:
        return '<section data-report="pins"><h2>Pinned configurations</h2><p class="muted">No pins this session.</p></section>'  # fmt: skip
    results = [evaluate(Scenario(**knobs)) for knobs in configurations]
    head = ["figure", *(f"pin {LETTERS[i]}" for i in range(len(configurations)))]
    rows = [
        [escape(figure.label), *(escape(figure.text(r)) for r in results)] for figure in FIGURES
    ]
    items = "".join(
        f"<li><b>{LETTERS[i]}</b>: {escape(describe(knobs))}<br>"
        f'<a href="{escape(pin_link(base, knobs), quote=True)}">{escape(pin_link(base, knobs))}</a></li>'
        for i, knobs in enumerate(configurations)
    )  # fmt: skip
    table = _table(head, rows, set(range(1, len(head))))
    return f'<section data-report="pins"><h2>Pinned configurations</h2><ul>{items}</ul>{table}</section>'


def measurements_html(store: Measurements) -> str:
    """Every uploaded point: measured, both levels' figures and their ratios to the measurement."""
    rows = table_rows(store.explained)
    if not rows:
        return '<section data-report="measurements"><h2>My measurements</h2><p class="muted">No files uploaded this session.</p></section>'  # fmt: skip
    cells = [
        [escape(r["file"]), escape(r["setup"]), escape(r["load"]),
         escape(f"{r['figure']} ({r['statistic']})"), escape(significant_figure(r["measured"])),
         escape(significant_figure(r["whiteboard"])), escape(significant_figure(r["engine_level"])),
         escape(fmt.times(r["whiteboard_over_measured"])), escape(fmt.times(r["engine_over_measured"]))]
        for r in rows
    ]  # fmt: skip
    head = ["file", "set-up", "load", "figure", "measured", "whiteboard", "engine level",
            "whiteboard / measured", "engine / measured"]  # fmt: skip
    table = _table(head, cells, {4, 5, 6, 7, 8})
    return f'<section data-report="measurements"><h2>My measurements</h2>{table}</section>'


def report_html(page, base: str = "") -> str:
    """The whole report of ``page``'s session (a :class:`labs.frame.shell.LabPage`)."""
    made = time.strftime("%Y-%m-%d %H:%M")
    now = page.scenario.moved_knobs()
    body = "".join([
        f"<h1>My report: LLM Serving Lab</h1><p class=\"muted\">Made {escape(made)}, in this "
        f"browser's session. On screen when made: {escape(describe(now))}.</p>",
        predictions_html(page.calibration),
        practice_html(page.views.get("practice")),
        tour_html(page.tour_record),
        pins_html(page.pin_board.configurations, base),
        measurements_html(session_measurements(page.scenario)),
    ])  # fmt: skip
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>My report: LLM Serving '
        f"Lab</title><style>{REPORT_CSS}</style></head><body>{body}</body></html>"
    )


def page_base(page) -> str:
    """The address the page was opened at, without its query ('' outside a browser session)."""
    location = getattr(page, "location", None)
    if location is None or not getattr(location, "href", ""):
        return ""
    return location.href.split("?", 1)[0]


def report_button(page) -> pn.widgets.FileDownload:
    """The "My report" button: the report is built when it is clicked, in the session."""

    def payload():
        buffer = io.StringIO(report_html(page, page_base(page)))
        buffer.seek(0)
        return buffer

    return pn.widgets.FileDownload(
        callback=payload, filename=FILENAME, label="My report", color="light", width=130,
        margin=(0, 6),
    )  # fmt: skip
