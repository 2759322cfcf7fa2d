"""bench/aiter_moe_fit.py: AITER's gpt-oss steps against the catalog's MI355X MXFP4 row."""

import pytest

from bench.aiter_moe_fit import GPT_OSS_LONG_STEPS_US, gpt_oss_long_steps


def test_gpt_oss_long_steps_are_the_tables_times_beside_the_rows_price():
    """Each step is AITER's time as the table prints it, in seconds, beside a positive price that
    grows with the step; at 4,096 tokens the row holds (within 10 %), at 8,192 and more the table
    reads at least half again as long."""
    steps = gpt_oss_long_steps()
    assert [tokens for tokens, _, _ in steps] == sorted(GPT_OSS_LONG_STEPS_US)
    for tokens, measured, priced in steps:
        assert measured == pytest.approx(GPT_OSS_LONG_STEPS_US[tokens] * 1e-6)
        assert priced > 0
    prices = [priced for _, _, priced in steps]
    assert prices == sorted(prices)
    ratios = {tokens: measured / priced for tokens, measured, priced in steps}
    assert ratios[4096] == pytest.approx(1.0, abs=0.1)
    assert ratios[8192] > 1.5 and ratios[16384] > 1.5
