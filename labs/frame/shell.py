"""The page around the labs: a header, navigation, shareable links, and one Scenario per session."""

from __future__ import annotations

import weakref

import panel as pn
import param
from bokeh.events import DocumentReady
from bokeh.models import CustomJS

from core import KNOBS, Scenario
from core.practice.calibration import Calibration
from labs.frame.apology import apology_html, built, log_unexpected
from labs.frame.browser import COPY_LINK_JS, HISTORY_JS, resend_charts
from labs.frame.compare import Comparison
from labs.frame.pins import PinBar, PinBoard
from labs.frame.report import report_button
from labs.frame.routes import LABS, PINLESS, lab_bindings, lab_class, url_parts
from labs.frame.tour_record import TourRecord
from labs.page import theme
from labs.page.a11y import aria_name
from labs.page.cleanup import panel_objects, release_js_callbacks
from labs.page.links import (
    Binding,
    notice_html,
    query_for,
    restore,
)
from labs.page.text import LiveHTML
from labs.page.updates import Later, session_doc
from labs.poll.panel import PollPanel

# The address bar follows the knobs once they have rested this long: rewriting the URL
# costs the browser about as much as redrawing the lab, so a drag must not do it per step.
LINK_DELAY_MS = 1500

# Widgets (Bokeh's and Panel's) size their text from --bokeh-font-size, which inherits into
# their shadow roots: 14 px sits beside the 15 px prose instead of Bokeh's 12 px.
PAGE_STYLE = {"--bokeh-font-size": "14px"}
# On a projector every control, label and line of small print is at least 20 px at 1280 wide.
PRESENTER_STYLE = {
    "--presenter-scale": "1.35",
    "--presenter-small": "1",
    "--presenter-ink": "#000000",
    "--presenter-muted": "#262c38",
    "--presenter-line": "#7d869a",
    "--bokeh-font-size": "20px",
    "--presenter-controls": "20px",
}


def tour_link_html(presenter: bool) -> str:
    """The header's "take the tour" button: a link to /tour, in presenter mode if the page is."""
    query = "?presenter=true" if presenter else ""
    return f'<a class="tour-button" href="tour{query}" data-tour-link>Take the tour</a>'


