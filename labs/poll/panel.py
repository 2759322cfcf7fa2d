"""The class poll on the page: a student's join box, question and vote; the presenter's controls.

Every page of the whole lab carries the poll's bar. A student types the code on the
projector (or opens a link with ``?poll=CODE``) and from then on sees each question the
presenter opens, within a second, whichever server process or host holds the page.

The page never waits for the store on the event loop (labs/poll/board.py): every
:data:`TICK_MS` it asks its process's :class:`~labs.poll.board.PollBoard` for the poll's
version (one read serves every page of the process) and, when it moved, reads the poll on
one of the board's threads; a vote or a presenter's action runs there too, with a fresh
read of the poll after it. A page has one store call at a time (a click made meanwhile
waits for it), and its result reaches the widgets on the event loop. The presenter's page
reads the tally on every tick, so its histogram follows the votes as they arrive. While
the store does not answer, the bar says so and the rest of the lab works as usual.
"""

from __future__ import annotations

import logging
from concurrent.futures import Future

import numpy as np
import panel as pn
import param
from bokeh.events import DocumentReady
from bokeh.models import CustomJS

from core import KNOBS
from core.practice.poll import CARDS, LETTERS, card_question, challenge_question, challenge_titles
from core.practice.registry import CLASSIC_SEED
from labs.page import format as fmt
from labs.page.a11y import aria_names
from labs.page.text import LiveHTML
from labs.page.updates import session_doc
from labs.poll.ballots import BALLOT_COOKIE, cookie_js, visitor
from labs.poll.board import PageCalls
from labs.poll.html import NOT_ANSWERING, NOT_TAKEN, question_html, status_html, tally_html
from labs.poll.room import (
    PRESENTER_COOKIE,
    PRESENTER_COOKIE_S,
    PollRoom,
    new_code,
    read_code,
)
from labs.poll.service import PollService
from labs.poll.store import STORE_ERRORS

log = logging.getLogger("labs.poll")

TICK_MS = 400  # a new question reaches every student page within this (plus one round trip)
BALLOT_KEPT_S = 30 * 86_400  # a browser keeps its signed ballot for 30 days


def question_options() -> dict[str, str]:
    """Label -> key of every question a presenter can open."""
    cards = {f"Predict this card: {what}": f"card:{key}" for key, (what, *_rest) in CARDS.items()}
    challenges = {
        f"Practice: {title}": f"challenge:{key}" for key, title in challenge_titles().items()
    }
    return {**cards, **challenges}


