"""The pool lab's real hour: the traffic knobs, and the hour replayed minute by minute.

The replay (:func:`core.traffic.replay.replay`) runs off the session's event loop, in a
thread of its own; the session keeps answering knobs meanwhile and shows the hour when it
comes. One replay runs at a time per session: knobs moved while one runs are replayed next.
"""

from __future__ import annotations

import threading
from functools import partial
from html import escape

import numpy as np
import panel as pn
from bokeh.models import BoxAnnotation, ColumnDataSource, Label, Range1d, Span
from bokeh.plotting import figure

from core import BUDGET_USD_PER_MONTH, TTFT_SLO_S, Scenario
from core.catalog.traces import TRACES, load_trace
from core.traffic.autoscale import BOOT_S, STORAGE_BYTES_PER_S
from core.traffic.rent_or_autoscale import compare_policies
from core.traffic.replay import Replay, replay
from labs.page import format as fmt
from labs.page import theme
from labs.page.layout import section
from labs.page.text import LiveHTML
from labs.page.updates import refill, session_doc
from labs.widgets import knobs as ui

TRAFFIC_LABELS = {
    "Poisson": "poisson",
    "bursty": "bursty",
    "Azure chat": "azure-conversation",
    "Azure code": "azure-code",
}


def trace_figures(traffic) -> dict:
    """A trace's mean minute, peak minute and peak second, as a story quotes them."""
    if traffic not in TRACES:
        return {}
    trace = load_trace(traffic)
    return {
        "trace_mean": fmt.count(trace.mean_per_min),
        "trace_peak": fmt.count(trace.peak_minute),
        "trace_second": fmt.count(trace.peak_second),
    }


def hour_section(view) -> pn.Column:
    """The results column's section around the hour, hidden until the traffic is not Poisson."""
    return section(
        "The hour, replayed",
        view,
        note="The closed form sizes the pool for one steady rate; the step engine serves the "
        "hour's own requests on those nodes.",
        margin=(8, 0, 0, 0),
        visible=False,
    )


def trace_workload_html(s: Scenario, result) -> str:
    """The knob column's note on a trace: what it is and which knobs it replaces."""
    answer, arrivals = result.answer_tokens, result.arrivals_per_min
    trace = load_trace(s.traffic)
    return (
        f'<div class="lab small"><p><b>{escape(s.traffic)}</b>: one production hour of Azure '
        f"LLM inference (2023): {fmt.count(trace.requests)} requests, prompts of "
        f"<b>{fmt.count(result.prompt_tokens)}</b> and answers of <b>{fmt.count(answer)}</b> "
        f"tokens on average, replacing the workload's and the prompt knob. Sized for "
        f"<b>{fmt.count(arrivals)}</b> arrivals a minute.</p>"
        f"<p>The SLO: first token in under <b>{fmt.count(TTFT_SLO_S * 1000)} ms</b> at p95. "
        f"The ceiling: <b>{fmt.dollars(BUDGET_USD_PER_MONTH)}</b> a month.</p></div>"
    )


def _optional_input(scenario: Scenario, knob: str, kind, label: str, **options):
    """A number box for a knob that may be None (empty box), kept in step with the scenario."""
    box = kind(label=label, value=getattr(scenario, knob), sizing_mode="stretch_width",
               margin=(2, 4), **options)  # fmt: skip

    def chosen(event):
        if getattr(scenario, knob) != event.new:
            setattr(scenario, knob, event.new)

    box.param.watch(chosen, "value")
    scenario.param.watch(lambda event: setattr(box, "value", event.new), knob)
    return box


def traffic_controls(scenario: Scenario) -> list:
    """The knob column's traffic rows: the arrivals, how bursty, the TPOT target, the nodes."""
    burstiness = pn.widgets.FloatSlider.from_param(
        scenario.param.burstiness, name="burstiness (CV of gaps)", step=0.1,
        sizing_mode="stretch_width", visible=scenario.traffic == "bursty",
    )  # fmt: skip
    scenario.param.watch(lambda e: setattr(burstiness, "visible", e.new == "bursty"), "traffic")
    tpot = pn.widgets.FloatSlider.from_param(
        scenario.param.tpot_slo_s, name="time-per-token target (s)", step=0.005,
        end=0.5, sizing_mode="stretch_width",
    )  # fmt: skip
    rate = _optional_input(scenario, "arrivals_per_min", pn.widgets.FloatInput,
                           "sized for (arrivals/min)", start=0.01, end=1_000_000.0,
                           placeholder="peak minute")  # fmt: skip
    nodes = _optional_input(scenario, "replicas", pn.widgets.IntInput, "nodes", start=1,
                            end=64, placeholder="sized")  # fmt: skip
    return [
        ui.choice_buttons(scenario, "traffic", TRAFFIC_LABELS),
        burstiness,
        pn.Row(rate, nodes, sizing_mode="stretch_width", margin=0),
        tpot,
    ]


