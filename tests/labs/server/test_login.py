"""The class login's rules: same-site next paths, the wrong-password limiter, shared logouts."""

from __future__ import annotations

import logging

import pytest

from labs.server.guard import readable_arguments
from labs.server.login import Logouts, same_site_path
from labs.server.login_limit import OVERALL, LoginLimiter, Ration

# What a probe of the login page tried as ?next= (each sent a browser off the site).
OFF_SITE = [
    "//evil.com",
    "///evil.com",
    "////evil.com",
    "/\\evil.com",
    "\\\\evil.com",
    "%2F%2Fevil.com",
    "/%2F/evil.com",
    "/%2F%2Fevil.com",
    "/%252F/evil.com",
    "/%5Cevil.com",
    "/\t/evil.com",
    "/%09/evil.com",
    "/\x00/evil.com",
    "/%00/evil.com",
    "/\n/evil.com",
    "https://evil.com",
    "https:/evil.com",
    "javascript:alert(1)",
    "evil.com",
    " /pool",
]


@pytest.mark.parametrize("probe", OFF_SITE)
def test_off_site_next_leads_home(probe):
    """Every form of another site (or a non-path) a probe tried as next leads to /."""
    assert same_site_path(probe) == "/"


@pytest.mark.parametrize("path", ["/", "/pool?seats=4", "/kv?kv_dtype=fp8&x=%2Fa", "/a/b/../c"])
def test_same_site_paths_are_kept(path):
    """A path on this site, query included, is kept as it was given."""
    assert same_site_path(path) == path


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


def limiter(clock: Clock, overall_free: int = 200) -> LoginLimiter:
    per_address = Ration(free=20, window_s=60.0, first_lock_s=5.0, longest_lock_s=300.0)
    every = Ration(free=overall_free, window_s=60.0, first_lock_s=2.0, longest_lock_s=60.0)
    return LoginLimiter(per_address, every, max_addresses=100, clock=clock)


def test_the_21st_wrong_try_within_a_minute_waits(caplog):
    """20 wrong tries in a minute are answered; the 21st must wait, and a warning says so."""
    clock = Clock()
    limits = limiter(clock)
    with caplog.at_level(logging.WARNING, logger="labs.server.login"):
        for _ in range(19):
            assert limits.wait_s("10.0.0.1") == 0
            assert limits.wrong("10.0.0.1") == 0
            clock.now += 2.0
        assert limits.wrong("10.0.0.1") == 5.0
    assert limits.wait_s("10.0.0.1") == 5.0
    assert limits.wait_s("10.0.0.2") == 0  # another address is not held back
    assert "20 wrong class passwords from 10.0.0.1" in caplog.text


def test_the_lock_grows_and_then_expires():
    """Each wrong try after a lock doubles it; once it has passed, the address may try again."""
    clock = Clock()
    limits = limiter(clock)
    locks = []
    for _ in range(24):
        clock.now += limits.wait_s("a")
        locks.append(limits.wrong("a"))
    assert locks[19:] == [5.0, 10.0, 20.0, 40.0, 80.0]
    clock.now += 80.0
    assert limits.wait_s("a") == 0


def test_a_quiet_window_starts_the_count_again():
    """An address with no wrong try for a whole window and no lock left starts from zero."""
    clock = Clock()
    limits = limiter(clock)
    for _ in range(19):
        limits.wrong("a")
    clock.now += 61.0
    assert limits.wrong("a") == 0


def test_many_addresses_together_are_limited_overall():
    """Wrong tries spread over many addresses lock every login once the overall ration is spent."""
    clock = Clock()
    limits = limiter(clock, overall_free=50)
    for index in range(49):
        assert limits.wrong(f"10.1.{index // 250}.{index % 250}") == 0
    assert limits.wrong("10.9.9.9") == 2.0
    assert limits.wait_s("192.0.2.1") == 2.0


def test_the_address_table_stays_bounded():
    """A flood of made-up addresses keeps at most max_addresses entries."""
    clock = Clock()
    limits = limiter(clock, overall_free=10**9)
    for index in range(1_000):
        limits.wrong(f"spoof-{index}")
    assert len(limits.addresses) == 100 and "spoof-999" in limits.addresses
    assert OVERALL not in limits.addresses


def test_a_logout_is_seen_by_every_process_and_after_a_restart(tmp_path):
    """A login id revoked by one reader of the file is revoked for another, and for a fresh one."""
    worker_a, worker_b = Logouts(tmp_path, "secret"), Logouts(tmp_path, "secret")
    assert not worker_b.revoked("abc")
    worker_a.revoke("abc")
    assert worker_b.revoked("abc") and not worker_b.revoked("abd")
    restarted = Logouts(tmp_path, "secret")
    restarted.forget_expired()
    assert restarted.revoked("abc")
    assert not Logouts(tmp_path, "another secret").revoked("abc")


def test_expired_logouts_are_forgotten(tmp_path):
    """Ids whose cookies have expired anyway are dropped from the file at start-up."""
    worker = Logouts(tmp_path, "secret")
    worker.revoke("old")
    later = Logouts(tmp_path, "secret")
    later.forget_expired(now=worker.ids["old"] + 1)
    assert not later.revoked("old") and later.path.read_text() == ""


def test_query_values_that_are_not_utf8_are_made_readable():
    """?theme=%FF reaches Panel as the replacement character, other values untouched."""
    arguments = {"theme": [b"\xff"], "seats": [b"4"], "x": [b"caf\xc3\xa9"]}
    readable_arguments(arguments)
    assert arguments == {"theme": ["\ufffd".encode()], "seats": [b"4"], "x": [b"caf\xc3\xa9"]}
