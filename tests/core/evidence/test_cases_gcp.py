"""D165: Google Cloud's TensorRT-LLM recipe, typed from its run's own log."""

from __future__ import annotations

from numpy.testing import assert_allclose

from core.evidence.cases_2026 import SCORED_SECOND, SECOND
from core.evidence.cases_gcp import GCP
from core.evidence.configs import LLAMA_31_405B
from core.evidence.fidelity import PUBLISHED


def test_the_recipes_row_is_scored_after_every_earlier_row():
    """D165 follows D164 in the second set and counts in its score."""
    keys = [case.key for case in SECOND]
    assert keys.index("D165") == keys.index("D164") + 1
    assert GCP[0] in SCORED_SECOND and GCP[0].scored


def test_the_row_is_typed_as_its_log_prints_it():
    """Eight H200, Llama 3.1 405B's config.json in FP8 with an FP8 cache, TP8, the 0.17 line,
    30,000 requests of 128/128; its figure the request throughput times 128 answer tokens."""
    (case,) = GCP
    assert (case.gpu, case.cards, case.dtype, case.kv_dtype) == ("H200", 8, "fp8", "fp8")
    assert case.model_config == LLAMA_31_405B and case.layout == "TP8"
    assert case.engine == "TensorRT-LLM" and case.engine_version.startswith("0.17")
    assert (case.prompt_tokens, case.answer_tokens, case.requests) == (128, 128, 30000)
    assert case.load == "saturated" and case.metric == "throughput"
    assert_allclose(case.measured, 30.5816 * 128, rtol=1e-4)
    assert case.scenario().engine_version == "0.17"


def test_google_cloud_is_a_publisher_no_other_row_has():
    """The recipes' repository is its own publisher; no other row names it."""
    assert GCP[0].publisher == "Google Cloud AI Hypercomputer recipes"
    others = [case for case in PUBLISHED if case not in GCP]
    assert not any(case.publisher == GCP[0].publisher for case in others)
