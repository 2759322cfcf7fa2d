"""The lab server's bounds, in-process: build budgets, kept first pages, odd addresses, session keys."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest

from labs.server import build_budget, first_page, odd_links, serve


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_client_gets_its_minute_of_builds_then_a_refill():
    """A client's bucket holds a minute's builds at once, then refills at that rate."""
    clock = Clock()
    budget = build_budget.BuildBudget(per_client=6, overall=600, clock=clock, max_wait=0, share=0)
    assert [budget.reserve("10.0.0.1") for _ in range(8)] == [0.0] * 6 + [None] * 2
    assert budget.reserve("10.0.0.2") == 0.0  # another address has its own bucket
    clock.now = 10.0  # 6 a minute: one build back per 10 s
    assert budget.reserve("10.0.0.1") == 0.0
    assert budget.reserve("10.0.0.1") is None


def test_a_build_over_budget_waits_for_its_token_then_is_refused():
    """Past the bucket, a build waits its turn (10 s each at 6 a minute) up to max_wait, then is refused."""
    budget = build_budget.BuildBudget(
        per_client=6, overall=600, clock=Clock(), max_wait=10, share=0
    )
    waits = [budget.reserve("10.0.0.1") for _ in range(8)]
    assert waits[:6] == [0.0] * 6
    assert waits[6] == pytest.approx(10.0)
    assert waits[7] is None


@pytest.mark.parametrize("wait", [-1.0, build_budget.LONGEST_WAIT_S + 1, float("nan")])
def test_a_wait_outside_its_range_is_refused(wait):
    """A build wait below 0 s, past the longest or not a number is a configuration error naming it."""
    with pytest.raises(ValueError, match="waits 0 to 60 s for its turn"):
        build_budget.BuildBudget(per_client=6, overall=600, max_wait=wait)


def test_the_server_reads_its_build_wait():
    """--session-build-wait is how long a build over budget may wait; 10 s without it."""
    assert serve.parser().parse_args([]).session_build_wait == build_budget.MAX_WAIT_S
    args = serve.parser().parse_args(["--session-build-wait", "2.5"])
    assert args.session_build_wait == 2.5


def test_the_process_budget_bounds_every_client_together():
    """Past the overall budget, new addresses are refused too, and keep their own builds for later."""
    clock = Clock()
    budget = build_budget.BuildBudget(per_client=5, overall=4, clock=clock, max_wait=0, share=0)
    allowed = [budget.reserve(f"10.0.0.{index}") for index in range(6)]
    assert allowed == [0.0] * 4 + [None] * 2
    clock.now = 15.0  # 4 a minute overall: one back per 15 s
    assert budget.reserve("10.0.0.5") == 0.0
    assert budget.clients["10.0.0.5"].credit == pytest.approx(4.0)


def test_a_budget_below_one_build_a_minute_is_refused():
    """A budget of 0 builds a minute is a configuration error naming both values."""
    with pytest.raises(ValueError, match="per client 0"):
        build_budget.BuildBudget(per_client=0, overall=10)


def test_remembered_clients_are_bounded():
    """A flood of addresses leaves at most MAX_CLIENTS buckets in memory."""
    budget = build_budget.BuildBudget(per_client=1, overall=10**9)
    for index in range(build_budget.MAX_CLIENTS + 50):
        budget.reserve(f"client-{index}")
    assert len(budget.clients) == build_budget.MAX_CLIENTS


def request(path: str, theme: bytes | None = None):
    arguments = {} if theme is None else {"theme": [theme]}
    return SimpleNamespace(path=path, arguments=arguments)


def test_only_known_themes_key_a_kept_page():
    """Made-up, undecodable and known ?theme= values: only Panel's themes make their own key."""
    assert first_page.kept_page_key(request("/batching")) == ("/batching", "default")
    assert first_page.kept_page_key(request("/batching", b"dark")) == ("/batching", "dark")
    for made_up in (b"x1f3", b"\xff", b"dark\x00"):
        assert first_page.kept_page_key(request("/batching", made_up)) == ("/batching", "default")
    assert first_page.kept_page_key(request("/batching/")) == ("/batching", "default")
    assert first_page.kept_page_key(request("/")) == ("/", "default")


class FakeSession:
    def __init__(self) -> None:
        self.blocked = 1

    def unblock_expiration(self) -> None:
        self.blocked -= 1


