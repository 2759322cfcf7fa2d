"""Class-poll questions: a practice challenge or one headline card, as a few choices to vote on.

Peer instruction asks a class one question with a handful of answers, shows the tally, lets
the class argue and votes again. A question here is plain data (strings and one index), so a
poll store can keep it as JSON and every server process shows the same thing:

* :func:`challenge_question` turns a practice problem into choices: its answer and the
  traps the challenge already names (each a common wrong answer with its reason), in
  increasing order.
* :func:`card_question` asks for one headline figure ("predict this card") of the
  configuration on screen with one knob changed (:data:`CARD_CHANGES`), so no page shows the
  answer until a student turns that knob: the figure :func:`core.evaluate` gives and figures
  a factor of 2 or 4 either side of it, so the vote is about the order of magnitude, not the
  last digit.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np
import param

from core.evaluate import evaluate
from core.foundation.units import express, number_text
from core.foundation.validation import knob_error
from core.practice.registry import CHALLENGES, make_problem
from core.scenario.knobs import Scenario

# The headline cards a poll can ask about: Result field -> (what it is, kind, unit, whole, question).
CARDS = {
    "seats_granted": ("live seats per node", "seats", "seats", True,
                      "How many live seats does one node grant?"),
    "ttft_p95_s": ("p95 time to first token", "seconds", "ms", False,
                   "What is the p95 time to first token, queueing included?"),
    "decode_tokens_per_s": ("decode rate of one node", "tokens_per_s", "tok/s", False,
                            "How many tokens a second does one node decode, all its seats together?"),
    "monthly_usd": ("monthly bill of the pool", "dollars", "$", False,
                    "What does the pool cost a month?"),
}  # fmt: skip
# What a card question changes from the configuration on screen (whose cards show its own
# figures): Result field -> (knob, factor, the change in words). The seats asked double where
# memory or the batch decides; prompts double where prefill does; the peak's arrivals double
# where the number of nodes does.
CARD_CHANGES = {
    "seats_granted": ("seats", 2.0, "twice the seats asked for"),
    "ttft_p95_s": ("prompt_tokens", 2.0, "prompts twice as long"),
    "decode_tokens_per_s": ("seats", 2.0, "twice the seats asked for"),
    "monthly_usd": ("arrivals_per_min", 2.0, "twice the arrivals at the peak minute"),
}
# A card's wrong choices: its figure times one of these sets (the right one sits at a different
# place in each, so a class cannot learn that the answer is always C).
CARD_FACTORS = ((0.25, 0.5, 2.0), (0.5, 2.0, 4.0), (0.125, 0.25, 0.5), (2.0, 4.0, 8.0))
MAX_CHOICES = 4
LETTERS = "ABCD"


@dataclass(frozen=True)
class PollQuestion:
    """One question a class votes on.

    Attributes
    ----------
    title : str
        A short name ("Bytes per cached token", "Predict this card: live seats per node").
    prompt : str
        The question in a sentence or two.
    givens : tuple of (str, str)
        The numbers the class works from, as (what, value) rows.
    choices : tuple of str
        Two to four answers as the page writes them, in increasing order.
    right : int
        The index of the right choice.
    why : str
        Shown at the reveal: how the figure comes about, or what each trap means (one line each).
    """

    title: str
    prompt: str
    givens: tuple[tuple[str, str], ...]
    choices: tuple[str, ...]
    right: int
    why: str = ""

    def to_dict(self) -> dict:
        """The question as JSON-ready data (:meth:`from_dict` reads it back)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> PollQuestion:
        """A question from :meth:`to_dict`'s data (``ValueError`` if it is not one)."""
        try:
            question = cls(
                title=str(data["title"]),
                prompt=str(data["prompt"]),
                givens=tuple((str(a), str(b)) for a, b in data["givens"]),
                choices=tuple(str(c) for c in data["choices"]),
                right=int(data["right"]),
                why=str(data.get("why", "")),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(f"not a poll question: {error}") from None
        if not 2 <= len(question.choices) <= MAX_CHOICES or not (
            0 <= question.right < len(question.choices)
        ):
            raise ValueError("a poll question has 2 to 4 choices and one right index among them")
        return question


def _choices(values, right_value: float, unit: str, kind: str) -> tuple[tuple[str, ...], int]:
    """Distinct written choices in increasing order and the index of ``right_value``'s."""
    ordered = np.unique(np.asarray(values, dtype=float))
    texts: list[str] = []
    right = 0
    for value in ordered:
        text = express(value, unit, kind, digits=3)
        if text in texts:
            continue
        if value == right_value:
            right = len(texts)
        texts.append(text)
    return tuple(texts), right


def challenge_question(challenge: str, seed: int) -> PollQuestion:
    """The practice problem of ``challenge`` and ``seed`` with its answer and traps as choices.

    Raises
    ------
    ValueError
        For an unknown challenge or seed (see :func:`core.practice.make_problem`), or a
        problem with no trap to offer beside its answer.
    """
    problem = make_problem(challenge, seed)
    traps = problem.traps[: MAX_CHOICES - 1]
    if not traps:
        raise knob_error("challenge", challenge, "a challenge with at least one named trap")
    values = [problem.answer, *(trap.value for trap in traps)]
    choices, right = _choices(values, problem.answer, problem.shown, problem.kind)
    return PollQuestion(
        title=problem.title,
        prompt=problem.question,
        givens=problem.givens,
        choices=choices,
        right=right,
        why="\n".join(
            f"{express(t.value, problem.shown, problem.kind, 3)}: {t.message}" for t in traps
        ),
    )


def changed_knobs(card: str, knobs: dict) -> tuple[dict, str]:
    """``knobs`` with the one change :data:`CARD_CHANGES` names for ``card``, and it in words.

    Notes
    -----
    The knob's value :math:`v` (the figure the configuration resolves it to, when the knob is
    left to the workload) becomes :math:`f v`, held within the knob's bounds.
    """
    knob, factor, words = CARD_CHANGES[card]
    now = knobs.get(knob, Scenario.param[knob].default)
    if now is None:  # left to the workload: the figure it resolves to
        now = float(getattr(evaluate(**knobs), knob))
    low, high = Scenario.param[knob].bounds
    new = float(np.clip(now * factor, low, high if high is not None else np.inf))
    if isinstance(Scenario.param[knob], param.Integer):
        new = round(new)
    return {**knobs, knob: new}, f"{words} ({number_text(now)} \u2192 {number_text(new)})"


def card_question(card: str, knobs: dict, givens=(), spread: int = 0) -> PollQuestion:
    """The "predict this card" question: headline figure ``card`` once ``knobs`` change.

    The configuration ``knobs`` is the one on screen, whose cards show its figures; the question
    asks for the figure after the one change :func:`changed_knobs` makes, which no page shows
    until a student makes it.

    Notes
    -----
    The right choice is ``x = getattr(evaluate(**changed), card)``; the others are
    ``f x`` for ``f`` in ``CARD_FACTORS[spread % 4]`` (whole cards rounded down, at least 1),
    so with ``spread=0`` the choices read ``x/4, x/2, x, 2x``.

    Raises
    ------
    ValueError
        For a card outside :data:`CARDS`, a knob the scenario refuses, or a figure that is
        not a positive finite number (a configuration that serves nobody).
    """
    if card not in CARDS:
        raise knob_error("card", card, f"one of {', '.join(CARDS)}")
    what, kind, unit, whole, ask = CARDS[card]
    knobs, change = changed_knobs(card, knobs)
    result = evaluate(**knobs)
    value = float(getattr(result, card))
    if not np.isfinite(value) or value <= 0:
        raise knob_error(card, value, "a positive finite figure to predict")
    others = np.asarray(CARD_FACTORS[int(spread) % len(CARD_FACTORS)]) * value
    if whole:
        others = np.maximum(np.floor(others), 1.0)
    choices, right = _choices([value, *others], value, unit, kind)
    level = knobs.get("realism", "whiteboard")
    return PollQuestion(
        title=f"Predict this card: {what}",
        prompt=f"Change one thing from the configuration on screen: {change}. {ask} (The "
        f"configuration below, at the {level} level of detail.)",
        givens=(*givens, *_setup(result)),
        choices=choices,
        right=right,
        why=f"The lab computes {express(value, unit, kind, 3)} for this configuration.",
    )


def _setup(result) -> tuple[tuple[str, str], ...]:
    """The configuration's figures a class needs to reason about a card, as given rows."""
    return (
        ("cards per node", number_text(result.cards)),
        ("seats asked per node", number_text(result.seats_requested)),
        ("tokens a seat holds", number_text(result.seat_tokens)),
        ("requests at the peak minute", number_text(result.arrivals_per_min)),
    )


def challenge_titles() -> dict[str, str]:
    """Challenge key -> title, in page order (the questions a presenter can pick)."""
    return {key: spec.title for key, spec in CHALLENGES.items()}
