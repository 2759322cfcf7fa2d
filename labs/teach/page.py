"""/teach: the instructor's lessons, printable, every figure from core when the page is built.

Each lesson (:mod:`labs.teach.lessons`) is a sequence of links into the whole lab, each with
its minutes, what to say (its figures filled in from :func:`core.evaluate` for the link's own
configuration) and, at some steps, a poll question with its right answer and the common wrong
ones, each with the misconception it reveals (the practice challenge's traps, from
:func:`core.practice.poll.challenge_question`).
"""

from __future__ import annotations

from html import escape
from urllib.parse import urlencode

import panel as pn

from core import KNOBS, Scenario, evaluate
from core.practice.poll import PollQuestion, challenge_question
from labs.page import format as fmt
from labs.page.links import Binding, restore
from labs.page.text import LiveHTML
from labs.teach.lessons import LESSONS, Lesson, Poll, Step

# How the lessons' templates write each figure they quote, by Result field.
WRITERS = {
    "kv_bytes_per_token": lambda r: f"{fmt.count(r.kv_bytes_per_token)} bytes",
    "seat_kv_bytes": lambda r: fmt.memory(r.seat_kv_bytes),
    "node_memory_bytes": lambda r: fmt.memory(r.node_memory_bytes),
    "weight_bytes": lambda r: fmt.memory(r.weight_bytes),
    "margin_bytes": lambda r: fmt.memory(r.margin_bytes),
    "kv_budget_bytes": lambda r: fmt.memory(r.kv_budget_bytes),
    "seat_tokens": lambda r: fmt.count(r.seat_tokens),
    "prompt_tokens": lambda r: fmt.count(r.prompt_tokens),
    "seats_granted": lambda r: fmt.count(r.seats_granted),
    "seats_requested": lambda r: fmt.count(r.seats_requested),
    "cards": lambda r: fmt.count(r.cards),
    "nodes": lambda r: fmt.count(r.nodes),
    "servers": lambda r: fmt.count(r.servers),
    "utilization": lambda r: fmt.percent(r.utilization),
    "hit_rate": lambda r: fmt.percent(r.hit_rate),
    "prefill_s": lambda r: fmt.duration(r.prefill_s),
    "queue_wait_p95_s": lambda r: fmt.duration(r.queue_wait_p95_s, r.queue_unbounded),
    "ttft_p50_s": lambda r: fmt.first_token(r.ttft_p50_s, r.queue_unbounded, r.seats_granted),
    "ttft_p95_s": lambda r: fmt.first_token(r.ttft_p95_s, r.queue_unbounded, r.seats_granted),
    "monthly_usd": lambda r: fmt.dollars(r.monthly_usd),
    "usd_per_million_output_tokens": lambda r: fmt.token_price(r.usd_per_million_output_tokens),
}


class Figures:
    """A configuration's figures as a lesson quotes them: ``{now.seats_granted}``, ``{now.gpu}``."""

    def __init__(self, scenario: Scenario):
        self.scenario = scenario
        self.result = evaluate(scenario)

    def __getattr__(self, name: str) -> str:
        if name in WRITERS:
            return WRITERS[name](self.result)
        if name in KNOBS:
            return str(getattr(self.scenario, name))
        raise AttributeError(f"a lesson quotes {name!r}, which no writer knows")


def step_query(step: Step) -> str:
    """The query of a step's link: the lab first, then the values its link keeps."""
    return "?" + urlencode([("lab", step.lab), *step.link.items()])


def step_scenario(step: Step) -> Scenario:
    """The Scenario a step's link opens, read from the link as the lab reads it."""
    scenario = Scenario()
    restore([Binding(knob, scenario, knob) for knob in KNOBS], step_query(step))
    return scenario


def step_words(step: Step, before: Step | None) -> str:
    """What to say at ``step``, its figures computed for its own and the step before's links."""
    now = Figures(step_scenario(step))
    previous = Figures(step_scenario(before)) if before is not None else now
    return step.say.format(now=now, before=previous)


def poll_question(poll: Poll) -> PollQuestion:
    return challenge_question(poll.challenge, poll.seed)


def misconceptions(question: PollQuestion) -> dict[str, str]:
    """Each wrong choice -> the misconception it reveals (the trap's message, from core)."""
    found = {}
    for line in question.why.splitlines():
        choice, _, message = line.partition(": ")
        if choice in question.choices:
            found[choice] = message
    return found


