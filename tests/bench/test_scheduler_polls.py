"""bench/scheduler_polls.py: the sixty-first round's switch and the figures it reads."""

from __future__ import annotations

from bench.scheduler_polls import row_ratios, without_scheduler_polls
from core import Scenario, evaluate

SGLANG = dict(model="Llama-3-70B", gpu="H100 SXM", cards=4, engine="sglang", realism="engine",
              concurrency=16)  # fmt: skip


def test_the_switch_takes_the_polls_wait_out():
    """Under the switch an SGLang command's interval of 30 prices as a poll every step."""
    every = float(evaluate(Scenario(**SGLANG)).ttft_p50_s)
    with without_scheduler_polls():
        switched = float(evaluate(Scenario(**SGLANG, recv_interval=30)).ttft_p50_s)
    assert switched == every
    assert float(evaluate(Scenario(**SGLANG, recv_interval=30)).ttft_p50_s) > every


def test_each_b200_row_is_read_before_and_after():
    """Every row of InferenceX's B200 run gets a ratio without the rule and with it, the rule
    never shortening a first token."""
    was, now = (found["ratios"] for found in row_ratios())
    assert list(was) == list(now) == [f"D{n}" for n in range(443, 453)]
    for key, before, after in ((key, was[key], now[key]) for key in was):
        assert before > 0 and after > 0
        if int(key[1:]) >= 448:  # the first tokens
            assert after >= before