def test_kept_sessions_are_capped_oldest_first():
    """Storing one more than the limit lets the oldest kept session expire."""
    kept = first_page.KeptSessions(limit=3)
    sessions = [FakeSession() for _ in range(5)]
    for index, session in enumerate(sessions):
        kept[("/pool", str(index))] = session
    assert list(kept) == [("/pool", "2"), ("/pool", "3"), ("/pool", "4")]
    assert [session.blocked for session in sessions] == [0, 0, 1, 1, 1]


@pytest.mark.parametrize(
    ("uri", "expected"),
    [
        ("/pool?seats=4", "/pool?seats=4"),
        ("/pool??seats=4", "/pool?seats=4"),
        ("/pool?seats=64?x=1", "/pool?seats=64&x=1"),
        ("/pool?a=1#b#c", "/pool?a=1%23b%23c"),
        ("/pool", "/pool"),
    ],
)
def test_an_address_has_one_query_mark_at_most(uri, expected):
    """Panel's address reader gets one '?' and no '#': '??' is one mark, a later '?' an '&'."""
    assert odd_links.plain_uri(uri) == expected


def test_session_ids_are_signed_with_a_shared_or_fresh_key(monkeypatch):
    """LAB_SESSION_SECRET if set, else one derived from the password, else a fresh random key."""
    monkeypatch.delenv(serve.SESSION_SECRET_ENV, raising=False)
    assert serve.session_secret(None) != serve.session_secret(None)
    assert serve.session_secret("class-pw") == serve.session_secret("class-pw")
    assert len(serve.session_secret(None)) >= 32
    monkeypatch.setenv(serve.SESSION_SECRET_ENV, "k" * 40)
    assert serve.session_secret("class-pw") == b"k" * 40
    monkeypatch.setenv(serve.SESSION_SECRET_ENV, "short")
    with pytest.raises(SystemExit, match="at least 32"):
        serve.session_secret(None)


def test_a_clients_builds_follow_their_measured_cost():
    """Dearer builds give a client fewer at once and a slower refill: its share of a core, no more."""
    clock = Clock()
    cost = build_budget.BuildCost(first_s=0.1)
    budget = build_budget.BuildBudget(per_client=120, overall=600, clock=clock, max_wait=0,
                                      cost=cost, share=0.05)  # fmt: skip
    _drop_three(budget, "10.0.0.1")
    cheap_burst, cheap_rate = budget.client_rate("10.0.0.1")
    for _ in range(40):  # builds measured at 2 CPU seconds each
        cost.measured(2.0)
    dear_burst, dear_rate = budget.client_rate("10.0.0.1")
    assert dear_burst < cheap_burst and dear_rate < cheap_rate
    assert dear_rate * cost.seconds == pytest.approx(0.05)  # a twentieth of a core
    assert cheap_rate <= 120 / 60  # never above the configured minute
    built = [budget.reserve("10.0.0.1") for _ in range(3)]
    assert built[0] == 0.0 and built[-1] is None  # one build at once at 2 s each
    clock.now = 1 / dear_rate  # one build's share of a core later, one more
    assert budget.reserve("10.0.0.1") == 0.0
    assert budget.reserve("10.0.0.2") == 0.0  # another address has its own bucket


def test_a_share_of_nothing_keeps_the_configured_minute():
    """--session-build-share 0: the client's bucket holds and refills per_client a minute, whatever the cost."""
    cost = build_budget.BuildCost(first_s=5.0)
    budget = build_budget.BuildBudget(per_client=6, overall=600, cost=cost, share=0)
    assert budget.client_rate() == (6.0, 6 / 60)


def test_the_cost_share_is_on_by_default():
    """A server started without --session-build-share bounds each address by its builds' cost."""
    assert build_budget.CLIENT_CORE_SHARE > 0
    assert build_budget.BuildBudget(120, 600).share == build_budget.CLIENT_CORE_SHARE


def _drop_three(budget, client):
    """``client`` opens three pages and leaves each before it settles."""
    for _ in range(3):
        budget.session_dropped(client)


def _looped(budget, clock, client, seconds):
    """Builds ``client`` gets in ``seconds`` by asking every 10 ms and dropping each page."""
    built = 0
    for step in range(int(seconds * 100)):
        clock.now = step / 100
        if budget.reserve(client) == 0.0:
            built += 1
            budget.session_dropped(client)
    return built