def poll_html(poll: Poll) -> str:
    """A poll question as the instructor reads it: the right answer and what each wrong one reveals."""
    question = poll_question(poll)
    wrong = misconceptions(question)
    givens = "".join(
        f"<tr><th>{escape(what)}</th><td>{escape(value)}</td></tr>"
        for what, value in question.givens
    )
    choices = []
    for index, choice in enumerate(question.choices):
        if index == question.right:
            choices.append(f'<li class="right" data-right><b>{escape(choice)}</b>: right</li>')
        else:
            reveals = wrong.get(choice, "a guess the class may make")
            choices.append(f"<li data-wrong><b>{escape(choice)}</b>: {escape(reveals)}</li>")
    return (
        f'<div class="teach-poll" data-poll="{escape(poll.challenge)}"><p><b>Poll: '
        f'{escape(question.title)}</b> <span class="muted small">(in the poll bar: '
        f"{escape(question.title)}, seed {poll.seed})</span></p><p>{escape(question.prompt)}</p>"
        f'<table class="grid small">{givens}</table><ul class="facts">{"".join(choices)}</ul></div>'
    )


def step_html(number: int, step: Step, before: Step | None) -> str:
    href = "./" + step_query(step)
    poll = poll_html(step.poll) if step.poll is not None else ""
    return (
        f'<li class="teach-step" data-step="{number}"><p><b>{escape(step.title)}</b> '
        f'<span class="muted">\u00b7 {step.minutes} min</span></p>'
        f'<p><a href="{escape(href, quote=True)}" target="_blank" data-lesson-link>'
        f"{escape(href)}</a></p><p>{escape(step_words(step, before))}</p>{poll}</li>"
    )


def lesson_html(lesson: Lesson) -> str:
    """One lesson: its goal, length, and its steps in order."""
    steps = "".join(
        step_html(index + 1, step, lesson.steps[index - 1] if index else None)
        for index, step in enumerate(lesson.steps)
    )
    return (
        f'<section class="lab teach-lesson" data-lesson="{lesson.key}"><h2>{escape(lesson.title)}'
        f' <span class="muted small">about {lesson.minutes} minutes</span></h2>'
        f'<p class="teach-goal">{escape(lesson.goal)}</p><ol class="teach-steps">{steps}</ol>'
        "</section>"
    )


def lessons_html() -> str:
    """Every lesson, in order, with a line on how to use them."""
    intro = (
        '<div class="lab"><p>Three lessons of about fifty minutes. Each step is a link that '
        "opens the whole lab in the state the step needs (open it on the projector, or send it "
        "to the class); the poll questions are in the class poll's bar under their titles. "
        "Every figure below is computed by the lab when this page is built.</p></div>"
    )
    return intro + "".join(lesson_html(lesson) for lesson in LESSONS)


class TeachPage(pn.viewable.Viewer):
    """The lessons page: a header, a print button and the lessons."""

    def __init__(self, **params):
        super().__init__(**params)
        self.print_button = pn.widgets.Button(label="Print these lessons", margin=(0, 6))
        self.print_button.js_on_click(code="window.print();")
        self.lessons = LiveHTML(lessons_html(), sizing_mode="stretch_width", margin=0)
        header = pn.Row(
            LiveHTML('<div class="lab header"><span class="brand">LLM Serving Lab</span>'
                     '<span class="tagline">lessons for the instructor</span></div>',
                     margin=(6, 12, 0, 0)),
            pn.layout.HSpacer(),
            LiveHTML('<a class="tour-button" href="./">Open the lab</a>', margin=(0, 6)),
            self.print_button,
            styles={"background": "#1f2a52", "padding": "10px 24px", "align-items": "center",
                    "flex-wrap": "wrap", "row-gap": "6px"},
            sizing_mode="stretch_width", margin=0, css_classes=["teach-header", "lab-header"],
        )  # fmt: skip
        self._layout = pn.Column(
            header,
            pn.Column(
                self.lessons,
                styles={"padding": "16px 24px"},
                sizing_mode="stretch_width",
                css_classes=["lab-body"],
            ),
            sizing_mode="stretch_width",
            margin=0,
        )

    def __panel__(self):
        return self._layout
