"""The batching lab's headline: the selected engine's cards, what a real engine would see, a
summary of the static/continuous race, and the notice when the engine cannot run."""

from __future__ import annotations

from html import escape

import panel as pn

from core import Scenario
from core.catalog.custom import scenario_shape
from core.evidence.level_gap import rate_provenance, stream_gaps, trust_band
from core.simulator.batching import IDLE_NOTICE, RUN_TOKENS, gain, idle_share
from core.traffic.goodput import measured_goodput
from labs.batching.view import RUNS, BatchingView, html_pane
from labs.page import format as fmt
from labs.page.cards import Card, CardRow
from labs.widgets.level_note import EngineNote


def node_name(scenario: Scenario, result) -> str:
    """The model and node the scenario runs (``result``: its evaluation), as the page names them."""
    shape = scenario_shape(scenario)
    cards = result.cards
    return f"{shape.name} on {cards} \u00d7 {scenario.gpu}"


class HeadlineView(BatchingView):
    """Five cards for the selected scheduler and layout, the engine-level line and a summary."""

    WATCHES = frozenset({RUNS})
    NEEDS_RUNS = False

    def __init__(self, lab, **params):
        super().__init__(lab, **params)
        self.notice = html_pane()
        self.notice.visible = False
        self.cards = CardRow(columns=5)
        self.engine_note = EngineNote(
            {"throughput_tokens_per_s": "output throughput", "itl_s": "inter-token p50"},
            {"throughput_tokens_per_s": fmt.rate, "itl_s": fmt.duration},
        )
        self.summary = html_pane()
        self.served = html_pane()
        self.served.visible = False
        self.panel = pn.Column(
            self.notice,
            self.cards,
            self.engine_note,
            self.summary,
            self.served,
            sizing_mode="stretch_width",
            margin=0,
        )

    def refresh(self) -> None:
        if self.runs is None:
            self._show_error(self.lab.engine.error)
            return
        self.notice.visible = False
        run = self.runs[self.lab.policy, self.lab.kv_layout]
        self.cards.update(self._cards(run))
        self._update_engine_note(run)
        self.summary.object = (
            f'<div class="lab"><div class="binding" data-summary>{escape(self._summary())}'
            "</div></div>"
        )
        self._show_served(run.requests)

    def _show_served(self, served: int) -> None:
        """Say so when the runs served only the first of the requests asked for."""
        asked = self.lab.requests
        self.served.visible = served < asked
        if served < asked:
            self.served.object = (
                f'<div class="lab small muted" data-served>These runs served the first '
                f"{fmt.count(served)} of the {fmt.count(asked)} requests: a run stops at "
                f"{fmt.count(RUN_TOKENS)} answer tokens, so that a change answers within a "
                "second. Shorter answers serve them all.</div>"
            )

    def _show_error(self, message: str) -> None:
        if message.startswith("scenario="):
            result = self.lab.result
            message = (
                f"The weights of {node_name(self.scenario, result)} take "
                f"{fmt.gigabytes(result.weight_bytes)} of the node's "
                f"{fmt.gigabytes(result.node_memory_bytes)}, leaving no room for any KV cache"
            )
            advice = "Pick a smaller model or a card with more memory."
        else:
            advice = "Shorten the prompt or the answer cap, or pick a card with more memory."
        self.notice.object = (
            '<div class="lab"><div class="notice" data-error><b>This engine cannot run.</b> '
            f"{escape(message)}. {advice}</div></div>"
        )
        self.notice.visible = True
        self.cards.update([])
        self.summary.object = ""
        self.served.visible = False

    def _cards(self, run) -> list[Card]:
        lab = self.lab
        rate_value, rate_unit = fmt.split_unit(fmt.rate(run.output_tokens_per_s))
        ttft_value, ttft_unit = fmt.split_unit(fmt.duration(run.ttft_p95_s))
        itl_value, itl_unit = fmt.split_unit(fmt.duration(run.itl_p95_s))
        walled = run.memory_stalls > 0
        return [
            Card("output throughput", rate_value, rate_unit, self._gain_note()),
            Card(
                "TTFT p95",
                ttft_value,
                ttft_unit,
                f"p50 {fmt.duration(run.ttft_p50_s)} \u00b7 p99 {fmt.duration(run.ttft_p99_s)} "
                f"\u00b7 goodput {fmt.percent(measured_goodput(run, lab.scenario.tpot_slo_s), 1)} (simulated)",
            ),
            Card("inter-token p95", itl_value, itl_unit, f"p50 {fmt.duration(run.itl_p50_s)}"),
            Card(
                "KV waste",
                fmt.percent(run.kv_waste),
                "",
                f"{fmt.gigabytes(run.kv_allocated_bytes)} set aside on average",
            ),
            Card(
                "most seats at once",
                fmt.count(run.peak_seats),
                f"of B = {lab.batch_size}",
                "memory refused seats" if walled else "memory never refused one",
                "worse" if walled else "",
                alarm=walled,
            ),
        ]

    def _update_engine_note(self, run) -> None:
        """What a real engine would see, beside the simulation (priced like the whiteboard)."""
        lab = self.lab
        if lab.policy != "continuous":
            self.engine_note.say(
                "The engine level models continuous batching, as real engines run: switch the "
                "scheduler to continuous to see what one would measure here."
            )
            return
        # With arrivals the stream sets the throughput; only an offline batch measures it.
        simulated = {"itl_s": run.itl_p50_s}
        rate = None
        if lab.arrival == "offline":
            simulated["throughput_tokens_per_s"] = run.output_tokens_per_s
        else:
            rate = lab.arrival_rate
        self.engine_note.update(
            stream_gaps(self.scenario, simulated, lab.prompt_tokens, lab.answer_mean,
                        lab.batch_size, rate),
            band=trust_band(self.scenario),
            provenance=rate_provenance(self.scenario),
        )  # fmt: skip

    def _gain_note(self) -> str:
        """How the other scheduler compares, on the same layout."""
        ratio = fmt.ratio(gain(self.runs, self.lab.kv_layout))
        if self.lab.policy == "continuous":
            return f"{ratio} static's, both {self.lab.kv_layout}"
        return f"continuous: {ratio} this, both {self.lab.kv_layout}"

    def _summary(self) -> str:
        lab = self.lab
        static = self.runs["static", lab.kv_layout]
        continuous = self.runs["continuous", lab.kv_layout]
        idle = idle_share(static)
        if idle >= IDLE_NOTICE:
            first = (
                f"Static batching ran {fmt.count(static.waves)} waves; each waited for its slowest "
                f"request, so seats sat idle for {fmt.percent(idle)} of the time they were held."
            )
        else:
            first = (
                f"Static batching ran {fmt.count(static.waves)} waves and no seat waited on a "
                "straggler: every wave's requests finished together."
            )
        second = (
            f" On the same arrivals continuous batching wrote "
            f"{fmt.ratio(gain(self.runs, lab.kv_layout))} the tokens per second, with a p95 "
            f"first token of {fmt.duration(continuous.ttft_p95_s)} against "
            f"{fmt.duration(static.ttft_p95_s)}."
        )
        run = self.runs[lab.policy, lab.kv_layout]
        if run.memory_stalls:
            third = (
                f" Memory, not B, capped the {lab.policy} engine at {fmt.count(run.peak_seats)} "
                f"seat{'s' if run.peak_seats != 1 else ''}: the memory wall."
            )
        elif run.peak_seats < lab.batch_size:
            third = (
                f" Traffic never filled B = {lab.batch_size}: at most "
                f"{fmt.count(run.peak_seats)} seats ran at once."
            )
        else:
            third = ""
        return first + second + third
