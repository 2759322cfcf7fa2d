"""The one session model: a user's conversation, turn by turn, as the session knobs describe it.

A session (a chat, an agent) resends its whole history every turn. Turn :math:`k` carries
:math:`C_k = P + (k-1) g` tokens (the first prompt, then ``g`` new tokens a turn: the last
answer and the next message), and all but the newest ``g`` of them were the previous turn's
context. The next turn comes :math:`\\Delta = \\theta + D` after the last (think time plus the
last request's own time). Whether the previous context is still cached then is
:func:`core.cache.lru.survives`; the hit rate follows from capacity and traffic instead of
being typed in (:func:`core.cache.hit_rate.hit_rate`). The turn table of one session is
:mod:`core.cache.session_table`; the fleet's replay of the hour's sessions :mod:`core.cache.fleet`.

With the session knobs off (``session_turns`` None) a session is :data:`DEFAULT_TURNS` turns
whose reusable prefix is the hit-rate knob's share of the prompt; only the fleet's replay
(``prefix_source="derived"``) then uses sessions at all. "Session" means a user's conversation
everywhere in core; a browser's session is the labs' server's word.
"""

from __future__ import annotations

import numpy as np

from core.traffic.arrivals import HOUR_S

# A session's turns when the session knobs are off: the traces carry no session ids, so the
# fleet's replay assumes this many turns a session, on average, spread across the hour.
DEFAULT_TURNS = 5


def session_contexts(first_prompt: float, growth: float, turns: int) -> np.ndarray:
    """Tokens each turn of a session sends: :math:`C_k = P + (k-1) g`."""
    return first_prompt + growth * np.arange(int(turns), dtype=float)


def turn_numbers(sessions: np.ndarray) -> np.ndarray:
    """Each request's turn in its session: 1 for a session's first request, then 2, 3, ...

    Examples
    --------
    >>> turn_numbers(np.array([4, 2, 4, 4, 2])).tolist()
    [1, 1, 2, 3, 2]
    """
    sessions = np.asarray(sessions)
    order = np.argsort(sessions, kind="stable")
    position = np.arange(sessions.size)
    ordered = sessions[order]
    new_session = np.r_[True, ordered[1:] != ordered[:-1]] if sessions.size else position > 0
    turn = np.empty(sessions.size, dtype=np.int64)
    turn[order] = position - np.maximum.accumulate(np.where(new_session, position, 0)) + 1
    return turn


def hour_sessions(count: int, turns=None, gap_s: float = np.inf) -> np.ndarray:
    """The session each of the hour's ``count`` requests is a turn of, seeded.

    Parameters
    ----------
    count : int
        Requests in the hour.
    turns : int, optional
        Turns a session has (the ``session_turns`` knob); None: sessions off.
    gap_s : float
        Seconds between a session's turns, :math:`\\Delta = \\theta + D`.

    Notes
    -----
    Requests continue one of :math:`L` *lanes*, drawn uniformly with a fixed seed; a lane's
    requests are turns of its sessions, :math:`T` to a session, one after another. By
    Little's law :math:`\\bar\\lambda \\Delta` sessions wait between turns at the hour's mean
    rate :math:`\\bar\\lambda = n / 3600`, so
    :math:`L = \\min(\\lceil n / T \\rceil, \\lceil \\bar\\lambda \\Delta \\rceil)` lanes space a
    session's turns about :math:`\\Delta` apart. With the knobs off :math:`T` is
    :data:`DEFAULT_TURNS`, :math:`L = \\lceil n / T \\rceil` and each lane is one session that
    spreads its :math:`T` turns (on average) across the hour. A request's turn in its session
    is :func:`turn_numbers`.
    """
    per_session = DEFAULT_TURNS if turns is None else max(int(turns), 1)
    lanes = max(1, -(-count // per_session))
    if turns is not None and np.isfinite(gap_s):
        lanes = int(min(lanes, max(1.0, np.ceil(count * gap_s / HOUR_S))))
    lane = np.random.default_rng(7).integers(0, lanes, count)
    if turns is None:
        return lane
    return lane + lanes * ((turn_numbers(lane) - 1) // per_session)


def turn_tokens(turn, first_prompt, growth) -> tuple[np.ndarray, np.ndarray]:
    """What turn :math:`k` sends and what it reuses: :math:`C_k = P + (k-1) g` and :math:`C_{k-1}`.

    The first turn reuses nothing; the prefix it leaves cached is its own :math:`C_k`.
    """
    sent = first_prompt + growth * (np.asarray(turn, dtype=float) - 1.0)
    return sent, np.where(np.asarray(turn) > 1, sent - growth, 0.0)