class LabPage(pn.viewable.Viewer):
    """What every page shares: the session's Scenario, presenter mode and the link it lives in."""

    presenter = param.Boolean(default=False, doc="Large type and high contrast for a projector.")
    predict = param.Boolean(default=False, doc="Cover headline figures until the student guesses.")

    def __init__(self, scenario: Scenario | None = None, **params):
        super().__init__(**params)
        self.scenario = scenario or Scenario()
        self.views: dict[str, pn.viewable.Viewer] = {}
        self.location = None
        self.notice_text = LiveHTML("", sizing_mode="stretch_width", margin=0)
        self.dismiss = pn.widgets.Button(label="Dismiss", margin=(8, 0, 0, 8), width=90)
        self.dismiss.on_click(lambda _event: setattr(self.notice, "visible", False))
        self.notice = pn.Row(
            self.notice_text,
            self.dismiss,
            sizing_mode="stretch_width",
            margin=(0, 0, 8, 0),
            visible=False,
        )
        self.presenter_toggle = pn.widgets.Toggle.from_param(
            self.param.presenter, label="Presenter mode", margin=(0, 6)
        )
        self.calibration = Calibration()  # one running score per session, across the labs
        self.copy_link = pn.widgets.Button(label="Copy link", margin=(0, 6))
        # The button reaches the code as `source`: args naming it would pin it in Panel's
        # callback registry (see labs/page/cleanup.py).
        self._copy_answer = pn.widgets.StaticText(value="", visible=False)
        self._copy_answer.jscallback(args={"button": self.copy_link}, value=COPY_LINK_JS)
        self._copies = 0
        self.copy_link.on_click(self._copy)
        # the button and its hidden answer travel together into each page's header
        self.copy_control = pn.Row(self.copy_link, self._copy_answer, margin=0)
        self.predict_toggle = pn.widgets.Toggle.from_param(
            self.param.predict, label="Predict first", margin=(0, 6)
        )
        # Pins hold whole configurations of the shared knobs, so every lab compares them.
        self.pin_board = PinBoard()
        self.comparison = Comparison(self.pin_board, self.scenario)
        self.pin_bar = PinBar(self.pin_board, self.scenario)
        # The tour's answers ride in the link from /tour into the lab, for the report.
        self.tour_record = TourRecord()
        self.report = report_button(self)  # the session's work as one file, built on a click
        self.pins = pn.Column(
            # predict first sits with the pins: both act on every lab's figures
            pn.Row(
                self.pin_bar,
                self.predict_toggle,
                self.report,
                sizing_mode="stretch_width",
                margin=0,
            ),
            self.comparison,
            sizing_mode="stretch_width",
            margin=0,
        )
        self.root = pn.Column(sizing_mode="stretch_width", margin=0, styles=dict(PAGE_STYLE))
        self._link_writer = Later(self._write_now, delay_ms=LINK_DELAY_MS, settle=True)
        self.base_styles: dict = {}

    def view(self, key: str):
        """The lab ``key``, built on first use and kept for the session."""
        if key not in self.views:
            view = lab_class(key)(scenario=self.scenario)
            self.views[key] = view
            if self.presenter:
                theme.present(view, True)
            if hasattr(view, "predict"):
                view.predict.param.update(calibration=self.calibration, enabled=self.predict)
            if self.location is not None:
                self._watch(view)
        return self.views[key]

    def active_view(self):
        raise NotImplementedError

    def apologise(self, exception: BaseException) -> None:
        """This session's ``pn.config.exception_handler``: log the traceback, show an apology."""
        log_unexpected(exception)
        self.notice_text.object = apology_html("Reload the page to start again from its link.")
        self.notice.visible = True

    def release(self) -> None:
        """Let the server forget this page once its session is closed (see labs/page/cleanup.py)."""
        # the copy control too: an embedded lab's page has no header to find it in
        release_js_callbacks(panel_objects(self.root, self.copy_control, *self.views.values()))

    def page_bindings(self) -> list[Binding]:
        """Bindings of the page itself (lab, presenter) and of the lab on screen."""
        return [
            Binding("presenter", self, "presenter"),
            Binding("predict", self, "predict"),
            *lab_bindings(self.active_view(), self.scenario),
            self.pin_board.binding(),
            self.tour_record.binding(),
        ]

    # -- links ---------------------------------------------------------------------------
    def attach(self, location) -> None:
        """Restore the state in ``location``'s query, then keep the query in step with the page."""
        self.location = location
        self._restore_page_keys(location.search)
        notices = restore(self.page_bindings(), location.search) + self.pin_board.notices
        self.notice_text.object = notice_html(notices)
        self.notice.visible = bool(notices)
        self.param.watch(self._write, ["presenter", "predict"])
        self.pin_board.param.watch(self._write, ["pins"])
        self.tour_record.param.watch(self._write, ["answers"])
        self.scenario.param.watch(self._write, list(KNOBS))
        for view in self.views.values():
            self._watch(view)
        # The browser's own location arrives with the first render; write after it, not before.
        pn.state.onload(self._write_now)

    def _restore_page_keys(self, query: str) -> None:
        """Keys that decide what to build come first; the full restore reports on them."""

    def _watch(self, view) -> None:
        names = list(getattr(view, "URL_PARAMS", ()))
        if names:
            view.param.watch(self._write, names)
        for _prefix, part in url_parts(view):
            part.param.watch(self._write, list(part.URL_PARAMS))
        presets = getattr(view, "presets", None)
        if presets is not None:
            presets.param.watch(self._write, ["preset"])

    def _write(self, *_events) -> None:
        # The link follows a burst of changes once it settles, off the knob's critical path.
        self._link_writer.request()

    def _write_now(self) -> None:
        if self.location is not None:
            self.location.search = query_for(self.page_bindings())

    def _copy(self, _event=None) -> None:
        """Write the state on screen into the address, and send the browser that link to copy."""
        self._write_now()
        self._copies += 1  # a new value each time, so the browser always hears of it
        self._copy_answer.value = f"{query_for(self.page_bindings())}:{self._copies}"

    @param.depends("predict", watch=True)
    def _predict_first(self) -> None:
        for view in self.views.values():
            if hasattr(view, "predict"):
                view.predict.enabled = self.predict

    @param.depends("presenter", watch=True)
    def _present(self) -> None:
        self.root.styles = {
            **PAGE_STYLE,
            **self.base_styles,
            **(PRESENTER_STYLE if self.presenter else {}),
        }
        for view in (self.pins, *self.views.values()):
            theme.present(view, self.presenter)

    def __panel__(self):
        return self.root


