"""The student's own benchmark files: one store per session, shared by the labs that show them.

The Reality check and the Frontier labs each place an upload; both feed the session's one
:class:`Measurements`, which reads the files (core), keeps the runs in the session (never in
the link) and re-explains them when a set-up knob changes. The knobs (card, cards, storage,
engine, the model and load for files that do not state them) are the compact summary a link
keeps, under ``my_``.
"""

from __future__ import annotations

from html import escape

import panel as pn
import param

from core.catalog import GPUS, MODELS
from core.catalog.config_json import compact_config, parse_config
from core.evidence.measured.explain import Explained, explain
from core.evidence.measured.matching import ENGINE_NAMES, Choice
from core.evidence.measured.read import MAX_BYTES, check_size, read_file
from core.scenario.knobs import Scenario
from labs.page.text import LiveHTML

MAX_FILES = 12  # files kept at once; more replace the oldest
MAX_RUNS = 40  # runs shown at once (a sweep file can hold many)
# One colour per run, Okabe-Ito without the published points' blue, cycling past eight.
RUN_COLOURS = ("#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#f0e442",
               "#882255")  # fmt: skip
ACCEPTED = (".json", ".jsonl", ".csv")
_STORE = "_lab_measurements"
# The drop zone lets the browser pass every file: it judges type by MIME, and a .jsonl file
# arrives as application/jsonl, application/x-ndjson, text/plain or no type at all, by browser.
# Core reads each file by its content and refuses, by name and reason, what is no results file.
# Its tiles are the zone's own, one per file: the browser's are taken off once a file is read.
# Every drop zone on the page shows the one session store, so each is cleared alike: "read"
# takes off the tiles of files sent (a file still sending, or refused for its size before it
# was sent, keeps its tile), "all" every tile.
CLEAR_TILES_JS = """
const order = source.text || '';
if (!order || !window.FilePond) { return; }
const everything = order.includes('all');
const roots = [];
const walk = (root) => {
  for (const el of root.querySelectorAll('*')) {
    if (el.classList && el.classList.contains('filepond--root')) { roots.push(el); }
    if (el.shadowRoot) { walk(el.shadowRoot); }
  }
};
walk(document);
const sweep = () => {
  const sent = window.FilePond.FileStatus.PROCESSING_COMPLETE;
  for (const el of roots) {
    const pond = window.FilePond.find(el);
    if (!pond) { continue; }
    for (const item of pond.getFiles()) {
      if (everything || item.status === sent) { pond.removeFile(item.id); }
    }
  }
};
// The browser marks a tile sent a moment after its last bytes go: look again after that.
for (const wait of [300, 1000, 2500]) { setTimeout(sweep, wait); }
"""


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
    refused = param.Dict(default={}, doc="File name -> why it was not read, for its tile.")
    cleared = param.Event(doc="Every file was let go (the tiles go with them).")

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
        messages, refused = [], dict(self.refused)
        for name, content in uploads.items():
            try:
                check_size(str(name), len(content or b""))
                runs = read_file(str(name), content)
            except ValueError as error:  # core names the file and what is wrong with it
                messages.append(str(error))
                refused[str(name)] = _reason(str(name), str(error))
                continue
            refused.pop(str(name), None)
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
        with param.parameterized.batch_call_watchers(self):
            self.refused = dict(list(refused.items())[-MAX_FILES:])
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
        with param.parameterized.batch_call_watchers(self):
            self.messages, self.refused = [], {}
        self._explain()
        self.param.trigger("cleared")

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


def _reason(name: str, message: str) -> str:
    """Core's message without the file name it starts with (the tile already names the file)."""
    base = name.rsplit("/", 1)[-1][:120]
    return message[len(base) + 2 :] if message.startswith(f"{base}: ") else message


def tiles_html(store: Measurements) -> str:
    """One tile per file: green with the runs read, red with why it was refused."""
    tiles = [
        f'<li class="file-tile read" data-file-tile="read"><b>{escape(name)}</b>: '
        f"read, {len(runs)} run{'s' if len(runs) != 1 else ''}</li>"
        for name, runs in store.files.items()
    ] + [
        f'<li class="file-tile refused" data-file-tile="refused"><b>{escape(name)}</b>: '
        f"not read: {escape(why)}</li>"
        for name, why in store.refused.items()
    ]
    if not tiles:
        return ""
    return f'<div class="lab"><ul class="file-tiles" data-file-tiles>{"".join(tiles)}</ul></div>'


