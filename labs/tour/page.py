"""/tour: the walkthrough as about ten steps over the pool lab, each with one question.

A step sets the lab's knobs, outlines the knob or chart it is about, and asks a guess or a
choice; the answer is judged by :mod:`core.practice.tour`. Back and next move between steps,
and the step lives in the link (``/tour?step=6``), so an instructor can send one.
"""

from __future__ import annotations

from html import escape
from urllib.parse import urlencode

import panel as pn
import param

from core import Scenario
from core.practice.calibration import GUESS_UNITS, WITHIN
from core.practice.reading import examples
from core.practice.tour import answer, grade_guess
from labs.frame.shell import LabPage
from labs.page import format as fmt
from labs.page.links import Binding, restore
from labs.page.text import LiveHTML
from labs.pool.lab import PREDICTED
from labs.tour.steps import STEPS, TourStep, asked_later, option_label, step_knobs, step_words
from labs.widgets.predict import GUESSED, cover

HIGHLIGHT = {"outline": "3px solid #f5a623", "outline-offset": "4px", "border-radius": "6px"}
# The step card rides at the foot of the window, below the lab in the page's flow, so it never
# lies over the lab's title or headline cards.
PANEL_STYLE = {"background": "#fff8ec", "border": "2px solid #f5a623", "border-radius": "10px",
               "padding": "6px 16px", "position": "sticky", "bottom": "0", "z-index": "10",
               "box-shadow": "0 -4px 12px rgba(31, 42, 82, 0.15)"}  # fmt: skip
# Bring the outlined knob or chart into view above the step card (it may sit inside several
# shadow roots): the page stays at its top, title showing, while the target fits there; a
# target still covered until the answer has no box, and the page stays at its top too.
SCROLL_JS = """
function find(root, name) {
  for (const el of root.querySelectorAll('*')) {
    if (el.classList && el.classList.contains(name)) return el;
    if (el.shadowRoot) { const inner = find(el.shadowRoot, name); if (inner) return inner; }
  }
  return null;
}
setTimeout(() => {
  const el = find(document, 'tour-focus');
  const panel = find(document, 'tour-panel');
  const room = window.innerHeight - (panel ? panel.getBoundingClientRect().height : 0) - 16;
  const box = el ? el.getBoundingClientRect() : null;
  let top = 0;
  if (box && box.height > 0 && box.bottom + window.scrollY > room) {
    top = box.top + window.scrollY - 16;
  }
  // a reader who asked for less motion jumps there
  const still = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  window.scrollTo({top: Math.max(0, top), behavior: still ? 'auto' : 'smooth'});
}, 150);
"""


def leave_html(answers: str) -> str:
    """The way out to the lab, carrying the tour's answers (the lab's report reads them)."""
    query = "?" + urlencode({"tour": answers}) if answers else ""
    return (
        f'<a class="tour-button" href="./{escape(query, quote=True)}" data-leave-tour '
        'title="Your answers go with you, into the lab\'s report">Leave the tour</a>'
    )