class PollPanel(pn.viewable.Viewer):
    """The poll bar and, once a poll is followed, its question, vote and tally."""

    code = param.String(default="", doc="The class code of the poll this page follows.")
    presenter = param.Boolean(default=False, doc="Presenter mode: offer the presenter's login.")

    def __init__(self, service: PollService, scenario, **params):
        super().__init__(**params)
        self.service = service
        self.scenario = scenario
        self.visitor = visitor(service.gate.secret, service.login_secret)
        self.address = self.visitor.address
        # The store is reached on the board's threads: one that cannot be opened or does
        # not answer costs a notice, never the page.
        self.room = PollRoom(None, self.visitor.ballot)
        self.issued = ""  # the code this page's ballot was counted for
        self.missed = ""  # the last code joined that had no poll (counted once)
        self.call_code = ""  # the code the last store call read
        self.seen_version = -1  # the version of the poll on screen (-1: none read yet)
        self.notice_up = False
        self.rng = np.random.default_rng()
        self.shown: tuple = ()
        self.code_input = pn.widgets.TextInput(placeholder="code", width=90, margin=(0, 6))
        self.join_button = pn.widgets.Button(label="Join", width=70, margin=(0, 6))
        self.join_button.on_click(lambda _e: self._join(self.code_input.value))
        self.code_input.param.watch(lambda _e: self._join(self.code_input.value), "enter_pressed")
        self.password = pn.widgets.PasswordInput(
            placeholder="presenter password", width=240, margin=(0, 6)
        )
        self.unlock_button = pn.widgets.Button(label="Unlock", width=80, margin=(0, 6))
        self.unlock_button.on_click(self._unlock)
        self.message = LiveHTML("", margin=(0, 6))
        # Stores a cookie in the browser when given one (the presenter's, once unlocked).
        # A hidden StaticText (a div), not a text box a page's first text input could be.
        self.keeper = pn.widgets.StaticText(value="", visible=False, margin=0)
        self.keeper.jscallback(value="if (cb_obj.text) { document.cookie = cb_obj.text; }")
        self._presenter_controls()
        self.name_input = pn.widgets.TextInput(placeholder="your name or student number",
                                               width=220, margin=(4, 8, 4, 0))  # fmt: skip
        self.name_input.param.watch(lambda event: setattr(self.room, "name", event.new), "value")
        self.choice = pn.widgets.RadioButtonGroup(options=list(LETTERS[:2]), margin=(4, 0))
        self.vote_button = pn.widgets.Button(label="Vote", color="primary", width=90, margin=(4, 8))
        aria_names({"Poll code": self.code_input, "Your answer": self.choice})
        self.vote_button.on_click(self._vote)
        # what assets/phone.css sizes for a thumb on a phone
        for name in ("code_input", "join_button", "choice", "vote_button", "pick"):
            getattr(self, name).css_classes = [f"poll-{name.split('_')[0]}"]
        self.question_pane = LiveHTML("", sizing_mode="stretch_width", margin=0)
        self.tally_pane = LiveHTML("", sizing_mode="stretch_width", margin=0)
        self.status_pane = LiveHTML("", margin=(4, 0))
        self.root = self._layout()
        doc = session_doc()
        self.calls = PageCalls(service.board, doc, self._collect)
        if doc is not None:  # every page ticks; a test calls tick() itself
            doc.add_periodic_callback(self.tick, TICK_MS)
            if self.visitor.keep:
                code = cookie_js(BALLOT_COOKIE, self.visitor.keep, BALLOT_KEPT_S)
                doc.js_on_event(DocumentReady, CustomJS(code=code))

    def _presenter_controls(self) -> None:
        """The presenter's menu and buttons (on the page only once unlocked)."""
        self.pick = pn.widgets.Select(options=question_options(), width=360, margin=(0, 6))
        aria_names({"Poll question": self.pick})
        self.open_button = pn.widgets.Button(label="Open poll", color="primary", margin=(0, 6))
        self.named = pn.widgets.Checkbox(label="named (one vote per name)", margin=(6, 6))
        self.reveal_button = pn.widgets.Button(label="Reveal", margin=(0, 6))
        self.revote_button = pn.widgets.Button(label="Re-vote", margin=(0, 6))
        self.close_button = pn.widgets.Button(label="Close poll", margin=(0, 6))
        self.open_button.on_click(self._open)
        for button, action in (
            (self.reveal_button, PollRoom.reveal),
            (self.revote_button, PollRoom.revote),
            (self.close_button, PollRoom.close),
        ):
            button.on_click(lambda _e, action=action: self._act(action))

    def _layout(self):
        """The bar, the presenter's controls and the poll's body, in one box."""
        # The presenter's inputs join the page only when shown: a student's page holds no
        # hidden password field or question menu.
        self.login_row = pn.Row(margin=0, visible=False)
        self.controls = pn.Row(
            margin=(6, 0, 0, 0), visible=False, styles={"flex-wrap": "wrap", "row-gap": "6px"}
        )
        self.ballot = pn.Row(
            self.name_input, self.choice, self.vote_button, margin=0, visible=False
        )
        # the question's column is 560 px at most: where that leaves no room the tally wraps under
        self.body = pn.Row(
            pn.Column(self.question_pane, self.ballot, self.status_pane, margin=0, width=560,
                      css_classes=["poll-main"]),
            self.tally_pane, margin=(8, 0, 0, 0), sizing_mode="stretch_width", visible=False,
            styles={"flex-wrap": "wrap"}, css_classes=["poll-body"],
        )  # fmt: skip
        bar = pn.Row(
            LiveHTML('<div class="lab poll-label">Class poll</div>', margin=(0, 6), align="center"),
            self.code_input,
            self.join_button,
            self.login_row,
            self.message,
            self.keeper,
            margin=0,
            styles={"align-items": "center", "flex-wrap": "wrap", "row-gap": "6px"},
        )
        return pn.Column(
            bar, self.controls, self.body, css_classes=["poll-panel"], margin=(0, 0, 10, 0),
            sizing_mode="stretch_width",
            styles={"background": "#ffffff", "border": "1px solid #dfe3ea", "border-radius": "10px",
                    "padding": "8px 12px"},
        )  # fmt: skip

    # -- actions ------------------------------------------------------------------------
    def _join(self, text: str) -> None:
        code = read_code(text)
        if not code:
            self.message.object = (
                '<span class="lab small">A class code is four letters or digits.</span>'
            )
            return
        self.message.object = ""
        self.code = code

    @param.depends("code", watch=True)
    def _follow(self) -> None:
        code = read_code(self.code)
        if code != self.code:  # a link's value that is no code is dropped from the link
            self.code = code
            return
        joins = self.service.joins
        wait = joins.wait_s(self.address) if joins is not None and code else 0.0
        if wait > 0 and code != self.room.code and not self.room.presenter:
            self.message.object = (
                '<span class="lab small">Too many codes with no poll from this address: '
                f"try again in {wait:.0f} s.</span>"
            )
            self.code = self.room.code
            return
        if code != self.room.code:
            self.room.code = code
            self.seen_version, self.shown = -1, ()
        self.code_input.value = self.room.code
        self.tick()

    @param.depends("presenter", watch=True)
    def _offer_login(self) -> None:
        # A browser unlocked earlier (a reload, another worker, a restarted one) stays so.
        kept = self.service.gate.kept(self.visitor.presenter_cookie)
        if self.presenter and not self.room.presenter and kept:
            self.room.presenter = True
            self._unlocked()
            return
        self._show(self.login_row, [self.password, self.unlock_button],
                   self.presenter and not self.room.presenter)  # fmt: skip

    @staticmethod
    def _show(row, widgets: list, shown: bool) -> None:
        """Put ``widgets`` in ``row`` and show it, or empty and hide it."""
        row.objects = widgets if shown else []
        row.visible = shown

    def _unlock(self, _event=None) -> None:
        was = self.room.presenter
        text = self.room.unlock(self.service.gate, self.password.value, self.address)
        self.password.value = ""
        self.message.object = f'<span class="lab small">{text}</span>'
        if self.room.presenter and not was:  # the browser keeps it: reloads stay unlocked
            value = self.service.gate.cookie()
            self.keeper.value = (
                f"{PRESENTER_COOKIE}={value}; path=/; max-age={PRESENTER_COOKIE_S}; SameSite=Strict"
            )
        self._unlocked()

    def _unlocked(self) -> None:
        self._show(self.login_row, [self.password, self.unlock_button], not self.room.presenter)
        controls = [self.pick, self.named, self.open_button, self.reveal_button,
                    self.revote_button, self.close_button]  # fmt: skip
        self._show(self.controls, controls, self.room.presenter)
        self.shown = ()
        self.tick()

    def question(self) -> dict:
        """The question picked in the presenter's menu, for the configuration on screen."""
        kind, _, key = self.pick.value.partition(":")
        if kind == "challenge":
            return challenge_question(key, CLASSIC_SEED).to_dict()
        knobs = {knob: getattr(self.scenario, knob) for knob in KNOBS}
        givens = (("model", fmt.model_name(self.scenario)), ("card", str(self.scenario.gpu)))
        spread = int(self.rng.integers(0, 4))
        return card_question(key, knobs, givens, spread=spread).to_dict()

    def _open(self, _event=None) -> None:
        code = self.room.code or new_code()
        question, named = self.question(), self.named.value

        def work(seat: PollRoom):
            seat.open(question, named)
            return seat.view()

        self._submit(work, lambda view: self._opened(code, view), code=code)

    def _opened(self, code: str, view) -> None:
        self.message.object = ""
        self.room.code = code
        self.code = code
        self._show_view(view)

    def _act(self, action) -> None:
        def work(seat: PollRoom):
            action(seat)
            return seat.view()

        self._submit(work, self._acted)

    def _acted(self, view) -> None:
        self.message.object = ""
        self._show_view(view)

    def _vote(self, _event=None) -> None:
        if self.choice.value not in self.choice.options:
            return
        index = self.choice.options.index(self.choice.value)
        self._submit(lambda seat: (seat.vote(index), seat.view()), self._voted)

    def _voted(self, result) -> None:
        recorded, view = result
        self.message.object = (
            ""
            if recorded
            else '<span class="lab small">That vote was not taken: one vote a round, while it is open.</span>'
        )
        self._show_view(view)

    # -- store calls, off the event loop ------------------------------------------------
    def _submit(self, work, then, code: str | None = None, action: bool = True) -> None:
        """Run ``work(seat)`` off the loop and ``then(result)`` here afterwards.

        ``seat`` is this page's room as it is now (following ``code`` if given).
        """
        seat = self.room.bound(None)
        seat.code = seat.code if code is None else code

        def run(store):
            seat.store = store
            return work(seat)

        self.calls.submit(run, then, seat.code, action)

    def pending(self) -> list[Future]:
        """The store calls this page waits for (tests wait for them, then tick)."""
        return self.calls.pending()

    def _collect(self) -> None:
        """Apply this page's finished store call, if any."""
        done = self.calls.collect()
        if done is None:
            return
        then, call, self.call_code, action = done
        board = self.service.board()
        try:
            result = call.result()
        except STORE_ERRORS as error:
            board.failing(error)
            self._say_answering(False)
            if action:  # said until the next message: reads may work while writes wait
                self.notice_up = False
                self.message.object = NOT_TAKEN
        except (PermissionError, ValueError) as error:
            self.message.object = f'<span class="lab small">{error}</span>'
        else:
            board.answered()
            self._say_answering(True)
            with pn.io.hold():
                then(result)

    def _say_answering(self, answering: bool) -> None:
        """Show, or take down, the notice that the store is not answering."""
        if answering == (not self.notice_up):
            return
        self.notice_up = not answering
        self.message.object = "" if answering else NOT_ANSWERING

    # -- the periodic look at the store ---------------------------------------------------
    def tick(self) -> None:
        """Apply what the store answered; ask it again when the poll's version moved."""
        self._collect()
        if not self.room.code:  # a page that follows no poll never asks the store
            self.body.visible = False
            return
        board = self.service.board()
        version = board.version(self.room.code)
        self._say_answering(board.answering() and not self.calls.late())
        moved = version != self.seen_version if version is not None else self.seen_version < 0
        if self.calls.call is None and (self.room.presenter or moved):
            issue = self.issued != self.room.code and not self.room.presenter
            self._submit(lambda seat: seat.view(issue), self._show_view, action=False)

    def _show_view(self, view) -> None:
        if self.call_code != self.room.code:  # read for a code this page no longer follows
            return
        poll = view.poll
        self.issued = self.issued if self.room.presenter else self.call_code
        if poll is None and self.missed != self.call_code and not self.room.presenter:
            self.missed = self.call_code  # a code with no poll: counted against the address
            if self.service.joins is not None:
                self.service.joins.wrong(self.address)
        self.seen_version = poll.version if poll is not None else 0
        key = (poll and poll.version, view.mine, view.counts, view.earlier)
        if key == self.shown:
            return
        self.shown = key
        self._render(view)

    def _render(self, view) -> None:
        poll = view.poll
        self.status_pane.object = status_html(view, self.room.presenter)
        if poll is None or poll.state == "closed":
            self.body.visible = poll is not None
            self.question_pane.object = ""
            self.tally_pane.object = ""
            self.ballot.visible = False
            return
        question = poll.question
        letters = list(LETTERS[: len(question.get("choices", ()))])
        if self.choice.options != letters:
            self.choice.options = letters
        self.question_pane.object = question_html(question, poll.code, self.room.presenter)
        self.ballot.visible = not self.room.presenter and poll.state == "open" and view.mine is None
        self.name_input.visible = bool(question.get("named"))  # typed once: the session keeps it
        shown = view.counts is not None
        self.tally_pane.visible = shown
        self.tally_pane.object = (
            tally_html(question, view, poll.state == "revealed") if shown else ""
        )
        self.body.visible = True

    def __panel__(self):
        return self.root
