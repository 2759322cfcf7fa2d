"""The batching lab: a step-level engine to watch, static against continuous batching.

:class:`BatchingLab` owns the knobs, the session's engine runs (:mod:`labs.batching.session`)
and the views, one per part of the page; every figure comes from ``core``. One watcher hears
every knob: it reruns the engines when the workload or node changed, then asks each view
whose knobs moved to redraw, all in one held update.
"""

from __future__ import annotations

from types import MappingProxyType

import panel as pn
import param

from core import Scenario, evaluate
from core.evidence.published import DEFAULT_ACCEPTANCE, DEFAULT_DRAFT_COST, DEFAULT_DRAFT_TOKENS
from core.evidence.published_gap import PUBLISHED_LAB, PUBLISHED_NODE
from core.foundation.validation import Amount, Count
from core.simulator import ANSWER_SHAPES, ARRIVALS, KV_LAYOUTS, POLICIES
from labs.batching import controls
from labs.batching.ceiling import CeilingView
from labs.batching.gap import GapView
from labs.batching.headline import HeadlineView, node_name
from labs.batching.modes import ServingModesCard
from labs.batching.moe import MoeView
from labs.batching.roofline import RooflineView
from labs.batching.session import EngineRuns
from labs.batching.speculative import SpeculativeView
from labs.batching.sweep import SweepView
from labs.batching.timeline import TimelineView
from labs.batching.view import (
    ENGINE_KNOBS,
    NODE_KNOBS,
    RUNS,
    SPECULATIVE_KNOBS,
    VIEW_KNOBS,
    WORKLOAD_KNOBS,
)
from labs.batching.waste import WasteView
from labs.page import theme
from labs.page.layout import lab_page
from labs.page.memo import scenario_key, shared_memo
from labs.page.text import LiveHTML
from labs.widgets.fold import any_moved, folded_section

LAB_KNOBS = (*VIEW_KNOBS, *WORKLOAD_KNOBS, *SPECULATIVE_KNOBS)
# The deeper views, one tab each, folded under the timeline and built when first opened.
TABS = (
    ("sweep", "Batch size"),
    ("modes", "Serving modes"),
    ("waste", "Reserved vs paged"),
    ("gap", "Published gap"),
    ("speculative", "Speculative decoding"),
    ("roofline", "Roofline"),
    ("ceiling", "Decode ceiling"),
    ("moe", "Mixture of experts"),
)
DEEPER_VIEWS = {
    "sweep": SweepView,
    "waste": WasteView,
    "speculative": SpeculativeView,
    "roofline": RooflineView,
    "ceiling": CeilingView,
    "moe": MoeView,
}
DEEPER_SUMMARY = (
    "The batch-size sweep with its memory wall and latency knee, "
    "serving modes (chunked prefill, disaggregation), reserved against paged KV, the published "
    "gap, speculative decoding, the roofline, the decode ceiling and mixture of experts."
)


