"""The serving-modes card: one arrival stream served three ways on the same cards.

Every figure comes from :func:`core.simulator.simulate`; this module lays them out. One knob
change reruns three engines on the same arrivals: whole prompts between decode steps,
prompts in chunks inside them, and separate prefill and decode nodes joined by a link.
"""

from __future__ import annotations

from html import escape

import panel as pn
import param
from bokeh.models import Range1d

from core import Scenario
from core.foundation.validation import Amount, Count
from core.simulator import LINKS, MODES, draw_requests, simulate
from core.simulator.batching import DESIGN_TOKENS, SIMULATOR_DEFAULTS, first_within
from core.simulator.steps import step_costs
from labs.batching import modes_charts as charts
from labs.batching.modes_knobs import modes_widgets
from labs.page import format as fmt
from labs.page.layout import note, section
from labs.page.text import LiveHTML
from labs.page.updates import refill

STREAM_KNOBS = (
    "arrival_rate",
    "requests",
    "prompt_tokens",
    "answer_mean",
    "long_every",
    "long_prompt_tokens",
    "batch_size",
    "seed",
)
DESIGN_KNOBS = ("prefill_cards", "decode_cards", "chunk_tokens", "link")
NODE_KNOBS = ("tier", "model", "gpu", "cards", "weight_dtype", "kv_dtype")

# "One long prompt stalls everyone": a busy chat stream on two nodes, one 16k-token prompt
# in the middle of it.
STALL_PRESET = {
    "arrival_rate": 16.0,
    "requests": 120,
    "prompt_tokens": 512,
    "answer_mean": 128,
    "long_every": 120,
    "long_prompt_tokens": 16_384,
    "batch_size": 32,
    "prefill_cards": 1,
    "decode_cards": 1,
    "chunk_tokens": SIMULATOR_DEFAULTS["chunk_tokens"],
    "link": "nvlink",
    "seed": 0,
}


