"""The requests a simulated node serves: a seeded stream of arrivals, prompt lengths and answer lengths."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.foundation.validation import check_array, check_choice

ARRIVALS = ("poisson", "offline")
ANSWER_SHAPES = ("fixed", "exponential", "capped exponential", "uniform")

# An engine cannot reserve for an unbounded answer: the uncapped exponential is cut at this
# many times its mean (one answer in e^16, about nine million, reaches it) and a reserved
# layout reserves all of it.
UNCAPPED_CEILING = 16
# The published static-vs-continuous benchmark caps answers at 1,536 tokens (Anyscale,
# "How continuous batching enables 23x throughput in LLM inference", 2023).
DEFAULT_ANSWER_CAP = 1536
MAX_REQUESTS = 1_000_000
MAX_PROMPT_TOKENS = 4_000_000


@dataclass(frozen=True)
class Requests:
    """A stream of requests, sorted by arrival: what every scheduler is asked to serve.

    ``max_answer_tokens`` is each request's generation limit (its ``max_tokens``), the answer
    length a reserved layout must set room aside for.
    """

    arrival_s: np.ndarray
    prompt_tokens: np.ndarray
    answer_tokens: np.ndarray
    max_answer_tokens: np.ndarray

    def __len__(self) -> int:
        return len(self.arrival_s)

    def subset(self, index: np.ndarray) -> Requests:
        """The requests at ``index`` (in that order)."""
        return Requests(
            self.arrival_s[index],
            self.prompt_tokens[index],
            self.answer_tokens[index],
            self.max_answer_tokens[index],
        )


def check_int(name, value, low, high=None) -> int:
    """``value`` as an int, or a ValueError naming ``name`` and the range."""
    check_array(name, value, (low, high), integer=True)
    return int(value)


def check_number(name, value, low, high, inclusive=(True, True)) -> float:
    """``value`` as a float, or a ValueError naming ``name`` and the range."""
    check_array(name, value, (low, high), inclusive)
    return float(value)


def answer_ceiling(answer: str, answer_mean: float, answer_cap: int) -> int:
    """The longest answer a distribution can draw: what a reserved layout reserves.

    ``fixed`` is its mean, ``uniform`` is ``2 mean - 1``, ``capped exponential`` its cap, and
    the uncapped ``exponential`` is cut at ``UNCAPPED_CEILING`` times its mean.
    """
    mean = round(answer_mean)
    if answer == "fixed":
        return mean
    if answer == "uniform":
        return 2 * mean - 1
    if answer == "capped exponential":
        return int(answer_cap)
    return UNCAPPED_CEILING * mean


def draw_requests(
    count: int = 1000,
    seed: int = 0,
    *,
    arrival: str = "poisson",
    rate_per_s: float = 4.0,
    prompt_tokens: int = 512,
    answer: str = "capped exponential",
    answer_mean: float = 128,
    answer_cap: int = DEFAULT_ANSWER_CAP,
    long_every: int = 0,
    long_prompt_tokens: int = 16_384,
) -> Requests:
    """Draw ``count`` requests: arrival times, prompt lengths and answer lengths.

    Parameters
    ----------
    count : int
        Requests, 1 to 1,000,000.
    seed : int
        Seed of the draw; the same seed gives the same requests. Arrivals and answers come
        from separate streams, so changing the arrival mode keeps the answers.
    arrival : {"poisson", "offline"}
        A Poisson stream at ``rate_per_s``, or every request waiting at time 0.
    rate_per_s : float
        Mean arrivals per second of the Poisson stream.
    prompt_tokens : int
        Tokens of every prompt (but the long ones).
    answer : {"fixed", "exponential", "capped exponential", "uniform"}
        Shape of the answer lengths, of mean ``answer_mean``.
    answer_mean, answer_cap : float, int
        Mean answer tokens; the cap of the capped exponential.
    long_every : int
        A mixed workload: one request in ``long_every`` carries a prompt of
        ``long_prompt_tokens`` instead; 0 for none.
    long_prompt_tokens : int
        Tokens of each long prompt.

    Notes
    -----
    Exponential answers are geometric (the exponential's whole-token twin, every answer at
    least one token, mean exactly :math:`\\mu`); the capped shape is
    :math:`\\min(\\mathrm{cap}, \\mathrm{Geom}(1/\\mu))`, whose mean falls just below
    :math:`\\mu` when the cap bites. Uniform answers are whole numbers from 1 to
    :math:`2\\mu - 1`. Poisson inter-arrival gaps are exponential of mean :math:`1/\\lambda`.
    Long prompts sit at requests :math:`\\lfloor k/2 \\rfloor + j k`, so they land among
    running short ones rather than first in line.
    """
    count = check_int("requests", count, 1, MAX_REQUESTS)
    seed = check_int("seed", seed, 0, 2**32 - 1)
    arrival = str(check_choice("arrival", arrival, ARRIVALS))
    answer = str(check_choice("answer", answer, ANSWER_SHAPES))
    rate_per_s = check_number("arrival_rate_per_s", rate_per_s, 0.0, 1e6, (False, True))
    prompt_tokens = check_int("prompt_tokens", prompt_tokens, 1, MAX_PROMPT_TOKENS)
    answer_mean = check_number("answer_mean", answer_mean, 1.0, 100_000.0)
    answer_cap = check_int("answer_cap", answer_cap, 1, 1_000_000)
    long_every = check_int("long_every", long_every, 0, MAX_REQUESTS)
    long_prompt_tokens = check_int("long_prompt_tokens", long_prompt_tokens, 1, MAX_PROMPT_TOKENS)

    arrivals_rng, answers_rng = (
        np.random.default_rng(child) for child in np.random.SeedSequence(seed).spawn(2)
    )
    if arrival == "poisson":
        arrival_s = np.cumsum(arrivals_rng.exponential(1.0 / rate_per_s, count))
    else:
        arrival_s = np.zeros(count)
    ceiling = answer_ceiling(answer, answer_mean, answer_cap)
    answers = _draw_answers(answers_rng, count, answer, answer_mean, ceiling)
    prompts = np.full(count, prompt_tokens, dtype=np.int64)
    if long_every:
        prompts[long_every // 2 :: long_every] = long_prompt_tokens
    return Requests(
        arrival_s=arrival_s,
        prompt_tokens=prompts,
        answer_tokens=answers,
        max_answer_tokens=np.full(count, max(ceiling, 1), dtype=np.int64),
    )


def _draw_answers(rng, count: int, answer: str, answer_mean: float, ceiling: int) -> np.ndarray:
    """``count`` answer lengths of shape ``answer``, each from 1 to ``ceiling`` tokens."""
    mean = round(answer_mean)
    if answer == "fixed":
        answers = np.full(count, mean, dtype=np.int64)
    elif answer == "uniform":
        answers = rng.integers(1, 2 * mean, count, endpoint=False)
    else:
        answers = np.minimum(rng.geometric(1.0 / max(answer_mean, 1.0), count), ceiling)
    return np.maximum(answers.astype(np.int64), 1)
