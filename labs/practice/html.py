"""The practice lab's HTML: the challenge list, the problem, the rule, the verdict, the hint and the derivation."""

from __future__ import annotations

from html import escape

from core.practice import CHALLENGES, Problem, Verdict, challenge_keys, examples

GROUP_NOTES = {
    "walkthrough": "from the walkthrough",
    "whiteboard": "whiteboard classic",
    "engine": "after continuous batching",
    "models": "today's models",
}


def challenge_options() -> dict[str, str]:
    """Button label -> challenge key, numbered in page order."""
    return {
        f"{number}. {CHALLENGES[key].title}": key
        for number, key in enumerate(challenge_keys(), start=1)
    }


def groups_note() -> str:
    """Which numbered challenges close the walkthrough, which are whiteboard classics, and so on."""
    walkthrough = len(challenge_keys("walkthrough"))
    whiteboard = walkthrough + len(challenge_keys("whiteboard"))
    engine = whiteboard + len(challenge_keys("engine"))
    total = len(challenge_keys())
    later = f"; {whiteboard + 1} goes past continuous batching" if engine > whiteboard else ""
    models = (
        f"; {engine + 1}\u2013{total} turn to today's models (latent attention, mixtures of experts)"
        if total > engine
        else ""
    )
    return (
        f"1\u2013{walkthrough} close the walkthrough; {walkthrough + 1}\u2013{whiteboard} are "
        f"whiteboard classics{later}{models}."
    )


def problem_html(problem: Problem) -> str:
    """The question, its numbers and the rule for judging answers."""
    rows = "".join(
        f"<tr><th scope='row'>{escape(what)}</th><td>{escape(value)}</td></tr>"
        for what, value in problem.givens
    )
    note = f'<p class="small muted">{escape(problem.note)}</p>' if problem.note else ""
    group = GROUP_NOTES[CHALLENGES[problem.challenge].group]
    return (
        '<div class="lab practice">'
        f'<div class="problem-head"><h2>{escape(problem.title)}</h2>'
        f'<span class="chip neutral" data-seed="{problem.seed}">seed {problem.seed}</span>'
        f'<span class="small muted">{escape(group)}</span></div>'
        f'<p class="question" data-question>{escape(problem.question)}</p>'
        f'<table class="givens"><tbody>{rows}</tbody></table>{note}</div>'
    )


def rule_html(problem: Problem) -> str:
    """How to write the answer and how it is judged."""
    return (
        '<div class="lab practice"><p class="small muted rule">'
        f"Write it as {escape(examples(problem.kind, problem.unit))}. "
        f"{escape(problem.tolerance.describe())}</p></div>"
    )


def verdict_html(verdict: Verdict | None, note: str = "") -> str:
    """The verdict on the last answer, or nothing before the first one."""
    if verdict is None:
        return ""
    if verdict.status == "unreadable":
        return (
            '<div class="lab"><div class="notice" data-verdict="unreadable">'
            f"<b>Can't read that.</b> {escape(verdict.message)}</div></div>"
        )
    state = "pass" if verdict.right else "fail"
    icon, head = ("\u2713", "Right") if verdict.right else ("\u2717", "Not yet")
    extra = f'<div class="why">{escape(note)}</div>' if note else ""
    return (
        f'<div class="lab"><div class="badge {state}" data-verdict="{verdict.status}">'
        f'<div class="head"><span class="icon">{icon}</span>{head}</div>'
        f'<div class="why">{escape(verdict.message)}</div>{extra}</div></div>'
    )


def hint_html(problem: Problem) -> str:
    """The hint for ``problem``."""
    return (
        '<div class="lab practice"><div class="hint" data-hint>'
        f"<b>Hint.</b> {escape(problem.hint)}</div></div>"
    )


def derivation_html(problem: Problem) -> str:
    """The derivation, one step per line, ending on core's value."""
    steps = "".join(
        '<li class="step">'
        f'<div class="say">{escape(step.say)}</div>'
        f'<div class="math">{escape(step.formula)}<br>= {escape(step.plugged)} '
        f"= <b>{escape(step.result)}</b></div></li>"
        for step in problem.steps
    )
    return (
        '<div class="lab practice"><h3>The derivation</h3>'
        f'<ol class="derivation steps" data-derivation>{steps}</ol>'
        f'<p class="small muted">Answer: <b>{escape(problem.exact)}</b>, the same figure the other '
        "labs compute for this scenario.</p></div>"
    )