class ServingModesCard(pn.viewable.Viewer):
    """No chunking, chunked prefill and disaggregation, side by side on one stream."""

    scenario = param.ClassSelector(class_=Scenario, doc="The session's shared scenario.")
    arrival_rate = Amount(default=16.0, bounds=(0.5, 50.0), doc="Mean arrivals per second.")
    requests = Count(default=120, bounds=(20, 600), doc="Requests each design serves.")
    prompt_tokens = Count(default=512, bounds=(16, 8192), doc="Tokens of every short prompt.")
    answer_mean = Count(default=128, bounds=(1, 1024), doc="Mean answer tokens.")
    long_every = Count(
        default=120, bounds=(0, 600), doc="One request in this many has a long prompt; 0 for none."
    )
    long_prompt_tokens = Count(
        default=16_384, bounds=(1024, 32_768), doc="Tokens of each long prompt."
    )
    batch_size = Count(default=32, bounds=(1, 256), doc="Seats per node.")
    prefill_cards = Count(
        default=1, bounds=(1, 4), doc="Disaggregated: nodes that only prefill (x of x:y)."
    )
    decode_cards = Count(
        default=1, bounds=(1, 4), doc="Disaggregated: nodes that only decode (y of x:y)."
    )
    chunk_tokens = Count(
        default=SIMULATOR_DEFAULTS["chunk_tokens"],
        bounds=(64, 8192),
        doc="Chunked: tokens one step may hold, decodes included (max_num_batched_tokens).",
    )
    link = param.Selector(default="nvlink", objects=list(LINKS), doc="The cache's link.")
    seed = Count(default=0, bounds=(0, 9999), doc="Seed of the arrivals and answer lengths.")

    URL_PARAMS = (*STREAM_KNOBS, *DESIGN_KNOBS)

    def __init__(self, scenario: Scenario | None = None, lazy: bool = False, **params):
        super().__init__(scenario=scenario or Scenario(), **params)
        self.results: dict | None = None
        self.error = ""
        self.widgets = self._layout = None
        # ``lazy``: the knobs live here from the start (a link sets them), the widgets, charts
        # and three engine runs only when the card is first shown (issue 35: a session's first
        # page builds only what it shows).
        if not lazy:
            self.build()

    @property
    def built(self) -> bool:
        """Whether the card's widgets and charts exist yet."""
        return self._layout is not None

    def build(self) -> None:
        """Make the widgets and charts and run the three designs, once."""
        if self.built:
            return
        self.widgets = modes_widgets(self)
        self.notice = LiveHTML("", sizing_mode="stretch_width", margin=(4, 0))
        self.notice.visible = False
        self.table = LiveHTML("", sizing_mode="stretch_width", margin=(4, 0))
        self.story = LiveHTML("", sizing_mode="stretch_width", margin=(4, 0))
        self.captions = {mode: LiveHTML("", margin=(6, 0, 0, 0)) for mode in MODES}
        self.x_range = Range1d(0, 1)
        self.timelines = {
            mode: charts.timeline_figure(self.x_range, charts.MODE_LABELS[mode]) for mode in MODES
        }
        self.ttft_plot, self.ttft_source = charts.percentile_figure("Time to first token", MODES)
        self.itl_plot, self.itl_source = charts.percentile_figure("Inter-token latency", MODES)
        self.path_plot, self.path_source = charts.path_figure(MODES)
        self.load_stall = pn.widgets.Button(
            label="Load: one long prompt stalls everyone",
            color="primary",
            sizing_mode="stretch_width",
            css_classes=["wrap-label"],
        )
        self.load_stall.on_click(lambda _event: self.load_preset())
        self._layout = self._build()
        self.param.watch(self.refresh, [*STREAM_KNOBS, *DESIGN_KNOBS])
        self.scenario.param.watch(self.refresh, list(NODE_KNOBS))
        self.refresh()

    def load_preset(self) -> None:
        """The stall: a busy stream on two nodes with one 16k-token prompt in its middle."""
        self.param.update(**STALL_PRESET)

    # -- the model ----------------------------------------------------------------------------
    def compute(self) -> dict:
        """The three designs on the same stream and the same x + y nodes."""
        costs = step_costs(self.scenario)
        drawn = draw_requests(
            self.requests,
            self.seed,
            rate_per_s=self.arrival_rate,
            prompt_tokens=self.prompt_tokens,
            answer_mean=self.answer_mean,
            long_every=self.long_every,
            long_prompt_tokens=self.long_prompt_tokens,
        )
        workload = first_within(drawn, DESIGN_TOKENS)  # a change stays well under a second
        nodes = self.prefill_cards + self.decode_cards
        common = {"workload": workload, "costs": costs, "batch_size": self.batch_size}
        return {
            "aggregated": simulate(self.scenario, "continuous", "paged", replicas=nodes, **common),
            "chunked": simulate(
                self.scenario,
                "continuous",
                "paged",
                mode="chunked",
                replicas=nodes,
                chunk_tokens=self.chunk_tokens,
                **common,
            ),
            "disaggregated": simulate(
                self.scenario,
                "continuous",
                "paged",
                mode="disaggregated",
                prefill_nodes=self.prefill_cards,
                decode_nodes=self.decode_cards,
                link=self.link,
                **common,
            ),
        }

    def refresh(self, *_events) -> None:
        """Rerun the three designs and refill every chart, or say why not."""
        try:
            results = self.compute()
        except ValueError as error:
            self.error = str(error)
            self.notice.object = (
                f'<div class="lab notice">Could not run this stream: {escape(self.error)}. '
                "The charts still show the last stream that ran.</div>"
            )
            self.notice.visible = True
            return
        self.error = ""
        self.results = results
        with pn.io.hold():
            self._show_served(results["aggregated"].requests)
            self._fill(results)

    def _show_served(self, served: int) -> None:
        """Say so when the designs served only the first of the requests asked for."""
        self.notice.visible = served < self.requests
        if served < self.requests:
            self.notice.object = (
                f'<div class="lab small muted" data-served>Each design served the first '
                f"{fmt.count(served)} of the {fmt.count(self.requests)} requests: a design "
                f"stops at {fmt.count(DESIGN_TOKENS)} answer tokens, so that a change answers "
                "within a second.</div>"
            )

    def _fill(self, results: dict) -> None:
        end = max(float(r.finish_s.max()) for r in results.values())
        self.x_range.start, self.x_range.end = 0.0, end * 1.02
        long_tokens = self.long_prompt_tokens if self.long_every else 0
        for mode, result in results.items():
            fig, stays, stalls = self.timelines[mode]
            data = charts.timeline_data(result, long_tokens)
            refill(stays, data["stays"])
            refill(stalls, data["stalls"])
            fig.y_range.start, fig.y_range.end = -0.8, charts.seat_rows(result)
            self.captions[mode].object = self._caption(mode, result)
        refill(self.ttft_source, charts.percentile_data(results, "ttft"))
        refill(self.itl_source, charts.percentile_data(results, "itl"))
        refill(self.path_source, charts.path_data(results))
        self.table.object = self._table(results)
        self.story.object = self._story(results)

    # -- words -----------------------------------------------------------------------------
    def _nodes(self, mode: str) -> str:
        nodes = self.prefill_cards + self.decode_cards
        if mode == "disaggregated":
            return f"{self.prefill_cards} prefill + {self.decode_cards} decode nodes"
        return f"{nodes} nodes, each prefilling and decoding"

    def _caption(self, mode: str, result) -> str:
        stalls = result.stalls()
        worst = result.itl_s().max() if result.token_s.size > 1 else 0.0
        stalled = len(set(stalls["request"].tolist()))
        return (
            f'<div class="lab small"><b>{charts.MODE_LABELS[mode]}</b> on {self._nodes(mode)}: '
            f"longest gap between two tokens {fmt.duration(worst)}; {stalled} stream(s) "
            "stalled.</div>"
        )

    def _table(self, results: dict) -> str:
        head = "".join(
            f"<th>{label}</th>"
            for label in (
                "design",
                "TTFT p50",
                "p95",
                "p99",
                "ITL p50",
                "p95",
                "p99",
                "longest gap",
                "KV transfer",
                "output",
            )
        )
        rows = []
        for mode, r in results.items():
            worst = r.itl_s().max() if r.token_s.size > 1 else 0.0
            cells = [
                charts.MODE_LABELS[mode],
                *(fmt.duration(getattr(r, f"ttft_{q}_s")) for q in charts.PERCENTILES),
                *(fmt.duration(getattr(r, f"itl_{q}_s")) for q in charts.PERCENTILES),
                fmt.duration(worst),
                fmt.duration(r.time_split()["KV transfer"]),
                fmt.rate(r.output_tokens_per_s),
            ]
            rows.append("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in cells) + "</tr>")
        return (
            '<div class="lab"><table class="table"><thead><tr>'
            + head
            + "</tr></thead><tbody>"
            + "".join(rows)
            + "</tbody></table></div>"
        )

    def _story(self, results: dict) -> str:
        whole, chunked, apart = (results[mode] for mode in MODES)
        worst = {
            mode: r.itl_s().max() if r.token_s.size > 1 else 0.0 for mode, r in results.items()
        }
        long_text = ""
        if self.long_every:
            firsts = {mode: r.mean_ttft(self.long_prompt_tokens) for mode, r in results.items()}
            long_text = (
                f" The long prompts' own first token takes {fmt.duration(firsts['aggregated'])} "
                f"unchunked, {fmt.duration(firsts['chunked'])} chunked and "
                f"{fmt.duration(firsts['disaggregated'])} on a prefill node."
            )
        return (
            '<div class="lab small">'
            f"Without chunking, every whole prompt stops the streams that share its node for "
            f"its whole prefill: the longest gap is {fmt.duration(worst['aggregated'])} and ITL "
            f"p99 {fmt.duration(whole.itl_p99_s)}. Chunked prefill spreads each prompt over "
            f"steps of at most {self.chunk_tokens:,} tokens: the longest gap falls to "
            f"{fmt.duration(worst['chunked'])} (ITL p99 {fmt.duration(chunked.itl_p99_s)}). "
            f"Disaggregation takes prompts off the decode nodes altogether: ITL p99 "
            f"{fmt.duration(apart.itl_p99_s)}, while TTFT p95 ({fmt.duration(apart.ttft_p95_s)}) "
            f"now depends only on the {self.prefill_cards} prefill node(s), and each cache "
            f"spends {fmt.duration(apart.time_split()['KV transfer'])} on the link on average."
            f"{long_text}</div>"
        )

    # -- layout ----------------------------------------------------------------------------
    def _build(self):
        w = self.widgets
        knobs = pn.Column(
            self.load_stall,
            note("Three designs, the same arrivals, the same x + y nodes of the shared card."),
            LiveHTML('<div class="lab"><h3>Stream</h3></div>'),
            w["arrival_rate"],
            w["requests"],
            w["prompt_tokens"],
            w["answer_mean"],
            w["long_every"],
            w["long_prompt_tokens"],
            w["seed"],
            LiveHTML('<div class="lab"><h3>Designs</h3></div>'),
            w["batch_size"],
            w["prefill_cards"],
            w["decode_cards"],
            w["chunk_tokens"],
            note("The disaggregated cache crosses NVLink (one server) or InfiniBand NDR (two):"),
            w["link"],
            width=300,
            margin=(0, 16, 0, 0),
        )
        timelines = [
            item
            for mode in MODES
            for item in (
                self.captions[mode],
                pn.pane.Bokeh(self.timelines[mode][0], sizing_mode="stretch_width"),
            )
        ]
        results = pn.Column(
            self.notice,
            self.table,
            self.story,
            LiveHTML(charts.TIMELINE_LEGEND, margin=(8, 0, 0, 0)),
            *timelines,
            pn.Row(
                pn.pane.Bokeh(self.ttft_plot, sizing_mode="stretch_width"),
                pn.pane.Bokeh(self.itl_plot, sizing_mode="stretch_width"),
                sizing_mode="stretch_width",
            ),
            LiveHTML(charts.PATH_LEGEND, margin=(8, 0, 0, 0)),
            pn.pane.Bokeh(self.path_plot, sizing_mode="stretch_width"),
            sizing_mode="stretch_width",
            margin=0,
        )
        return section(
            "After continuous batching: chunked prefill and disaggregation",
            pn.Row(knobs, results, sizing_mode="stretch_width"),
            note=(
                "A long prompt prefilled whole stops every stream on its node. Chunking splits "
                "it across steps; disaggregation gives prompts nodes of their own."
            ),
        )

    def __panel__(self):
        self.build()
        return self._layout
