"""The practice lab: the interview arithmetic as seeded problems, checked against core."""

from __future__ import annotations

from html import escape
from types import MappingProxyType

import numpy as np
import panel as pn
import param

from core import Scenario
from core.practice import (
    CHALLENGES,
    CLASSIC_SEED,
    SEED_BOUNDS,
    Verdict,
    challenge_keys,
    check_answer,
    examples,
    make_problem,
    new_seed,
)
from labs.page.cards import Card, CardRow
from labs.page.layout import PANEL_STYLE, knob_column, lab_page
from labs.page.text import LiveHTML
from labs.practice.html import (
    challenge_options,
    derivation_html,
    groups_note,
    hint_html,
    problem_html,
    rule_html,
    verdict_html,
)
from labs.widgets import knobs as ui

ANSWER_MAX_LENGTH = 40  # a typed figure and its unit; the box and the link hold no more


class PracticeLab(pn.viewable.Viewer):
    """Seeded practice problems on the arithmetic of serving, with checking, hints and scores."""

    # Kept in shareable links. The answer comes last: a link's problem clears the box first.
    URL_PARAMS = ("challenge", "seed", "hint_shown", "shown", "answer")
    URL_MAX_LENGTHS = MappingProxyType({"answer": ANSWER_MAX_LENGTH})

    scenario = param.ClassSelector(class_=Scenario, doc="The session's shared scenario (unused).")
    challenge = param.Selector(
        default=challenge_keys()[0], objects=challenge_keys(), doc="The challenge on screen."
    )
    seed = param.Integer(
        default=CLASSIC_SEED,
        bounds=SEED_BOUNDS,
        doc="The seed the problem is drawn from; 0 is the classic version with the walkthrough's "
        "numbers. The same seed gives the same problem on every screen.",
    )
    first_try = param.Integer(
        default=0, bounds=(0, None), doc="Problems answered right at the first try, no hint."
    )
    with_hint = param.Integer(
        default=0, bounds=(0, None), doc="Problems answered right after a hint or a miss."
    )
    revealed = param.Integer(
        default=0,
        bounds=(0, None),
        doc="Problems whose derivation was opened before a right answer.",
    )
    misses = param.Integer(default=0, bounds=(0, None), doc="Wrong answers to the current problem.")
    hint_shown = param.Boolean(default=False, doc="Whether the current problem's hint is showing.")
    shown = param.Boolean(default=False, doc="Whether the current problem's derivation is showing.")
    solved = param.Boolean(
        default=False, doc="Whether the current problem has been answered right."
    )
    answer = param.String(
        default="",
        doc="Your answer as typed, a number with or without its unit. It travels in the "
        "page's link, so a shared link shows it too.",
    )

    def __init__(self, scenario: Scenario | None = None, **params):
        self._rng = np.random.default_rng()  # this session's own stream of new seeds
        self.answered: list[tuple] = []  # (problem, seed, text, verdict) per answer judged
        super().__init__(scenario=scenario or Scenario(), **params)
        self.problem = make_problem(self.challenge, self.seed)
        self.verdict: Verdict | None = None
        self.picker = pn.widgets.RadioButtonGroup.from_param(
            self.param.challenge,
            options=challenge_options(),
            orientation="vertical",
            color="primary",
            variant="outline",
            sizing_mode="stretch_width",
            label="",
        )
        self.seed_input = pn.widgets.IntInput.from_param(
            self.param.seed, label="Seed", start=SEED_BOUNDS[0], end=SEED_BOUNDS[1],
            sizing_mode="stretch_width",
        )  # fmt: skip
        self.new_button = pn.widgets.Button(
            label="New problem", color="primary", sizing_mode="stretch_width"
        )
        self.classic_button = pn.widgets.Button(
            label="Classic numbers (seed 0)",
            color="primary",
            variant="outline",
            sizing_mode="stretch_width",
        )
        self.answer_input = pn.widgets.TextInput.from_param(
            self.param.answer,
            label="Your answer",
            max_length=ANSWER_MAX_LENGTH,
            placeholder="",
            sizing_mode="stretch_width",
            max_width=480,
            margin=(4, 8, 4, 0),
        )
        self.check_button = pn.widgets.Button(label="Check", color="primary", width=90, align="end")
        self.hint_button = pn.widgets.Button(
            label="Hint", color="primary", variant="outline", width=80, align="end"
        )
        self.show_button = pn.widgets.Button(
            label="Show me", color="primary", variant="outline", width=100, align="end"
        )
        self.new_button.on_click(lambda _event: self.new_problem())
        self.classic_button.on_click(lambda _event: setattr(self, "seed", CLASSIC_SEED))
        self.check_button.on_click(lambda _event: self.check())
        self.hint_button.on_click(lambda _event: self.show_hint())
        self.show_button.on_click(lambda _event: self.show_me())
        self.answer_input.param.watch(lambda _event: self.check(), "enter_pressed")

        self.cards = CardRow(columns=3)
        self.problem_pane = LiveHTML("", sizing_mode="stretch_width", margin=(0, 0))
        self.rule_pane = LiveHTML("", sizing_mode="stretch_width", margin=(0, 0))
        self.verdict_pane = LiveHTML("", sizing_mode="stretch_width", margin=(4, 0))
        self.hint_pane = LiveHTML("", sizing_mode="stretch_width", margin=(4, 0))
        self.derivation_pane = LiveHTML("", sizing_mode="stretch_width", margin=(8, 0, 0, 0))
        self.share_pane = LiveHTML("", sizing_mode="stretch_width", margin=(4, 0))
        self.working_note = LiveHTML(
            '<div class="lab practice"><h3>Working</h3><p class="muted" data-working>'
            "A hint and the step-by-step derivation open here. Try the problem first: "
            "\u201cShow me\u201d before a right answer counts as revealed.</p></div>",
            sizing_mode="stretch_width",
            margin=(4, 0),
        )
        self.url_notice = LiveHTML("", sizing_mode="stretch_width", margin=(4, 0))
        self._layout = self._build()
        self._show_problem()
        self._show_score()

    # -- URL -----------------------------------------------------------------------------
    def sync_url(self, location) -> None:
        """Keep :attr:`URL_PARAMS` in ``location``'s query (nothing when it is None).

        Only for serving this lab on its own: inside the app, the page (``labs.frame.shell``)
        keeps :attr:`URL_PARAMS` in the link and this is not called.
        """
        if location is None:
            return
        location.sync(self, {name: name for name in self.URL_PARAMS}, on_error=self._bad_link)

    def _bad_link(self, values: dict) -> None:
        """Apply what a link got right; say what it got wrong."""
        wrong = []
        for name, value in values.items():
            try:
                setattr(self, name, value)
            except Exception:  # a hand-edited link: any value may arrive
                wrong.append(f"{name}={value!r}")
        if wrong:
            self.url_notice.object = (
                '<div class="lab"><div class="notice">The link\'s '
                f"{escape(', '.join(wrong))} isn't valid; showing seed {self.seed} of "
                f"“{escape(CHALLENGES[self.challenge].title)}” instead.</div></div>"
            )

    # -- actions -------------------------------------------------------------------------
    def new_problem(self) -> None:
        """Draw a fresh seed for the current challenge."""
        self.seed = new_seed(self._rng)

    @param.depends("challenge", "seed", watch=True)
    def _on_problem(self) -> None:
        self.problem = make_problem(self.challenge, self.seed)
        self.verdict = None
        self.param.update(misses=0, hint_shown=False, shown=False, solved=False)
        self.answer = self.answer_input.value_input = ""
        self.url_notice.object = ""
        self._show_problem()

    def check(self, text: str | None = None) -> Verdict:
        """Judge ``text`` (the answer box when omitted), update the score, show the verdict."""
        if text is None:
            text = self.answer_input.value_input or self.answer or ""
            self.answer = text  # the link names the answer that was judged
        verdict = check_answer(self.problem, text)
        if verdict.status != "unreadable":  # the session's answers, for the student's report
            self.answered.append((self.problem, self.seed, text, verdict))
        note = ""
        if verdict.status == "right":
            if self.solved:
                note = "Already scored for this problem."
            elif self.shown:
                note = "Scored as revealed: the derivation was open first."
                self.solved = True
            elif self.misses == 0 and not self.hint_shown:
                self.first_try += 1
                self.solved = True
            else:
                self.with_hint += 1
                self.solved = True
        elif verdict.status == "wrong" and not self.solved:
            self.misses += 1
            if not self.hint_shown:
                self.hint_shown = True
                note = "The hint is open below."
        self.verdict = verdict
        with pn.io.hold():
            self.verdict_pane.object = verdict_html(verdict, note)
            self._show_help()
            self._show_score()
        return verdict

    def show_hint(self) -> None:
        """Open the current problem's hint."""
        self.hint_shown = True
        self._show_help()

    def show_me(self) -> None:
        """Open the derivation; before a right answer this scores the problem as revealed."""
        if not self.shown and not self.solved:
            self.revealed += 1
        self.shown = True
        with pn.io.hold():
            self._show_help()
            self._show_score()

    # -- display -------------------------------------------------------------------------
    def _show_problem(self) -> None:
        problem = self.problem
        with pn.io.hold():
            self.problem_pane.object = problem_html(problem)
            self.rule_pane.object = rule_html(problem)
            self.answer_input.placeholder = (
                f"e.g. {examples(problem.kind, problem.unit).split(';')[0]}"
            )
            self.verdict_pane.object = ""
            self.share_pane.object = (
                '<div class="lab small muted">Same seed, same problem on every screen: share '
                f"seed <b>{self.seed}</b> of \u201c{escape(self.problem.title)}\u201d, or this "
                "page's link.</div>"
            )
            self._show_help()
            self._show_score()

    @param.depends("hint_shown", "shown", watch=True)
    def _show_help(self) -> None:
        self.hint_pane.object = hint_html(self.problem) if self.hint_shown else ""
        self.hint_pane.visible = self.hint_shown
        self.derivation_pane.object = derivation_html(self.problem) if self.shown else ""
        self.derivation_pane.visible = self.shown
        self.working_note.visible = not (self.hint_shown or self.shown)

    def _show_score(self) -> None:
        self.cards.update(
            [
                Card("right first try", str(self.first_try), "", "no hint, no miss",
                     "better" if self.first_try else ""),
                Card("right after a hint", str(self.with_hint), "", "after a hint or a miss"),
                Card("revealed", str(self.revealed), "", "derivation opened before a right answer"),
            ]
        )  # fmt: skip

    # -- layout --------------------------------------------------------------------------
    def _build(self):
        side = knob_column(
            ui.heading("Challenges"),
            LiveHTML(
                f'<div class="lab small muted">{groups_note()}</div>',
                margin=(0, 10, 4, 10),
                sizing_mode="stretch_width",
            ),
            self.picker,
            ui.heading("The seed"),
            self.seed_input,
            self.new_button,
            self.classic_button,
            self.share_pane,
        )
        answer_row = pn.Row(
            self.answer_input,
            self.check_button,
            self.hint_button,
            self.show_button,
            sizing_mode="stretch_width",
            margin=(8, 0, 0, 0),
        )
        problem = pn.Column(
            self.url_notice,
            self.problem_pane,
            answer_row,
            self.rule_pane,
            self.verdict_pane,
            styles={**PANEL_STYLE, "padding": "8px 16px 12px", "flex": "1 1 560px"},
            sizing_mode="stretch_width",
            margin=0,
        )
        # Beside the problem on a wide screen, under it on a laptop: the hint and the steps.
        working = pn.Column(
            self.working_note,
            self.hint_pane,
            self.derivation_pane,
            styles={**PANEL_STYLE, "padding": "8px 16px 12px", "flex": "1 1 420px"},
            sizing_mode="stretch_width",
            margin=0,
        )
        main = pn.Column(
            self.cards,
            pn.FlexBox(
                problem, working, flex_wrap="wrap", gap="12px", margin=(8, 0, 0, 0),
                sizing_mode="stretch_width",
            ),
            sizing_mode="stretch_width",
            margin=0,
        )  # fmt: skip
        lede = (
            "Problems interviewers ask about serving: cache bytes, seats, prefill time, "
            "the single-stream ceiling, the bill, a latent cache, a mixture of experts' reads. "
            "Each is drawn from a seed, so a class can work "
            "the same numbers. Type an answer with or without a unit; it is checked against the "
            "model the other labs run, and \u201cShow me\u201d works it through step by step."
        )
        return lab_page("Practice the interview arithmetic", lede, side, main)

    def __panel__(self):
        return self._layout
