"""The poll's words on the page: the question, the tally as bars, what a student is told."""

from __future__ import annotations

from html import escape

from core.practice.poll import LETTERS
from labs.page import format as fmt
from labs.poll.room import View

MARK = " \u2714"  # beside the right choice once revealed
# the mark, said in words to a screen reader (its colour and tick are not read)
RIGHT = f'<span aria-hidden="true">{MARK}</span><span class="sr-only"> (the right answer)</span>'

NOT_ANSWERING = (
    '<span class="lab small">The class poll\'s store is not answering just now, so the poll '
    "is unavailable; this page keeps trying, and the rest of the lab works as usual.</span>"
)


NOT_TAKEN = (
    '<span class="lab small">The class poll\'s store is not answering just now, so that was '
    "not recorded: press again in a moment.</span>"
)


def question_html(question: dict, code: str, presenter: bool) -> str:
    """The question, its givens and its lettered choices (and the code on the projector)."""
    givens = "".join(
        f"<tr><th>{escape(what)}</th><td>{escape(value)}</td></tr>"
        for what, value in question.get("givens", ())
    )
    choices = "".join(
        f'<li><span class="letter">{LETTERS[index]}</span>{escape(text)}</li>'
        for index, text in enumerate(question.get("choices", ()))
    )
    join = (
        f'<div class="join">Students: type <b class="code">{escape(code)}</b> beside '
        "\u201cClass poll\u201d at the top of the lab</div>"
        if presenter
        else ""
    )
    return (
        f'<div class="lab poll-question">{join}<h2>{escape(question.get("title", ""))}</h2>'
        f"<p>{escape(question.get('prompt', ''))}</p>"
        + (f'<table class="givens">{givens}</table>' if givens else "")
        # the presenter's tally lists the choices beside their bars
        + ("" if presenter else f'<ol class="choices">{choices}</ol>')
        + "</div>"
    )


def tally_html(question: dict, view: View, revealed: bool) -> str:
    """The tally as one bar per choice (the earlier round's beside it on a re-vote)."""
    choices = question.get("choices", ())
    counts = view.counts or [0] * len(choices)
    earlier = view.earlier
    widths = fmt.bar_widths([*counts, *(earlier or ())] or [0])
    rows = []
    for index, text in enumerate(choices):
        right = revealed and index == question.get("right")
        before = ""
        if earlier is not None:
            before = (
                f'<div class="bar before" style="width:{widths[len(counts) + index]}"></div>'
                f'<span class="before-count">first vote {fmt.count(earlier[index])}</span>'
            )
        rows.append(
            f'<div class="row{" right" if right else ""}">'
            f'<span class="letter">{LETTERS[index]}</span>'
            f'<span class="choice">{escape(text)}{RIGHT if right else ""}</span>'
            f'<div class="track"><div class="bar" style="width:{widths[index]}"></div>{before}</div>'
            f'<span class="count">{fmt.count(counts[index])}</span></div>'
        )
    answers = fmt.plural(view.total, "answer")
    heading = f"{answers} this round" + (", revealed" if revealed else ", hidden from students")
    why = ""
    if revealed and question.get("why"):
        lines = "".join(f"<li>{escape(line)}</li>" for line in question["why"].splitlines())
        why = f'<ul class="why small">{lines}</ul>'
    return f'<div class="lab poll-tally"><h3>{heading}</h3>{"".join(rows)}{why}</div>'


def status_html(view: View, presenter: bool) -> str:
    """One line under the poll: what this session has done and what comes next."""
    poll = view.poll
    if poll is None:
        return (
            '<div class="lab small muted">No poll with this code yet: wait for the presenter.</div>'
        )
    letters = LETTERS
    if poll.state == "closed":
        text = "The poll is closed."
    elif presenter:
        text = f"Round {poll.round}: {poll.state}."
        if view.ballots is not None:  # more ballots than students in the room shows here
            text += (
                f" Ballots issued {fmt.count(view.ballots)}, votes cast {fmt.count(view.total)}."
            )
        if poll.question.get("named"):
            text += " Named round: one vote per name." + duplicates_text(view.duplicates or {})
    elif view.mine is not None:
        chosen = letters[view.mine] if 0 <= view.mine < len(letters) else "?"
        wait = "" if poll.state == "revealed" else " Waiting for the reveal."
        text = f"Your answer {chosen} is recorded.{wait}"
    elif poll.state == "open" and poll.question.get("named"):
        text = "A named round: type your name or student number, pick one answer and vote."
    elif poll.state == "open":
        text = "Pick one answer and vote: you get one vote this round."
    else:
        text = "Voting has ended for this round."
    return f'<div class="lab poll-status">{escape(text)}</div>'


def duplicates_text(duplicates: dict) -> str:
    """The names two ballots or more voted under (each counted once), for the presenter."""
    if not duplicates:
        return " No name voted twice."
    names = ", ".join(
        f"{name} ({fmt.count(ballots)} ballots)" for name, ballots in duplicates.items()
    )
    return f" Voted under one name from several ballots, counted once: {names}."
