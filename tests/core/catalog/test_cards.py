"""The cards' achieved rates: a Hopper card's stream is bounded by its SMs."""

from __future__ import annotations

from html import unescape

from numpy.testing import assert_allclose

from core import Scenario
from core.catalog.cards import GPUS, H20_SMS, H100_MEASURED_SHARES, HOPPER_SMS, HOPPER_STREAM_PER_SM
from core.evidence.level_gap import rate_provenance
from labs.widgets.level_note import borrowed_text


def test_the_h20_streams_what_its_sms_draw_at_the_h200s_rate_each():
    """An H20's 78 SMs draw the H200's measured stream per SM, below the H100's share of its
    4.0 TB/s peak, which it took before."""
    h20 = GPUS["H20"]
    assert_allclose(HOPPER_STREAM_PER_SM, GPUS["H200"].achieved_hbm_bytes_per_s / HOPPER_SMS)
    assert_allclose(h20.achieved_hbm_bytes_per_s, H20_SMS * HOPPER_STREAM_PER_SM)
    assert h20.achieved_hbm_bytes_per_s < h20.hbm_bytes_per_s * H100_MEASURED_SHARES["bw"]


def test_the_bound_leaves_cards_with_all_their_sms_alone():
    """The H100 and the H200 have 132 SMs each: the bound never binds their measured streams."""
    for card in ("H100 SXM", "H200"):
        assert GPUS[card].achieved_hbm_bytes_per_s <= HOPPER_SMS * HOPPER_STREAM_PER_SM
        assert not GPUS[card].bandwidth_note


def test_the_engine_note_says_how_the_h20s_bandwidth_is_set():
    """On an H20 the note under a headline says its bf16 matmul rate is borrowed (its fp8 rate is
    its own, measured) and its bandwidth is the H200's stream per SM over its 78 SMs."""
    provenance = rate_provenance(Scenario(gpu="H20"))
    text = unescape(borrowed_text(provenance))
    assert "its bf16 matmul rates are the H100's measured shares" in text
    assert "H200's measured stream per SM over its 78 SMs" in text