def _hour_and_policies(scenario: Scenario, result) -> tuple:
    """The replayed hour, and the hour's bill and goodput under each provisioning policy.

    ``result`` is the scenario's evaluation the page already shows: neither evaluates it again.
    """
    return replay(scenario, result), compare_policies(scenario, result)


def _policies_html(policies) -> str:
    """Renting against autoscaling, side by side."""
    if not policies:
        return ""
    rows = "".join(
        f'<tr data-policy="{escape(p.policy)}"><td>{escape(p.policy)}</td>'
        f"<td>{fmt.count(np.min(p.nodes_bought))}–{fmt.count(np.max(p.nodes_bought))}</td>"
        f"<td>{fmt.token_price(p.usd)}</td><td>{fmt.duration(p.wait_p95_s)}</td>"
        f"<td>{fmt.percent(p.goodput, 1)}</td></tr>"
        for p in policies
    )
    return (
        '<div class="lab" data-policies><h3>Rent for the peak, or autoscale?</h3>'
        '<table class="hour-table"><tr><th>policy</th><th>nodes</th><th>bill, this hour</th>'
        f"<th>wait p95</th><th>goodput, fluid queue</th></tr>{rows}</table>"
        f'<p class="small muted">A fluid queue, second by second, over the hour: each node serves '
        "its seats, or its prompts one at a time, whichever binds, and a request counts to "
        "goodput when it meets both the first-token and the time-per-token target. The "
        "autoscaler orders a node "
        f"when one node's seats' worth of requests queue, pays from the order, and waits "
        f"{fmt.duration(BOOT_S)} of boot plus the weights' load from storage at "
        f"{fmt.count(STORAGE_BYTES_PER_S / 2**20)} MiB/s before it serves.</p></div>"
    )