class BatchingLab(pn.viewable.Viewer):
    """Run the engine yourself: a scheduler, a KV layout, and every request's tokens in time."""

    URL_PARAMS = LAB_KNOBS  # every knob of the lab is kept in shareable links
    RESTORE_TOGETHER = True  # a link's knobs land at once: one engine run, not one per key
    URL_KEYS = MappingProxyType(
        {"prompt_tokens": "engine_prompt_tokens"}
    )  # the Scenario's prompt keeps its key
    URL_PARTS = (("pd_", "modes"),)  # the serving-modes card keeps its knobs in the link

    scenario = param.ClassSelector(class_=Scenario, doc="The session's shared scenario.")
    presenting = param.Boolean(
        default=False, doc="Presenter mode's chart text, for the charts built after the page."
    )
    policy = param.Selector(
        default="static", objects=list(POLICIES), doc="The scheduler the headline figures show."
    )
    kv_layout = param.Selector(
        default="reserved", objects=list(KV_LAYOUTS), doc="How the engine sets KV memory aside."
    )
    batch_size = Count(default=32, bounds=(1, 256), doc="B: the most seats the scheduler runs.")
    wait_cap_s = Amount(
        default=0.5, bounds=(0.0, 5.0), doc="Static only: how long a wave waits to fill."
    )
    arrival = param.Selector(
        default="poisson", objects=list(ARRIVALS), doc="A Poisson stream or an offline batch."
    )
    arrival_rate = Amount(
        default=10.0, bounds=(0.1, 50.0), doc="Mean arrivals per second of the Poisson stream."
    )
    prompt_tokens = Count(default=512, bounds=(16, 8192), doc="Tokens of every prompt.")
    answer = param.Selector(
        default="capped exponential", objects=list(ANSWER_SHAPES), doc="Shape of answer lengths."
    )
    answer_mean = Count(default=128, bounds=(1, 2048), doc="Mean answer tokens.")
    answer_cap = Count(
        default=1536, bounds=(1, 16384), doc="The capped exponential's cap (its max_tokens)."
    )
    requests = Count(default=200, bounds=(20, 1000), doc="Requests each engine serves.")
    seed = Count(default=0, bounds=(0, 9999), doc="Seed of the arrivals and answer lengths.")
    draft_tokens = Count(
        default=DEFAULT_DRAFT_TOKENS, bounds=(1, 16), doc="k: tokens the draft proposes a pass."
    )
    acceptance = Amount(
        default=DEFAULT_ACCEPTANCE, bounds=(0.0, 1.0), doc="Chance each drafted token is kept."
    )
    draft_cost = Amount(
        default=DEFAULT_DRAFT_COST,
        bounds=(0.0, 1.0),
        doc="A draft step as a share of a target step.",
    )

    def __init__(self, scenario: Scenario | None = None, **params):
        super().__init__(scenario=scenario or Scenario(), **params)
        self._suspended = False
        self._running = False
        self.engine = EngineRuns(self)
        self.running = LiveHTML("", sizing_mode="stretch_width", margin=(4, 10))
        self.widgets = controls.widgets(self)
        # The first page builds only what it shows (issue 35): the headline, the published
        # story and the timeline; a deeper view is built when its tab is first opened.
        self.views = {
            "headline": HeadlineView(self),
            "gap": GapView(self),
            "timeline": TimelineView(self),
        }
        self.modes = ServingModesCard(self.scenario, lazy=True)
        self._layout = self._build()
        self.param.watch(self._changed, list(LAB_KNOBS))
        self.scenario.param.watch(self._changed, list(NODE_KNOBS))
        # A link (or a pin) that sets a folded view's knobs opens it on that view.
        self.param.watch(self._speculative_set, list(SPECULATIVE_KNOBS))
        self.modes.param.watch(self._modes_set, list(self.modes.URL_PARAMS))
        self._arrival_changed()
        self.refresh(set(LAB_KNOBS) | set(NODE_KNOBS))

    # -- state ---------------------------------------------------------------------------
    @property
    def result(self):
        """The scenario's evaluation as it is now, kept with core's answers for every session:
        the views read this one instead of evaluating the scenario again."""
        s = self.scenario
        return shared_memo().kept(scenario_key(s), "result", lambda: evaluate(s))

    @property
    def runs(self) -> dict | None:
        """The four engines of the current knobs, keyed (policy, kv_layout)."""
        return self.engine.runs

    @property
    def sweep(self) -> dict | None:
        """Both policies at every batch size of the sweep."""
        return self.engine.sweep

    @property
    def error(self) -> str:
        """Why the engine cannot run ('' when it can)."""
        return self.engine.error

    def view(self, key: str):
        """The view ``key`` (a TABS key), built and drawn on first asking."""
        if key == "modes":
            if not self.modes.built:
                self.modes.build()
                self._present(self.modes)
            return self.modes
        if key not in self.views:
            view = self.views[key] = DEEPER_VIEWS[key](self)
            self._present(view)
            running = self.runs is not None
            if view.NEEDS_RUNS:
                view.panel.visible = running
            if running or not view.NEEDS_RUNS:
                view.refresh()
        elif key == "gap":
            self.views[key].refresh()  # its table is worked out when first shown
        return self.views[key]

    def _present(self, built) -> None:
        """Presenter mode's chart text on charts built after the page (the page did the rest)."""
        if self.presenting:
            theme.present(built, True)
        if isinstance(built, MoeView):
            built.chart.presenter = self.presenting  # for its chart, made once a mixture shows

    @param.depends("presenting", watch=True)
    def _present_later_charts(self) -> None:
        # a closed fold's built rows are out of the layout the page walked
        folds = (self.deeper, self.views["timeline"].queue)
        for body in (fold.body for fold in folds if fold.built):
            theme.present(body, self.presenting)
        if "moe" in self.views:
            self.views["moe"].chart.presenter = self.presenting

    def show(self, key: str) -> None:
        """Open the deeper views on ``key``'s tab."""
        self.deeper.toggle.value = True
        self.tabs.active = [k for k, _title in TABS].index(key)

    def _speculative_set(self, *_events) -> None:
        if any_moved(self, SPECULATIVE_KNOBS):
            self.show("speculative")

    def _modes_set(self, *_events) -> None:
        if any_moved(self.modes, self.modes.URL_PARAMS):
            self.show("modes")

    def load_published(self) -> None:
        """Load the published comparison: its node on the shared scenario, its knobs here."""
        self._load(PUBLISHED_NODE, PUBLISHED_LAB)
        self.views["gap"].tell(loaded=True)

    def restore_defaults(self) -> None:
        """Every knob of this lab, and the node's knobs, back to their defaults."""
        lab = {name: self.param[name].default for name in LAB_KNOBS}
        node = {name: Scenario.param[name].default for name in NODE_KNOBS}
        self._load(node, lab)
        self.views["gap"].tell(loaded=False)

    def _load(self, node: dict, lab: dict) -> None:
        """Set node and lab knobs together, then recompute once."""
        self._suspended = True
        try:
            with pn.io.hold():
                self.scenario.param.update(**node)
                self.param.update(**lab)
        finally:
            self._suspended = False
        self.refresh(set(LAB_KNOBS) | set(NODE_KNOBS))

    def _changed(self, *events) -> None:
        names = {event.name for event in events}
        if names & {"arrival", "answer"}:
            self._arrival_changed()
        if not self._suspended:
            self.refresh(names)

    def _arrival_changed(self) -> None:
        # A knob that cannot act on this traffic or answer shape is not shown (never greyed).
        self.widgets["arrival_rate"].visible = self.arrival != "offline"
        self.widgets["wait_cap_s"].visible = self.arrival != "offline"
        self.widgets["answer_cap"].visible = self.answer == "capped exponential"

    def refresh(self, changed: set) -> None:
        """Rerun the engines if ``changed`` knobs move them, then redraw the views they touch."""
        if changed & ENGINE_KNOBS:
            self.engine.rerun()
            changed = changed | {RUNS}
        running = self.engine.runs is not None
        if running and not self._running:  # back from an error: every view is stale
            changed = changed | set(LAB_KNOBS) | set(NODE_KNOBS)
        self._running = running
        with pn.io.hold():
            if changed & set(NODE_KNOBS):
                self.running.object = controls.running_html(node_name(self.scenario, self.result))
            for view in self.views.values():
                if view.NEEDS_RUNS:
                    view.panel.visible = running
                    if not running:
                        continue
                if view.wants(changed):
                    view.refresh()

    # -- layout --------------------------------------------------------------------------
    def _build(self):
        v = self.views
        results = pn.Column(
            v["headline"],
            v["gap"].story,
            v["timeline"],
            sizing_mode="stretch_width",
            margin=0,
        )
        # The deeper views share one full-width strip of tabs, folded to one line under the
        # timeline: the page stays about two screens tall at 1280 px, and the published gap's
        # seven columns get the whole width. The tabs are made when the fold first opens and
        # each view when its tab is first opened; only the open tab is in the browser.
        self.workload = controls.workload_fold(self, self.widgets)
        self.tabs = None
        self.deeper, deeper = folded_section(
            "Eight deeper views, one tab each",
            self._deeper_rows,
            DEEPER_SUMMARY,
        )
        return lab_page(
            "Run the engine yourself",
            "A small inference engine, simulated one step at a time: requests arrive, a "
            "scheduler seats them, each step prefills new prompts and writes one token for "
            "every running seat. Watch a static wave wait for its slowest request, watch "
            "continuous batching refill seats the moment they free up, and see what memory, "
            "not the batch size, finally allows.",
            controls.knob_panel(self, self.widgets, self.workload),
            results,
            deeper,
        )

    def _deeper_rows(self) -> list:
        """The tabs of the deeper views, each an empty slot until its tab is first opened."""
        self._slots = {key: pn.Column(sizing_mode="stretch_width", margin=0) for key, _ in TABS}
        self.tabs = pn.Tabs(
            *((title, self._slots[key]) for key, title in TABS),
            dynamic=True,
            sizing_mode="stretch_width",
            margin=(8, 0, 0, 0),
        )
        self.tabs.param.watch(self._tab_opened, "active")
        self._tab_opened()
        return [self.tabs]

    def _tab_opened(self, *_events) -> None:
        key = TABS[self.tabs.active][0]
        if not self._slots[key].objects:
            self._slots[key].objects = [self.view(key)]

    def folded_parts(self) -> list:
        """What a closed fold keeps out of the layout (the knobs' widgets, the built folds'
        rows): released with the session (labs/page/cleanup.py), as the layout is."""
        folds = (self.workload, self.deeper, self.views["timeline"].queue)
        return [*self.widgets.values(), *(fold.body for fold in folds if fold.built)]

    def __panel__(self):
        return self._layout
