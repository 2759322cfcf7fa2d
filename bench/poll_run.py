"""The class poll under a class: how fast a question reaches every student and the tally the presenter.

Run by ``bench/classroom.py --poll`` (see there for the server it starts). A presenter and
``sessions`` students, each a protocol client (bench/poll_client.py) on the whole lab's
page: the presenter unlocks the poll, opens a question and the students join by typing its
code;
then the presenter opens a second question and every student's page is timed until it shows
it (the pages poll the store, whichever worker holds them). The students answer within
``window_s`` (each at its own seeded moment), each vote timed until the page says it is
recorded, and the presenter's page is timed until its tally counts every vote. Finally the
reveal, timed until every student's page shows the tally; no student's page is sent a tally
before it.
"""

from __future__ import annotations

import asyncio
import random
import re
import time

from bench.browser import percentile
from bench.poll_client import PollTab

SECOND_QUESTION = "challenge:kv_bytes"  # the presenter menu's key for it
CODE = re.compile(r'class="code">([A-Z2-9]{4})<')
OPEN_AT_ONCE = 4  # pages loading at once while the class arrives


def figures(values_ms: list[float]) -> str:
    return (
        f"median {percentile(values_ms, 0.5):.0f} ms, p95 {percentile(values_ms, 0.95):.0f} ms, "
        f"max {max(values_ms):.0f} ms (n={len(values_ms)})"
    )


async def presenter_opens(base: str, password: str) -> tuple[PollTab, str]:
    presenter = PollTab(base, "/?lab=sources&presenter=1", cookie="lab_backend=presenter")
    await presenter.open()
    await presenter.set(presenter.find(placeholder="presenter password"), "value", password)
    await presenter.click("Unlock")
    await presenter.wait_text("Presenter controls unlocked")
    await presenter.click("Open poll")
    await presenter.wait_text(CODE.pattern)
    code = next(CODE.search(text).group(1) for _at, text in presenter.texts if CODE.search(text))
    return presenter, code


async def arrive(base: str, code: str, sessions: int) -> list[PollTab]:
    students = [
        PollTab(base, "/?lab=sources", cookie=f"lab_backend=student{index}")
        for index in range(sessions)
    ]
    gate = asyncio.Semaphore(OPEN_AT_ONCE)

    async def one(student: PollTab) -> None:
        async with gate:
            await student.open()

    async def join(student: PollTab) -> None:  # types the code on the projector, then Join
        await student.set(student.find(placeholder="code"), "value", code.lower())
        sent = time.monotonic()
        await student.click("Join")
        await student.wait_text("Pick one answer", since=sent, timeout_s=120)

    await asyncio.gather(*(one(student) for student in students))
    await asyncio.gather(*(join(student) for student in students))
    return students


async def answer(student: PollTab, offset_s: float, pick: int) -> tuple[float, float]:
    """(when the vote left, when its page said it was recorded)."""
    await asyncio.sleep(offset_s)
    ballot = next(
        model_id
        for model_id, attrs in student.models.items()
        if "active" in attrs and attrs.get("labels") and set(attrs["labels"]) <= set("ABCD")
    )
    await student.set(ballot, "active", pick)
    sent = time.monotonic()
    await student.click("Vote")
    recorded = await student.wait_text(f"Your answer {'ABCD'[pick]} is recorded", since=sent)
    return sent, recorded


async def poll_run(base: str, sessions: int, password: str, window_s: float = 10.0) -> None:
    presenter, code = await presenter_opens(base, password)
    started = time.monotonic()
    students = await arrive(base, code, sessions)
    print(f"poll {code}: {sessions} students joined in {time.monotonic() - started:.0f} s")
    await asyncio.sleep(2)

    await presenter.set(question_menu(presenter), "value", SECOND_QUESTION)
    opened = time.monotonic()
    await presenter.click("Open poll")
    reached = await asyncio.gather(
        *(s.wait_text("Bytes per cached token", since=opened) for s in students)
    )
    print(
        f"a new question reached every student page: {figures([(t - opened) * 1000 for t in reached])}"
    )

    draw = random.Random(0)
    plan = [(draw.uniform(0, window_s), draw.randrange(4)) for _ in students]
    voting = time.monotonic()
    votes = await asyncio.gather(
        *(answer(s, offset, pick) for s, (offset, pick) in zip(students, plan, strict=True))
    )
    last = max(recorded for _sent, recorded in votes)
    print(
        f"{sessions} answers within {last - voting:.1f} s of the poll opening to votes; "
        f"vote -> 'recorded' on the student's page: {figures([(r - s) * 1000 for s, r in votes])}"
    )
    await presenter.wait_text(rf"{sessions:,} answers? this round", since=voting, timeout_s=30)
    counted = next(at for at, count in presenter.tally_times() if count >= sessions)
    print(
        f"presenter's histogram showed all {sessions} answers {(counted - last) * 1000:.0f} ms "
        "after the last answer was recorded"
    )
    early = sum("poll-tally" in text for s in students for _at, text in s.texts)
    revealed = time.monotonic()
    await presenter.click("Reveal")
    shown = await asyncio.gather(*(s.wait_text("revealed", since=revealed) for s in students))
    print(
        f"tallies sent to student pages before the reveal: {early}; the reveal reached every "
        f"student page: {figures([(t - revealed) * 1000 for t in shown])}"
    )
    await presenter.click("Close poll")
    for tab in (presenter, *students):
        tab.close()


def question_menu(presenter: PollTab) -> str:
    """The id of the presenter's question menu."""
    for model_id, attrs in presenter.models.items():
        options = attrs.get("options")
        if isinstance(options, list) and SECOND_QUESTION in str(options):
            return model_id
    raise LookupError("the presenter's question menu was not found")