def _dropper() -> pn.widgets.FileDropper:
    return pn.widgets.FileDropper(
        multiple=True,
        max_files=2 * MAX_FILES,  # past MAX_FILES the store says which files it set aside
        max_file_size=f"{MAX_BYTES // (1024 * 1024)}MB",
        accepted_filetypes=[],  # every type: core refuses by content (see the note above)
        layout="compact",
        sizing_mode="stretch_width",
        label="Drop results files here (vLLM, SGLang, GuideLLM, AIPerf, GenAI-Perf), or browse",
    )


class UploadZone(pn.viewable.Viewer):
    """A drop zone taking several files at once, and one tile per file saying what became of it.

    The browser's own tiles say only that the bytes arrived: once a file is read its tile is
    taken off (:data:`CLEAR_TILES_JS`), and the zone's tiles (:func:`tiles_html`) say which
    files were read and why the others were not. "Clear my files" clears both.
    """

    def __init__(self, store: Measurements, **params):
        super().__init__(**params)
        self.store = store
        self.tiles = LiveHTML(tiles_html(store), sizing_mode="stretch_width", margin=(4, 0))
        self.dropper = _dropper()
        self.dropper.param.watch(self._received, "value")
        # Tells the browser which of its tiles to take off: "read" or "all", and a count.
        self.tile_signal = pn.widgets.StaticText(value="", visible=False, margin=0)
        self.tile_signal.jscallback(value=CLEAR_TILES_JS)
        self._signals = 0
        self._seen: dict[str, int] = {}  # the dropper keeps one dict and adds to it
        store.param.watch(self._show, ["explained", "refused"])
        store.param.watch(lambda _event: self._clear_browser_tiles("all"), ["cleared"])
        limits = pn.pane.HTML(
            f'<div class="lab small muted">Up to {MAX_FILES} files at once, '
            f"{MAX_BYTES // (1024 * 1024)} MB each: your browser refuses a bigger file on its "
            "tile, before sending it.</div>",
            sizing_mode="stretch_width",
            margin=(0, 0, 4, 0),
        )
        self._layout = pn.Column(
            self.dropper,
            limits,
            self.tile_signal,
            self.tiles,
            sizing_mode="stretch_width",
            margin=0,
        )

    def _received(self, event) -> None:
        files = event.new or {}
        seen = self._seen
        new = {name: content for name, content in files.items() if seen.get(name) != id(content)}
        seen.clear()
        seen.update({name: id(content) for name, content in files.items()})
        if new:
            self.store.add(new)
            self._clear_browser_tiles("read")

    def _clear_browser_tiles(self, which: str) -> None:
        self._signals += 1  # a new value each time, so the browser always hears of it
        self.tile_signal.value = f"{which}:{self._signals}"

    def _show(self, *_events) -> None:
        self.tiles.object = tiles_html(self.store)

    def __panel__(self):
        return self._layout


def upload_widget(store: Measurements) -> UploadZone:
    """The drop zone and its tiles, feeding ``store``."""
    return UploadZone(store)


# What opens a lab's folded "Your measurements": a link's set-up for the files, or a file.
FOLD_KNOBS = (*Measurements.URL_PARAMS, "config", "explained", "messages")


def measurements_summary(store) -> str:
    """A folded "Your measurements" line: how many runs are on the charts, or what it reads."""
    runs = len(store.explained)
    if runs:
        words = f"{runs:,} run{'' if runs == 1 else 's'} of yours on the charts above"
    else:
        words = (
            "No files yet: open to drop your own vLLM, SGLang, GuideLLM, AIPerf or GenAI-Perf "
            "results and see them beside the model"
        )
    if store.messages:
        words += f"; {len(store.messages):,} file{'' if len(store.messages) == 1 else 's'} refused"
    return f'<div class="lab small muted" data-fold-summary>{escape(words)}.</div>'