class LabShell(LabPage):
    """Navigation between the labs; each lab is built the first time it is opened."""

    lab = param.Selector(default="pool", objects=list(LABS), doc="The lab on screen.")

    def __init__(self, scenario: Scenario | None = None, poll=None, **params):
        super().__init__(scenario=scenario, **params)
        # The class poll's bar (labs/poll), when the server keeps a poll store.
        self.poll = None if poll is None else PollPanel(poll, self.scenario)
        self.nav = aria_name(
            pn.widgets.RadioButtonGroup.from_param(
                self.param.lab,
                options={label: key for key, (label, _view) in LABS.items()},
                color="light",
                description=None,
                margin=(0, 6),
                label="",
                css_classes=["lab-nav"],  # on a phone the tabs wrap across the header (phone.css)
            ),
            "Labs",
        )
        self.tour_link = LiveHTML(tour_link_html(self.presenter), margin=(0, 6))
        self.main = pn.Column(self.view(self.lab), sizing_mode="stretch_width", margin=0)
        self.pins.visible = self.lab not in PINLESS
        self.predict_toggle.visible = hasattr(self.views[self.lab], "predict")
        header = pn.Row(
            LiveHTML(
                '<div class="lab header"><span class="brand">LLM Serving Lab</span>'
                '<span class="tagline">run the arithmetic of serving, not just read it</span></div>',
                margin=(6, 12, 0, 0),
            ),
            pn.layout.HSpacer(),
            self.nav,
            self.tour_link,
            self.presenter_toggle,
            self.copy_control,
            # Presenter type does not fit one line at 1280 px: the header wraps, never overflows.
            styles={
                "background": "#1f2a52",
                "padding": "10px 24px",
                "align-items": "center",
                "flex-wrap": "wrap",
                "row-gap": "6px",
                # the header's buttons stay on one line at 1280 px; presenter mode enlarges them
                "--bokeh-font-size": "var(--presenter-controls, 13px)",
            },
            sizing_mode="stretch_width",
            margin=0,
            css_classes=["lab-header"],  # condensed on a phone (assets/phone.css)
        )
        self.root.objects = [
            header,
            pn.Column(
                *([] if self.poll is None else [self.poll]),
                self.notice,
                self.pins,
                self.main,
                styles={"padding": "16px 24px"},
                sizing_mode="stretch_width",
                margin=0,
                css_classes=["lab-body"],
            ),
        ]

    def view(self, key: str):
        view = super().view(key)
        if hasattr(view, "navigate") and view.navigate is None:
            # A lab that sends the student elsewhere (the frontier's click) switches the tab.
            view.navigate = self._navigate
        return view

    def _navigate(self, key: str) -> None:
        self.lab = key

    def active_view(self):
        return self.view(self.lab)

    def page_bindings(self) -> list[Binding]:
        poll = [] if self.poll is None else [Binding("poll", self.poll, "code")]
        return [Binding("lab", self, "lab"), *super().page_bindings(), *poll]

    def _restore_page_keys(self, query: str) -> None:
        restore([Binding("lab", self, "lab")], query)

    def attach(self, location) -> None:
        super().attach(location)
        self.param.watch(self._write, ["lab"])
        if self.poll is not None:
            self.poll.param.watch(self._write, ["code"])
            self.param.watch(
                lambda event: setattr(self.poll, "presenter", event.new), ["presenter"]
            )
            self.poll.presenter = self.presenter

    @param.depends("presenter", watch=True)
    def _tour_link(self) -> None:
        self.tour_link.object = tour_link_html(self.presenter)

    @param.depends("lab", watch=True)
    def _switch(self) -> None:
        self.main.objects = [self.view(self.lab)]
        self.pins.visible = self.lab not in PINLESS
        # a lab with no figures to cover has no use for the toggle: not shown there
        self.predict_toggle.visible = hasattr(self.views[self.lab], "predict")


class EmbeddedLab(LabPage):
    """One lab without the site chrome, sized for an iframe in a course page."""

    def __init__(self, key: str, scenario: Scenario | None = None, **params):
        super().__init__(scenario=scenario, **params)
        self.key = key
        self.root.objects = [self.notice, self.pins, self.view(key)]
        self.pins.visible = key not in PINLESS
        self.predict_toggle.visible = hasattr(self.views[key], "predict")
        self.base_styles = {"padding": "12px 16px"}
        self.root.styles = {**PAGE_STYLE, **self.base_styles}

    def active_view(self):
        return self.view(self.key)


def _weak_handler(page: LabPage):
    """``page.apologise``, holding the page weakly (a closed session's page is let go)."""
    apologise = weakref.WeakMethod(page.apologise)

    def handle(exception: BaseException) -> None:
        method = apologise()
        (method or log_unexpected)(exception)

    return handle


def _attach_link(page: LabPage) -> LabPage:
    if pn.state.location is not None:
        page.attach(pn.state.location)
    doc = session_doc()
    if doc is not None:
        # Set inside a session, Panel keeps the handler for this session alone, in a
        # dictionary weakly keyed by the document that it never clears: a handler holding the
        # page would hold the document too, and every closed session would stay in memory.
        pn.config.exception_handler = _weak_handler(page)
        doc.js_on_event(DocumentReady, CustomJS(code=HISTORY_JS))
        doc.on_event(DocumentReady, lambda _event: resend_charts(doc))

        def release(session_context) -> None:  # Bokeh checks the argument's name
            page.release()

        pn.state.on_session_destroyed(release)
    return page


def create_app(poll=None) -> LabShell | pn.pane.HTML:
    """A fresh shell and Scenario for one browser session (an apology if building it fails).

    ``poll`` (a :class:`labs.poll.panel.PollService`) adds the class poll's bar.
    """
    theme.extension()
    return built(lambda: _attach_link(LabShell(poll=poll)))


def create_embedded(key: str) -> EmbeddedLab | pn.pane.HTML:
    """One lab alone, for an iframe in a course page (an apology if building it fails)."""
    theme.extension()
    return built(lambda: _attach_link(EmbeddedLab(key)))
