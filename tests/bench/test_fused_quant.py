"""Tests for bench/fused_quant.py: what fusing vLLM V1's fp8 input quantiser moved."""

from bench.fused_quant import llama_step_spared_s, main, unfused_input_quant
from core.catalog.dense_gemms import STATIC_QUANT_S


def test_the_quantiser_is_put_back_after_use_even_on_an_error():
    """Inside the context no GEMM is spared its quantiser; afterwards the rule is back, also when
    the code inside raises."""
    own = dict(STATIC_QUANT_S)
    try:
        with unfused_input_quant():
            assert not STATIC_QUANT_S
            raise RuntimeError
    except RuntimeError:
        pass
    assert own == STATIC_QUANT_S
    assert llama_step_spared_s() > 0.0


def test_the_report_prints_both_prices(capsys):
    """The bench prints the quantisers' range and the sets without the rule and with it."""
    main()
    printed = capsys.readouterr().out
    assert "without the rule: both sets" in printed and "with it: both sets" in printed
    assert "µs" in printed and "ms shorter" in printed
