"""Pins side by side: each pinned configuration and the current one, with how each differs from A."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

import pandas as pd
import panel as pn

from core import Scenario, evaluate
from labs.frame.pins import LETTERS, MAX_PINS, PinBoard, describe
from labs.page import format as fmt
from labs.page.badges import chips_html, verdicts
from labs.page.text import LiveHTML
from labs.page.updates import DETAILS_DELAY_MS, Later
from labs.widgets.exports import csv_button
from labs.widgets.ledger import SEGMENT_COLOURS, SEGMENT_NAMES, SEGMENTS, MemoryLedger


@dataclass(frozen=True)
class Figure:
    """One row of the comparison: a Result field, its name, and how it and a change read."""

    field: str
    label: str
    text: object
    change: object


def _ttft(result) -> str:
    return fmt.duration(result.ttft_p95_s, result.queue_unbounded)


FIGURES = (
    Figure("seats_granted", "live seats", lambda r: fmt.count(r.seats_granted), fmt.signed),
    Figure("ttft_p95_s", "TTFT p95", _ttft, fmt.signed_duration),
    Figure(
        "decode_tokens_per_s",
        "aggregate decode rate",
        lambda r: fmt.rate(r.decode_tokens_per_s),
        lambda d: fmt.signed(d, "tok/s"),
    ),
    Figure("monthly_usd", "monthly bill", lambda r: fmt.dollars(r.monthly_usd), fmt.signed_dollars),
    Figure(
        "usd_per_million_output_tokens",
        "$ per M output tokens",
        lambda r: fmt.token_price(r.usd_per_million_output_tokens),
        lambda d: f"{'+' if d >= 0 else fmt.MINUS}{fmt.token_price(abs(d))}",
    ),
    Figure("nodes", "nodes", lambda r: fmt.count(r.nodes), fmt.signed),
    Figure(
        "kv_budget_bytes",
        "KV room per node",
        lambda r: fmt.gigabytes(r.kv_budget_bytes),
        lambda d: f"{'+' if d >= 0 else fmt.MINUS}{fmt.gigabytes(abs(d))}",
    ),
)


def comparison_frame(names: list[str], knobs: list[dict], results: list) -> pd.DataFrame:
    """One row per configuration: its knobs in words, every compared figure and the checks."""
    rows = []
    for name, setting, result in zip(names, knobs, results, strict=True):
        row = {"configuration": name, "knobs": describe(setting)}
        row.update({figure.field: getattr(result, figure.field) for figure in FIGURES})
        row.update({item.name + "_ok": item.ok for item in verdicts(result)})
        rows.append(row)
    return pd.DataFrame(rows)


def difference_html(names: list[str], results: list) -> str:
    """A table of every figure per configuration, each after A with its difference from A."""
    head = "".join(f"<th>{escape(name)}</th>" for name in names)
    body = []
    base = results[0]
    for figure in FIGURES:
        cells = []
        for index, result in enumerate(results):
            text = escape(figure.text(result))
            if index:
                change = getattr(result, figure.field) - getattr(base, figure.field)
                text += f'<div class="small muted">{escape(figure.change(change))} vs A</div>'
            cells.append(f'<td class="num">{text}</td>')
        body.append(
            f'<tr data-figure="{figure.field}"><td><b>{escape(figure.label)}</b></td>{"".join(cells)}</tr>'
        )
    return (
        '<div class="lab"><table class="grid" data-comparison><thead><tr><th>figure</th>'
        f"{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>"
    )


class Comparison(pn.viewable.Viewer):
    """The pinned configurations and the current one, side by side, shown once something is pinned."""

    def __init__(self, board: PinBoard, scenario: Scenario, **params):
        super().__init__(**params)
        self.board, self.scenario = board, scenario
        self.names: list[str] = []
        self.knobs: list[dict] = []
        self.results: list = []
        self.heads: list[LiveHTML] = []  # built with the ledgers, on the first pin
        self.ledgers: list[MemoryLedger] = []  # built on the first pin
        self.columns = pn.Row(sizing_mode="stretch_width", margin=0)
        # The card, its legend, table and download are built with the first pin's columns.
        self.legend = self.table = self.download = self._layout = None
        self._later = Later(self._refresh, delay_ms=DETAILS_DELAY_MS)
        # The card joins the page with the first pin: a page with none sends no model of it.
        self._slot = pn.Column(sizing_mode="stretch_width", margin=0)
        board.param.watch(self._request, "pins")
        scenario.param.watch(self._request, list(scenario.knobs()))
        self._refresh()

    def _request(self, *_events) -> None:
        if self.board.configurations and not self.ledgers:
            # The first pin builds the columns at once, in step with the change that asked.
            self._refresh()
        elif self.board.configurations:
            self._later.request()
        elif self._layout is not None:
            self._layout.visible = False

    def frame(self) -> pd.DataFrame:
        """The comparison as a table for download."""
        return comparison_frame(self.names, self.knobs, self.results)

    def _refresh(self) -> None:
        pins = self.board.configurations
        if not pins:
            if self._layout is not None:
                self._layout.visible = False
            return
        now = self.scenario.moved_knobs()
        self.knobs = [*pins, now]
        self.names = [*(f"pin {LETTERS[i]}" for i in range(len(pins))), "now"]
        self.results = [evaluate(Scenario(**knobs)) for knobs in self.knobs]
        if not self.ledgers:
            self._build_columns()
            self._build_card()
        with pn.io.hold():
            for head, name, knobs, result in zip(
                self.heads, self.names, self.knobs, self.results, strict=False
            ):
                head.object = _head_html(name, knobs, result)
            for ledger, result in zip(self.ledgers, self.results, strict=False):
                ledger.update(result)
            for index, column in enumerate(self.columns.objects):
                column.visible = index < len(self.knobs)
            self.table.object = difference_html(self.names, self.results)
            self._layout.visible = True

    def _build_columns(self) -> None:
        """Every column at once, on the first pin; later refreshes only fill and show them.

        A Panel object moved from one parent to another in a live page loses its link to
        the browser, so columns are never rebuilt, only hidden.
        """
        for _ in range(MAX_PINS + 1):
            self.heads.append(LiveHTML("", sizing_mode="stretch_width", margin=0))
            ledger = MemoryLedger()
            # Four ledgers share a row: let each chart shrink below Bokeh's default width.
            ledger.memory_figure.min_width = 160
            self.ledgers.append(ledger)
        # Only each ledger's chart: its legend is given once, below the columns.
        self.columns.objects = [
            pn.Column(
                head,
                pn.pane.Bokeh(ledger.memory_figure, sizing_mode="stretch_width"),
                sizing_mode="stretch_width",
                margin=(0, 6),
                visible=False,
            )
            for head, ledger in zip(self.heads, self.ledgers, strict=True)
        ]

    def _build_card(self) -> None:
        """The card around the columns, on the first pin: a page with none sends none of it."""
        self.legend = LiveHTML(_legend_html(), sizing_mode="stretch_width", margin=(0, 6))
        self.table = LiveHTML("", sizing_mode="stretch_width", margin=(8, 0, 0, 0))
        self.download = csv_button(self.frame, "comparison.csv", "Download comparison (CSV)")
        self._layout = pn.Card(
            self.columns,
            self.legend,
            self.table,
            self.download,
            title="Pinned configurations side by side",
            collapsed=False,
            sizing_mode="stretch_width",
            margin=(0, 0, 12, 0),
            visible=False,
        )
        self._slot.objects = [self._layout]

    def __panel__(self):
        return self._slot


def _head_html(name: str, knobs: dict, result) -> str:
    cards = "".join(
        f'<div class="card" data-card="{escape(figure.label)}"><div class="label">{escape(figure.label)}</div>'
        f'<div class="value">{escape(figure.text(result))}</div></div>'
        for figure in FIGURES[:4]
    )
    return (
        f'<div class="lab compare" data-pin-column="{escape(name)}"><h3>{escape(name)}</h3>'
        f'<p class="small muted">{escape(describe(knobs))}</p>'
        f'<div class="cards" style="--cols:2">{cards}</div><p>{chips_html(verdicts(result))}</p></div>'
    )


def _legend_html() -> str:
    items = "".join(
        f'<span><span class="swatch" style="background:{colour}"></span>{SEGMENT_NAMES[segment]}</span>'
        for segment, colour in zip(SEGMENTS, SEGMENT_COLOURS, strict=True)
    )
    return f'<div class="lab"><div class="legend"><span>Memory per card:</span>{items}</div></div>'
