"""The pool lab's checks: its three badges, the level they judge, and the other level's line."""

from __future__ import annotations

import panel as pn

from core.traffic.queueing import UNBOUNDED_WAIT_S
from labs.page import format as fmt
from labs.page.badges import BadgeRow, Verdict, verdicts
from labs.page.qualifiers import judged
from labs.widgets.level_note import EngineNote

ENGINE_FIELDS = ("seats_granted", "ttft_p95_s", "decode_tokens_per_s", "monthly_usd")
# The cards "predict first" covers, by label: the field each one shows.
PREDICTED = dict(zip(("live seats", "TTFT p95", "aggregate decode rate", "monthly bill"),
                     ENGINE_FIELDS, strict=True))  # fmt: skip
# Each field as the engine line names it.
NOTE_NAMES = dict(zip(ENGINE_FIELDS, ("live seats", "TTFT p95", "decode rate", "monthly bill"),
                      strict=True))  # fmt: skip


def ttft_text(seconds: float) -> str:
    """A first token's time, or 'unbounded' past the queue's horizon."""
    return fmt.duration(seconds, seconds >= UNBOUNDED_WAIT_S)


FORMATS = {"seats_granted": fmt.count, "ttft_p95_s": ttft_text,
           "decode_tokens_per_s": fmt.rate, "monthly_usd": fmt.dollars}  # fmt: skip


class PoolChecks(pn.viewable.Viewer):
    """The badges, the sentence saying which figures they judge, and the engine line below.

    On traffic other than Poisson the latency badge judges the replayed hour once it is in
    (:func:`labs.page.badges.verdicts`), and the sentence says so.
    """

    def __init__(self, **params):
        super().__init__(**params)
        self.badges = BadgeRow()
        self.engine_note = EngineNote(NOTE_NAMES, FORMATS)
        self.items: list[Verdict] = []
        # one layout for the session, so predict first and the tour cover what is on the page
        self._layout = pn.Column(
            self.badges, self.engine_note, sizing_mode="stretch_width", margin=0
        )

    def judge(self, scenario, result, hour) -> list[Verdict]:
        """Check ``result`` (and ``hour``, the replay on traffic not Poisson) and show it."""
        replays = scenario.traffic != "poisson"
        self.items = verdicts(result, hour if replays else None, replays)
        replayed = any(item.judged == "replayed hour" for item in self.items)
        self.badges.update(self.items, judged(scenario.realism, replayed))
        return self.items

    def failing(self, scenario, hour) -> list[str]:
        """The checks that fail; on traffic not Poisson the hour must also have been replayed."""
        failing = [item.name for item in self.items if not item.ok]
        if scenario.traffic != "poisson" and (hour is None or hour.refused):
            failing.append("the replayed hour" + (" (replaying)" if hour is None else ""))
        return failing

    def __panel__(self):
        return self._layout
