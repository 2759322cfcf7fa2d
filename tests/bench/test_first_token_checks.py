"""Tests for bench/first_token_checks.py: SGLang's measured first-token path against runs it never saw."""

from bench.first_token_checks import (
    GPUSTACK_FIRST_TOKENS_S,
    borrowed_sglang_path,
    gpustack_rows,
    main,
)
from core.catalog.engines import ENGINES


def test_the_borrowed_path_is_put_back_after_use_even_on_an_error():
    """The context swaps SGLang's engine for the borrowed figure and restores its own, also when
    the code inside raises."""
    own = ENGINES["sglang"]
    try:
        with borrowed_sglang_path():
            assert ENGINES["sglang"].request_overhead_per_layer_s == (
                ENGINES["vllm"].request_overhead_per_layer_s
            )
            assert ENGINES["sglang"].eager_launch_s == 0.0
            raise RuntimeError
    except RuntimeError:
        pass
    assert ENGINES["sglang"] is own


def test_gpustacks_runs_are_the_development_cases_own_set_ups():
    """Each first token is compared at the set-up of the case holding the same run's time
    between tokens; SGLang's own path prices its two runs faster than the borrowed one did,
    and the other engines' figures do not depend on it."""
    rows = gpustack_rows()
    assert [row[0] for row in rows] == list(GPUSTACK_FIRST_TOKENS_S)
    for _, engine, _, _, mean, median, own, borrowed in rows:
        assert mean >= median > 0 and own > 0
        if engine == "SGLang":
            assert own < borrowed
        else:
            assert own == borrowed


def test_the_report_prints(capsys):
    """The script prints its three parts."""
    main()
    out = capsys.readouterr().out
    assert "PR #13094" in out and "PR #12160" in out and "GPUStack" in out