def test_an_address_that_drops_no_pages_builds_at_the_configured_minute():
    """A hall joining together (no page dropped) is never held to the share, whatever the cost."""
    cost = build_budget.BuildCost(first_s=2.0)
    budget = build_budget.BuildBudget(120, 600, cost=cost, share=0.04)
    for _ in range(50):
        budget.session_stayed("10.0.0.7")
    assert budget.client_rate("10.0.0.7") == (120.0, 2.0)
    budget.session_dropped("10.0.0.7")  # one student's page left at once: still a hall
    assert budget.client_rate("10.0.0.7") == (120.0, 2.0)


def test_a_loop_that_drops_its_pages_keeps_the_base_share():
    """A page-and-close loop at one address gets s of a core at the measured cost, no more."""
    clock = Clock()
    cost = build_budget.BuildCost(first_s=0.2)
    budget = build_budget.BuildBudget(120, 600, clock=clock, max_wait=0, cost=cost, share=0.04)
    built = _looped(budget, clock, "10.0.0.9", 60)
    burst = build_budget.BURST_CPU_S / 0.2
    # its first three at the minute's rate, then a burst and 4 % of a core at 0.2 s a build
    assert built == pytest.approx(3 + burst + 60 * 0.04 / 0.2, abs=2)


def test_a_hall_whose_pages_stay_gets_a_share_growing_with_them():
    """Each session that stayed adds SHARE_PER_STAYED of a core to its address, up to the most."""
    clock = Clock()
    cost = build_budget.BuildCost(first_s=0.2)
    budget = build_budget.BuildBudget(600, 600, clock=clock, max_wait=0, cost=cost, share=0.04)
    _drop_three(budget, "10.0.0.7")  # a loop shares the hall's address
    _drop_three(budget, "10.0.0.8")
    alone = budget.client_rate("10.0.0.7")
    assert alone[1] == pytest.approx(0.04 / 0.2)
    budget.session_stayed("10.0.0.7")
    at_once, per_second = budget.client_rate("10.0.0.7")
    grown = 0.04 + build_budget.SHARE_PER_STAYED
    assert per_second == pytest.approx(grown / 0.2) and at_once > alone[0]
    for _ in range(100):
        budget.session_stayed("10.0.0.7")
    assert budget.client_rate("10.0.0.7")[1] == pytest.approx(build_budget.MAX_CLIENT_SHARE / 0.2)
    assert budget.client_rate("10.0.0.8") == alone  # another address keeps its own
    for _ in range(101):
        budget.session_left("10.0.0.7")
    assert budget.client_rate("10.0.0.7") == alone and "10.0.0.7" not in budget.stayed


def test_a_waiting_build_is_admitted_when_its_classmates_pages_stay():
    """A build waiting at one address's base share asks again, and gets in once the share grew."""
    clock = Clock()
    cost = build_budget.BuildCost(first_s=0.2)
    budget = build_budget.BuildBudget(600, 600, clock=clock, max_wait=10, cost=cost, share=0.04)
    _drop_three(budget, "10.0.0.7")
    assert budget.reserve("10.0.0.7") == 0.0  # the burst's one build
    waits = []

    async def sleep(seconds):  # meanwhile three classmates' pages settle and stay
        waits.append(seconds)
        clock.now += seconds
        if len(waits) == 2:
            for _ in range(3):
                budget.session_stayed("10.0.0.7")

    assert asyncio.run(budget.admit("10.0.0.7", sleep=sleep))
    assert clock.now < 1.0  # at the base share alone it would have waited 5 s


def test_a_build_still_waiting_past_the_limit_is_refused():
    """A loop that drops its pages waits its turn at the base share, and is refused past 10 s."""
    clock = Clock()
    cost = build_budget.BuildCost(first_s=2.0)
    budget = build_budget.BuildBudget(600, 600, clock=clock, max_wait=10, cost=cost, share=0.04)
    _drop_three(budget, "10.0.0.9")
    assert budget.reserve("10.0.0.9") == 0.0

    async def sleep(seconds):
        clock.now += seconds

    assert not asyncio.run(budget.admit("10.0.0.9", sleep=sleep))  # 50 s at 4 % of 2 s builds
    assert clock.now == pytest.approx(10.0)
