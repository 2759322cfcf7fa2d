"""The student's own benchmark files: one store per session, shared by the labs that show them.

The Reality check and the Frontier labs each place an upload; both feed the session's one
:class:`Measurements`, which reads the files (core), keeps the runs in the session (never in
the link) and re-explains them when a set-up knob changes. The knobs (card, cards, storage,
engine, the model and load for files that do not state them) are the compact summary a link
keeps, under ``my_``.
"""

from __future__ import annotations

import panel as pn
import param

from core.catalog import GPUS, MODELS
from core.catalog.config_json import compact_config, parse_config
from core.evidence.measured.explain import Explained, explain
from core.evidence.measured.matching import ENGINE_NAMES, Choice
from core.evidence.measured.read import MAX_BYTES, check_size, read_file
from core.scenario.knobs import Scenario

MAX_FILES = 12  # files kept at once; more replace the oldest
MAX_RUNS = 40  # runs shown at once (a sweep file can hold many)
# One colour per run, Okabe-Ito without the published points' blue, cycling past eight.
RUN_COLOURS = ("#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#f0e442",
               "#882255")  # fmt: skip
ACCEPTED = (".json", ".jsonl", ".csv")
_STORE = "_lab_measurements"


def run_colour(index: int) -> str:
    return RUN_COLOURS[index % len(RUN_COLOURS)]


class Measurements(param.Parameterized):
    """The session's uploaded runs, the set-up chosen for what their files do not state."""

    URL_PARAMS = ("gpu", "cards", "weights", "cache", "engine", "model", "users")

    gpu = param.Selector(default="H100 SXM", objects=list(GPUS),
                         doc="The card the runs ran on (no results file states it).")  # fmt: skip
    cards = param.Integer(default=0, bounds=(0, 64),
                          doc="Cards per node; 0 takes each model's usual count (a guess).")  # fmt: skip
    weights = param.Selector(default="", objects=["", *Scenario.param.weight_dtype.objects],
                             doc="Weight storage; '' reads it from the model's name or guesses.")  # fmt: skip
    cache = param.Selector(default="", objects=["", *Scenario.param.kv_dtype.objects],
                           doc="KV cache storage; '' guesses bf16.")  # fmt: skip
    engine = param.Selector(default="", objects=["", *ENGINE_NAMES],
                            doc="The serving engine; '' reads the file's backend or guesses.")  # fmt: skip
    model = param.Selector(default="", objects=["", *MODELS, "custom"],
                           doc="The model of runs whose file names none the catalog knows; "
                           "'custom' is the config.json pasted in the model picker.")  # fmt: skip
    users = param.Integer(default=0, bounds=(0, 100_000),
                          doc="Closed-loop users of runs whose file states no load (0: saturated).")  # fmt: skip
    config = param.String(default="", doc="A config.json pasted here for 'custom' (kept compact; "
                          "in the session, not the link).")  # fmt: skip
    explained = param.List(default=[], doc="Every run explained, in upload order.")
    messages = param.List(default=[], doc="What was wrong with the files refused, by file.")

    def __init__(self, scenario: Scenario | None = None, **params):
        super().__init__(**params)
        self.scenario = scenario or Scenario()
        self.files: dict[str, list] = {}  # file name -> its runs, in upload order
        self.param.watch(self._explain, [*self.URL_PARAMS, "config"])
        self.scenario.param.watch(self._pasted, ["model_config"])

    def choice(self) -> Choice:
        return Choice(
            gpu=self.gpu, cards=self.cards or None, weights=self.weights, cache=self.cache,
            engine=self.engine, model=self.model, config=self.config or self.scenario.model_config,
            users=self.users or None,
        )  # fmt: skip

    @property
    def runs(self) -> list:
        return [run for runs in self.files.values() for run in runs][:MAX_RUNS]

    def add(self, uploads: dict) -> None:
        """Read each ``{name: content}`` upload; refused files are reported, never raised."""
        messages = []
        for name, content in uploads.items():
            try:
                check_size(str(name), len(content or b""))
                runs = read_file(str(name), content)
            except ValueError as error:  # core names the file and what is wrong with it
                messages.append(str(error))
                continue
            self.files.pop(runs[0].file, None)
            self.files[runs[0].file] = runs
        set_aside = []
        while len(self.files) > MAX_FILES:
            set_aside.append(self.files.pop(next(iter(self.files)))[0].file)
        if set_aside:
            messages.append(
                f"at most {MAX_FILES} files at once: kept the newest, set aside "
                + ", ".join(set_aside)
            )
        self.messages = messages
        self._explain()

    def paste(self, text: str) -> str:
        """Use a pasted config.json for runs of unknown models; '' or what is wrong with it."""
        try:
            compact = compact_config(text)
            parse_config(compact)
        except ValueError as error:  # a ConfigError says what is wrong in the student's words
            return getattr(error, "message", str(error))
        with param.parameterized.batch_call_watchers(self):
            self.config, self.model = compact, "custom"
        return ""

    def clear(self) -> None:
        self.files.clear()
        self.messages = []
        self._explain()

    def _pasted(self, _event) -> None:
        if self.model == "custom" and self.files:
            self._explain()

    def _explain(self, *_events) -> None:
        self.explained = explain(self.runs, self.choice()) if self.files else []

    def points(self) -> list[tuple[Explained, object]]:
        """(run explained, point) for every point, in order."""
        return [(item, point) for item in self.explained for point in item.points]


def session_measurements(scenario: Scenario) -> Measurements:
    """The session's store: made once, kept on the session's one Scenario."""
    store = getattr(scenario, _STORE, None)
    if store is None:
        store = Measurements(scenario)
        setattr(scenario, _STORE, store)
    return store


def upload_widget(store: Measurements):
    """A drop zone taking several files at once, refusing one over the cap in the browser, and
    a line under it that says the limits."""
    dropper = pn.widgets.FileDropper(
        multiple=True,
        max_files=2 * MAX_FILES,  # past MAX_FILES the store says which files it set aside
        max_file_size=f"{MAX_BYTES // (1024 * 1024)}MB",
        accepted_filetypes=[*ACCEPTED, "application/json", "text/csv"],
        layout="compact",
        sizing_mode="stretch_width",
        label="Drop results files here (vLLM, SGLang, GuideLLM, AIPerf, GenAI-Perf), or browse",
    )

    seen: dict[str, int] = {}  # the dropper keeps one dict and adds to it: read each file once

    def received(event) -> None:
        files = event.new or {}
        new = {name: content for name, content in files.items() if seen.get(name) != id(content)}
        seen.clear()
        seen.update({name: id(content) for name, content in files.items()})
        if new:
            store.add(new)
            dropper.value = {}  # the runs are read: let the files' bytes go

    dropper.param.watch(received, "value")
    limits = pn.pane.HTML(
        f'<div class="lab small muted">Up to {MAX_FILES} files at once, '
        f"{MAX_BYTES // (1024 * 1024)} MB each: your browser refuses a bigger file on its tile, "
        "before sending it.</div>",
        sizing_mode="stretch_width",
        margin=(0, 0, 4, 0),
    )
    return pn.Column(dropper, limits, sizing_mode="stretch_width", margin=0)