class HourView(pn.viewable.Viewer):
    """The hour's arrivals per minute, the peak minute marked, failing minutes shaded, and figures.

    ``on_hour`` is called with each replay as it is shown, so the lab can judge its preset.
    """

    def __init__(self, on_hour=None, **params):
        super().__init__(**params)
        self._on_hour = on_hour or (lambda hour: None)
        self.hour: Replay | None = None
        self._wanted = None  # the knobs of the latest request
        self._shown = None  # the knobs of the replay on screen
        self._running = False
        self._next = None
        self.source = ColumnDataSource(data={"minute": [], "arrivals": [], "colour": []})
        plot = figure(height=230, sizing_mode="stretch_width", toolbar_location=None, tools="",
                      y_range=Range1d(0, 1), x_axis_label="minute of the hour",
                      y_axis_label="arrivals per minute")  # fmt: skip
        self.shade = BoxAnnotation(fill_color=theme.WAITING, fill_alpha=0.08, line_alpha=0)
        plot.add_layout(self.shade)
        plot.vbar(x="minute", top="arrivals", width=0.8, source=self.source, color="colour")
        self.peak = Span(location=0, dimension="height", line_color=theme.INK, line_width=1,
                         line_dash="dashed")  # fmt: skip
        self.peak_label = Label(x=0, y=0, x_offset=4, text="", text_font_size="12px",
                                text_color=theme.INK)  # fmt: skip
        plot.add_layout(self.peak)
        plot.add_layout(self.peak_label)
        theme.style_figure(plot, "arrivals-per-minute")
        self.plot = plot
        self.figures = LiveHTML("", sizing_mode="stretch_width", margin=(4, 0))
        self.caption = LiveHTML("", sizing_mode="stretch_width", margin=(4, 0))
        self.policies = LiveHTML("", sizing_mode="stretch_width", margin=(4, 0))
        self._layout = pn.Column(
            self.figures,
            pn.pane.Bokeh(plot, sizing_mode="stretch_width"),
            self.caption,
            self.policies,
            sizing_mode="stretch_width",
            margin=0,
        )

    def update(self, scenario: Scenario, result) -> None:
        """Replay ``scenario``'s hour (closed-form figures from ``result``), off the event loop."""
        knobs = scenario.knobs()
        key = tuple(sorted(knobs.items()))
        self._wanted = key
        doc = session_doc()
        if doc is None:  # tests and notebooks: at once
            self._show(key, _hour_and_policies(scenario, result), result)
            return
        self.figures.object = self._figures_html(result, None)
        if self._running:
            self._next = (key, knobs, result)
            return
        self._start(doc, key, knobs, result)

    def _start(self, doc, key, knobs, result) -> None:
        self._running = True
        worker = threading.Thread(target=self._work, args=(doc, key, knobs, result), daemon=True)
        worker.start()

    def _work(self, doc, key, knobs, result) -> None:
        try:
            hour = _hour_and_policies(Scenario(**knobs), result)
        except Exception as error:  # never let a replay take the session down
            failed = Replay(0, 0, *(np.zeros(0),) * 2, np.zeros(0, bool), -1, 0, 0.0, 0.0,
                            f"the replay failed: {error}")  # fmt: skip
            hour = (failed, ())
        doc.add_next_tick_callback(partial(self._arrive, doc, key, hour, result))

    def _arrive(self, doc, key, hour, result) -> None:
        self._running = False
        if self._next is not None:
            waiting, self._next = self._next, None
            self._start(doc, *waiting)
        if key == self._wanted:
            with pn.io.hold():
                self._show(key, hour, result)

    def resend(self) -> None:
        """Send the chart's marks again: set while the browser drew the kept page, they were lost."""
        marks = ((self.peak, "location"), (self.peak_label, "x"), (self.peak_label, "y"),
                 (self.shade, "left"), (self.shade, "right"), (self.plot.y_range, "end"))  # fmt: skip
        for model, name in marks:
            value = getattr(model, name)
            if isinstance(value, float | int) and np.isfinite(value):
                setattr(model, name, value + 1)
                setattr(model, name, value)
        text = self.peak_label.text
        self.peak_label.text = ""
        self.peak_label.text = text

    def replay_of(self, scenario: Scenario) -> Replay | None:
        """The replay on screen if it is of ``scenario``'s knobs as they are now, else None."""
        shown = self._shown == tuple(sorted(scenario.knobs().items()))
        return self.hour if shown else None

    def _show(self, key, work: tuple, result) -> None:
        hour, policies = work
        self.hour, self._shown = hour, key
        self.policies.object = _policies_html(policies)
        self.figures.object = self._figures_html(result, hour)
        if hour.refused:
            refill(self.source, {"minute": [], "arrivals": [], "colour": []})
            self.caption.object = (
                f'<div class="lab small muted">Not replayed: {escape(hour.refused)}.</div>'
            )
        else:
            columns = hour.chart_columns()
            colour = np.where(columns["fails"], theme.WAITING, theme.ACCENT)
            refill(self.source, {"minute": columns["minute"], "arrivals": columns["arrivals"],
                                 "colour": colour})  # fmt: skip
            self.shade.left, self.shade.right = columns["shade_left"], columns["shade_right"]
            self.shade.visible = hour.first_failing_minute >= 0
            self.peak.location = hour.peak_minute_index
            self.peak_label.x = hour.peak_minute_index
            self.peak_label.y = float(np.max(columns["arrivals"]))
            self.plot.y_range.end = columns["y_end"]
            self.peak_label.text = f"peak minute: {fmt.count(np.max(columns['arrivals']))}"
            self.caption.object = self._caption(dict(key), hour)
        self._on_hour(hour)

    def _figures_html(self, result, hour: Replay | None) -> str:
        closed = fmt.duration(result.ttft_p95_s, result.queue_unbounded)
        if hour is None:
            replayed, good, note = (
                "\u2026",
                "\u2026",
                "Replaying the hour through the step engine\u2026",
            )
        elif hour.refused:
            replayed, good, note = "not replayed", "\u2014", ""
        else:
            replayed, good = fmt.duration(hour.ttft_p95_s), fmt.percent(hour.goodput, 1)
            note = ""
        tone = "" if hour is None or hour.refused else (" ok" if hour.latency_ok else " bad")
        return (
            '<div class="lab" data-hour>'
            f"<style>.hour-table td, .hour-table th {{padding: 2px 18px 2px 0; text-align: left}}</style>"
            '<table class="hour-table"><tr><th></th><th>TTFT p95</th><th>goodput</th></tr>'
            f"<tr><td>closed form, at the sized rate</td><td>{closed}</td>"
            f"<td>{fmt.percent(result.goodput, 1)}</td></tr>"
            f'<tr><td>replayed hour, step engine</td><td class="hour-p95{tone}" data-replayed>{replayed}</td>'
            f"<td data-goodput>{good}</td></tr></table>"
            f'<div class="small muted">{escape(note)}</div></div>'
        )

    def _caption(self, knobs: dict, hour: Replay) -> str:
        traffic = knobs["traffic"]
        lines = []
        if traffic in TRACES:
            trace = load_trace(traffic)
            lines.append(
                f"{fmt.count(trace.requests)} requests in the hour, {fmt.count(trace.mean_per_min)} "
                f"a minute on average; the busiest minute brought <b>{fmt.count(trace.peak_minute)}"
                f"</b> and the busiest second <b>{fmt.count(trace.peak_second)}</b>."
            )
        if hour.first_failing_minute >= 0:
            lines.append(
                f"From minute <b>{hour.first_failing_minute}</b> (shaded on), "
                f"{fmt.plural(hour.failing_minutes, 'minute')} "
                f"{'misses' if hour.failing_minutes == 1 else 'miss'} the "
                f"{fmt.count(TTFT_SLO_S * 1000)} ms target at p95 (red bars)."
            )
        else:
            lines.append("Every minute of the hour meets the first-token target at p95.")
        lines.append(
            f"Served by {fmt.plural(hour.nodes, 'node')} of the step engine (continuous batching, "
            f"paged cache, each request where the {escape(knobs['router'])} router sends it), "
            "every prompt prefilled whole."
        )
        items = "".join(f"<li>{line}</li>" for line in lines)
        return f'<div class="lab"><ul class="facts">{items}</ul></div>'

    def __panel__(self):
        return self._layout
