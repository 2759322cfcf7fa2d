"""How a published case types a max-load run: the requests it sends and the engine it ran on."""

from __future__ import annotations

from dataclasses import replace

from core.evidence.cases import DEVELOPMENT, PERF_OVERVIEW_REQUESTS, SATURATED_USERS
from core.evidence.cases_2026 import SECOND, TRT_1X_REQUESTS
from core.evidence.check_cases import CHECK
from core.evidence.check_cases_2026 import CHECK_TRT_1X
from core.evidence.fidelity import PUBLISHED, predictions


def test_a_run_is_typed_with_no_more_users_than_the_requests_it_sends():
    """Every case that states its requests is typed with at most that many users; one that
    states none with more users than any node seats."""
    for case in (*PUBLISHED, *CHECK):
        if case.load != "saturated":
            continue
        users = case.scenario().concurrency
        assert users <= (case.requests or SATURATED_USERS)
        assert users == case.saturated_users


def test_the_perf_overviews_rows_send_the_pages_request_counts():
    """T1-T11 and the check set's max-load rows send the v0.17 page's count for their lengths."""
    rows = [case for case in (*DEVELOPMENT, *CHECK) if case.key[0] == "T" or case in CHECK]
    for case in rows:
        if case.load == "saturated" and case.engine_version != "0.14":
            assert case.requests == PERF_OVERVIEW_REQUESTS[case.prompt_tokens, case.answer_tokens]


def test_the_first_sets_runs_reach_a_steady_state_so_their_counts_move_figures_little():
    """NVIDIA chose its counts to reach a steady state: typed with them, a first-set run's
    last partial wave lowers its figure, never by 5 % or more (SGLang's 5,000 ShareGPT
    requests are not equal requests, so S3/S4 type none)."""
    counted = [case for case in DEVELOPMENT if case.requests]
    assert {case.key[0] for case in counted} == {"T"} and len(counted) == 11
    typed = predictions(counted)
    untyped = predictions([replace(case, requests=0) for case in counted])
    assert (typed <= untyped).all() and (typed > 0.95 * untyped).all()


def test_a_stated_count_names_itself_in_the_load():
    """A run of 30,000 requests reads so; one that states none reads 'every request at once'."""
    (t1,) = [case for case in DEVELOPMENT if case.key == "T1"]
    assert t1.load_text == "30,000 requests at once"
    assert replace(t1, requests=0).load_text == "every request at once"


def test_the_1x_pages_rows_send_its_request_counts_where_it_states_them():
    """D01-D07 and the second check set send the 1.x page's count for their lengths; a pair
    the page's table does not list (1000/1000) is typed without one."""
    first_seven = [case for case in SECOND if case.key in {f"D0{n}" for n in range(1, 8)}]
    for case in (*first_seven, *CHECK_TRT_1X):
        lengths = (case.prompt_tokens, case.answer_tokens)
        assert case.requests == TRT_1X_REQUESTS.get(lengths, 0)
    assert any(case.requests == 0 for case in CHECK_TRT_1X)