class TourPage(LabPage):
    """The guided walkthrough: the pool lab with a step panel above it."""

    step = param.Integer(default=1, bounds=(1, len(STEPS)), doc="The tour's step, from 1.")

    def __init__(self, scenario: Scenario | None = None, **params):
        super().__init__(scenario=scenario, **params)
        self.lab = self.view("pool")
        self.answered = False
        self.heading = LiveHTML("", sizing_mode="stretch_width", margin=0)
        self.guess = pn.widgets.TextInput(label="your answer", width=260)
        self.guess.param.watch(lambda event: self._check_guess(event.new), "value")
        self.check = pn.widgets.Button(label="Check", color="primary", margin=(18, 0, 0, 6))
        self.check.on_click(lambda _event: self._check_guess(self.guess.value_input))
        self.choices = pn.Row(margin=0, css_classes=["tour-choices"])
        self.feedback = LiveHTML("", sizing_mode="stretch_width", margin=(4, 0))
        self.back = pn.widgets.Button(label="\u2190 Back", margin=(4, 6, 0, 0), width=110)
        self.next = pn.widgets.Button(label="Next \u2192", margin=(4, 0, 0, 0), width=110)
        self.back.on_click(lambda _event: self._move(-1))
        self.next.on_click(lambda _event: self._move(1))
        self.leave = LiveHTML(leave_html(""), margin=(0, 6))
        self.tour_record.param.watch(self._leave_with_answers, ["answers"])
        self._scroller = pn.widgets.TextInput(value="", visible=False)
        self._scroller.jscallback(value=SCROLL_JS)
        self._lit = None
        self._scrolls = 0
        # The answer and the way on share one row, so the sticky panel stays short.
        self.panel = pn.Column(
            self.heading,
            # the row wraps on a narrow screen: the answer above, the way on below
            pn.Row(self.guess, self.check, self.choices, pn.layout.HSpacer(), self.back,
                   self.next, self._scroller, sizing_mode="stretch_width", margin=0,
                   styles={"flex-wrap": "wrap", "row-gap": "4px"}),
            self.feedback,
            sizing_mode="stretch_width",
            margin=(12, 0, 0, 0),
            css_classes=["tour-panel"],
            styles=PANEL_STYLE,
        )  # fmt: skip
        header = pn.Row(
            LiveHTML('<div class="lab header"><span class="brand">LLM Serving Lab</span>'
                     '<span class="tagline">the guided tour</span></div>', margin=(6, 12, 0, 0)),
            pn.layout.HSpacer(),
            self.leave, self.report, self.presenter_toggle, self.copy_control,
            styles={"background": "#1f2a52", "padding": "10px 24px", "align-items": "center",
                    "flex-wrap": "wrap", "row-gap": "6px",
                    "--bokeh-font-size": "var(--presenter-controls, 13px)"},
            sizing_mode="stretch_width", margin=0, css_classes=["lab-header"],
        )  # fmt: skip
        body = pn.Column(self.notice, self.lab, self.panel, styles={"padding": "16px 24px 0"},
                         sizing_mode="stretch_width", margin=0, css_classes=["lab-body"])  # fmt: skip
        self.root.objects = [header, body]
        self._show()

    def active_view(self):
        return self.lab

    def page_bindings(self) -> list[Binding]:
        return [Binding("step", self, "step"), *super().page_bindings()]

    def _restore_page_keys(self, query: str) -> None:
        # The step first: it sets the knobs, which the rest of the link may then move.
        restore([Binding("step", self, "step")], query)

    def attach(self, location) -> None:
        super().attach(location)
        self.param.watch(self._write, ["step"])
        # Once the browser has drawn the page, bring the step's knob or chart into view.
        pn.state.onload(self._scroll)

    def _scroll(self) -> None:
        self._scrolls += 1  # a new value each time, so the browser always hears of it
        self._scroller.value = f"{self.step}:{self._scrolls}"

    @property
    def current(self) -> TourStep:
        return STEPS[self.step - 1]

    def _move(self, by: int) -> None:
        self.step = min(max(self.step + by, 1), len(STEPS))

    @param.depends("step", watch=True)
    def _show(self) -> None:
        """Set the step's knobs, outline its target, and ask its question."""
        step = self.current
        with pn.io.hold():
            self.lab.presets.preset = ""
            self.scenario.param.update(**step_knobs(step))
            if step.preset:
                self.lab.presets.preset = step.preset
            self._light(step.target)
            self._ask(step)
        self._scroll()

    def _light(self, target: str) -> None:
        if self._lit is not None:
            self._lit.styles = {k: v for k, v in self._lit.styles.items() if k not in HIGHLIGHT}
            self._lit.css_classes = [c for c in self._lit.css_classes if c != "tour-focus"]
        found = self.lab
        for part in target.split("."):
            found = found[part] if isinstance(found, dict) else getattr(found, part)
        if isinstance(found, pn.viewable.Viewer):
            found = found.__panel__()
        found.styles = {**found.styles, **HIGHLIGHT}
        found.css_classes = [*found.css_classes, "tour-focus"]
        self._lit = found

    def _cover(self, covered: bool, cards: bool = False) -> None:
        """Cover what could answer the question (the step's own target too), and the cards.

        Every part of the lab that shows a figure (:meth:`PoolLab.giveaways`) stays covered until
        the question is answered, whatever its kind; a guess covers the headline cards as well.
        While a later step asks to guess a figure at these very knobs, that card and every part
        that shows a figure (checks, notes, ledger) stay covered after the answer too.
        """
        later = asked_later(self.step)  # a later step's guess at these knobs stays covered
        cover(self.lab.giveaways(), covered or bool(later))
        self.lab.cards.hide(
            PREDICTED if cards else [label for label, f in PREDICTED.items() if f in later]
        )

    def _ask(self, step: TourStep) -> None:
        question = step.question
        self._cover(True, cards=question.is_guess)
        words = step_words(self.scenario)
        self.answered = False
        covered = (
            '<p class="small muted">The lab\'s figures below the cards are covered until you '
            f"answer{'; so are the cards' if question.is_guess else ''}.</p>"
        )
        self.heading.object = (
            f'<div class="lab tour-step" data-tour-step="{self.step}">'
            f'<div class="count">Step {self.step} of {len(STEPS)}</div>'
            f"<h2>{escape(step.title)}</h2>"
            # on a phone the text scrolls in a short box (assets/phone.css): a region the
            # keyboard can reach and a screen reader can name
            f'<p class="step-text" tabindex="0" role="region" aria-label="about this step">'
            f"{escape(step.text.format(**words))}</p>"
            f'<p class="question">{escape(question.text.format(**words))}</p>{covered}</div>'
        )
        self.guess.param.update(value="", disabled=False, visible=question.is_guess)
        if question.is_guess:
            self.guess.placeholder = examples(*GUESS_UNITS[question.field]).split(";")[0]
        self.check.visible = question.is_guess
        buttons = []
        for option in question.options:
            button = pn.widgets.Button(label=option_label(option), margin=(4, 6, 0, 0))
            button.on_click(lambda _event, option=option: self._choose(option))
            buttons.append(button)
        self.choices.objects = buttons
        self.feedback.object = ""
        self.feedback.visible = False
        self.back.disabled = self.step == 1
        self.next.param.update(disabled=self.step == len(STEPS), button_type="default")

    def _check_guess(self, text: str) -> None:
        question = self.current.question
        if not question.is_guess or not text or self.guess.disabled:
            return
        found = grade_guess(self.scenario, question.field, text)
        if not found.ok:
            self._answer("", found.reading.message)
            return
        self.guess.disabled = True
        self._record(text)
        figure = GUESSED[question.field][1](found.shown)
        if found.within:
            self._answer("right", f"Within {fmt.percent(WITHIN)}: the lab says {figure}.")
        else:
            self._answer("wrong", f"Off by {fmt.percent(found.miss)}: the lab says {figure}.")

    def _choose(self, option: str) -> None:
        question = self.current.question
        right = answer(question.answer, self.scenario, **(question.args or {}))
        for button in self.choices.objects:
            button.disabled = True
        self._record(f"#{question.options.index(option)}")
        if option == right:
            self._answer("right", f"Right: {option_label(right)}.")
        else:
            self._answer("wrong", f"Not quite: the lab says {option_label(right)}.")

    def _record(self, given: str) -> None:
        """Keep the answer in the link, with the knobs it was given on, for the report."""
        self.tour_record.add(self.step, given, self.scenario.moved_knobs())

    def _leave_with_answers(self, event) -> None:
        self.leave.object = leave_html(event.new)

    def _answer(self, verdict: str, message: str) -> None:
        after = self.current.after if verdict else ""
        if verdict and asked_later(self.step):
            after += " The figures below the cards stay covered: a later step asks for one."
        note = f" {escape(after.strip())}" if after else ""
        self.feedback.object = (
            f'<div class="lab"><p><span class="tour-feedback {verdict}" data-tour-verdict="{verdict}">'
            f"{escape(message)}</span>{note}</p></div>"
        )
        self.feedback.visible = True
        if verdict:
            self.answered = True
            self._cover(False)
            self._scroll()  # the step's target, uncovered now, into view
            self.next.button_type = "primary"
            if self.current.then_preset:
                self.lab.presets.preset = self.current.then_preset
                self.lab.redraw()
