"""Downloads: every table as CSV through Panel's FileDownload, written by pandas (no encoder here).

Each ``*_frame`` function turns what a lab shows into a :class:`pandas.DataFrame` of plain
numbers in base units (seconds, tokens, dollars), one row per line of the table on screen.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from html import escape

import numpy as np
import pandas as pd
import panel as pn

from core.foundation.units import rounded
from labs.page import format as fmt


def rounded_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with every float column at four significant figures (whole numbers kept)."""
    return frame.assign(
        **{name: rounded(frame[name]) for name in frame.columns if frame[name].dtype.kind == "f"}
    )


# A spreadsheet reads a cell that starts with one of these as a formula (OWASP's CSV injection
# rule): a results file's model name or a file's name must open as text, never run.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def inert_text(value):
    """``value`` made inert for a spreadsheet: text opening as a formula gains a leading quote.

    Numbers (and text that is not a formula) are returned unchanged.

    >>> inert_text("=1+2")
    "'=1+2"
    >>> inert_text(-3.5), inert_text("vllm")
    (-3.5, 'vllm')
    """
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def inert_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with every text cell (column names too) passed through :func:`inert_text`."""
    text_columns = {
        name: frame[name].map(inert_text)
        for name in frame.columns
        if frame[name].dtype == object or pd.api.types.is_string_dtype(frame[name].dtype)
    }
    return frame.assign(**text_columns).rename(columns=inert_text)


def csv_text(frame: pd.DataFrame) -> str:
    """The CSV a download carries: ``frame`` rounded as :func:`rounded_frame` says, text inert."""
    # RFC 4180's line ends, so a carriage return inside a cell is quoted and stays inside it.
    return inert_frame(rounded_frame(frame)).to_csv(
        index=False, float_format="%.15g", lineterminator="\r\n"
    )


def csv_button(frame: Callable[[], pd.DataFrame], filename: str, label: str = "Download CSV"):
    """A button that downloads ``frame()`` as ``filename``, computed when it is clicked."""

    def payload():
        buffer = io.StringIO(csv_text(frame()))
        buffer.seek(0)
        return buffer

    return pn.widgets.FileDownload(
        callback=payload,
        filename=filename,
        label=label,
        color="light",
        width=240,
        margin=(4, 0),
    )


def mattered_frame(effects, fields) -> pd.DataFrame:
    """The mattered-vs-noise table: each knob, its setting and default, each output's change."""
    rows = []
    for effect in effects:
        row = {"knob": effect.knob, "setting": effect.current, "default": effect.default}
        row.update({f"change_in_{field}": effect.changes[field] for field in fields})
        row["verdict"] = (
            "at default"
            if effect.current == effect.default
            else "mattered"
            if effect.mattered
            else "noise"
        )
        row["flips"] = " ".join(effect.flipped)
        rows.append(row)
    return pd.DataFrame(rows)


def cases_frame(report) -> pd.DataFrame:
    """Every published case: its set-up, the measurement and both levels' predictions."""
    rows = []
    for index, case in enumerate(report.cases):
        rows.append(
            {
                "case": case.key,
                "model": case.model,
                "gpu": case.gpu,
                "cards": case.cards,
                "storage": case.dtype,
                "prompt_tokens": case.prompt_tokens,
                "answer_tokens": case.answer_tokens,
                "load": case.load_text,
                "figure": case.metric,
                "measured": case.measured,
                "whiteboard": report.whiteboard[index],
                "engine_level": report.engine[index],
                "whiteboard_over_measured": report.steps[index, 0],
                "engine_over_measured": report.steps[index, -1],
                "source": case.source,
            }
        )
    return pd.DataFrame(rows)


def batch_sweep_frame(batches, sweep: dict) -> pd.DataFrame:
    """The batching lab's sweep: one row per batch size and scheduler, as the engine ran it."""
    rows = []
    for policy, runs in sweep.items():
        for batch, run in zip(batches, runs, strict=True):
            rows.append(
                {
                    "batch_size": batch,
                    "scheduler": policy,
                    "requests": run.requests,
                    "output_tokens_per_s": run.output_tokens_per_s,
                    "ttft_p95_s": run.ttft_p95_s,
                    "itl_p95_s": run.itl_p95_s,
                }
            )
    return pd.DataFrame(rows)


def frontier_frame(points, on_frontier) -> pd.DataFrame:
    """Every configuration of a frontier sweep, whether it is on its level's frontier."""
    if points is None:
        return pd.DataFrame()
    frame = pd.DataFrame(
        {
            "level": points.realism,
            "seats": points.seats,
            "cards": points.cards,
            "weight_dtype": points.weight_dtype,
            "kv_dtype": points.kv_dtype,
            "fits_in_memory": points.feasible,
            "output_tokens_per_s_per_gpu": points.gpu_tokens_per_s,
            "output_tokens_per_s_per_user": points.user_tokens_per_s,
            "ttft_p95_s": np.where(points.bounded, points.ttft_p95_s, np.nan),
            "usd_per_million_output_tokens": points.usd_per_million_output,
            "meets_ttft_slo": points.latency_ok,
            "passes_all_checks": points.passes,
            "on_frontier": on_frontier,
        }
    )
    return frame


def frontier_table(points, rows_mask, x_measure: str = "user") -> str:
    """The frontier's points at one level as an HTML table, best on the x measure first."""
    rows = np.flatnonzero(rows_mask)
    key = -points.user_tokens_per_s[rows] if x_measure == "user" else points.ttft_p95_s[rows]
    rows = rows[np.argsort(key, kind="stable")]
    body = "".join(
        f'<tr data-frontier-row><td class="num">{points.seats[i]}</td><td class="num">{points.cards[i]}</td>'
        f"<td>{escape(points.weight_dtype[i])}</td><td>{escape(points.kv_dtype[i])}</td>"
        f'<td class="num">{fmt.rate(points.gpu_tokens_per_s[i])}</td>'
        f'<td class="num">{fmt.rate(points.user_tokens_per_s[i])}</td>'
        f'<td class="num">{fmt.duration(points.ttft_p95_s[i], not points.bounded[i])}</td>'
        f'<td class="num">{fmt.axis_text("cost", points.usd_per_million_output[i])}</td>'
        f'<td><span class="chip {"pass" if points.latency_ok[i] else "fail"}">'
        f"{'meets' if points.latency_ok[i] else 'breaks'}</span></td></tr>"
        for i in rows
    )
    return (
        '<div class="lab"><table class="grid points"><thead><tr><th>seats</th><th>cards</th><th>weights</th>'
        "<th>cache</th><th>per GPU</th><th>per user</th><th>TTFT p95</th><th>$ per M out</th>"
        f"<th>SLO</th></tr></thead><tbody>{body}</tbody></table></div>"
    )
