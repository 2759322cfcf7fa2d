"""Mattered vs noise: every knob away from its default gets a row, each row as one reset."""

import pytest

from core import KNOBS, Scenario, evaluate
from core.studies.sensitivity import FOLLOWERS, ROW_BY_ROW, knob_defaults, knob_effects, moved_knobs

HEADLINES = ("seats_granted", "ttft_p95_s", "decode_tokens_per_s", "monthly_usd")
WALKTHROUGH = {"seats": 16, "tier": "small", "prompt_tokens": 1200, "prefix_hit_rate": 0.3,
               "kv_dtype": "bf16"}  # fmt: skip
FLEET = {"replicas": 3, "router": "prefix-affinity", "prefix_source": "derived"}


def test_the_walkthrough_rows_then_every_knob_moved():
    """The five rows always; then each knob off its default (not the workload, not a follower)."""
    s = Scenario(workload="document analysis", traffic="azure-code", model="Llama-3-70B", **FLEET)
    rows = moved_knobs(s, WALKTHROUGH, left_out=("workload",))
    assert list(rows)[:5] == list(WALKTHROUGH)
    assert set(rows) - set(WALKTHROUGH) == {"traffic", "model", *FLEET}
    assert rows["replicas"] is None and rows["router"] == "round-robin"
    assert moved_knobs(Scenario(), WALKTHROUGH) == WALKTHROUGH
    assert not set(FOLLOWERS) & set(moved_knobs(Scenario(gpu="custom"), WALKTHROUGH))


def test_a_fleet_of_three_names_replicas_as_what_moved_the_bill():
    """replicas=3 with affinity and a derived hit rate: resetting replicas alone moves the bill."""
    s = Scenario(**FLEET)
    effects = {e.knob: e for e in knob_effects(s, moved_knobs(s, WALKTHROUGH), HEADLINES)}
    alone = evaluate(s, replicas=None)
    assert effects["replicas"].mattered
    assert effects["replicas"].changes["monthly_usd"] == pytest.approx(
        float(evaluate(s).monthly_usd) - float(alone.monthly_usd)
    )
    assert effects["replicas"].changes["monthly_usd"] > 0
    for knob in ("router", "prefix_source"):  # single-valued knobs: one evaluation each
        reset = evaluate(s, **{knob: Scenario.param[knob].default})
        assert effects[knob].values["ttft_p95_s"][1] == pytest.approx(float(reset.ttft_p95_s))


@pytest.mark.parametrize("knob", sorted(set(KNOBS) - ROW_BY_ROW))
def test_every_knob_outside_row_by_row_sweeps_in_one_evaluation(knob):
    """A knob left out of ROW_BY_ROW takes its reset row inside the one vectorised evaluation."""
    effect = knob_effects(Scenario(), {knob: knob_defaults()[knob]}, HEADLINES)[0]
    assert effect.changes == dict.fromkeys(HEADLINES, 0.0) and not effect.mattered


@pytest.mark.parametrize("release", ["0.6", "0.17-atom"])
def test_resetting_the_engine_resets_its_release_with_it(release):
    """vLLM at a named release: the engine's reset row is the default engine at its newest
    release (a vLLM release is no TensorRT-LLM one), and the release's row is vLLM's newest."""
    s = Scenario(realism="engine", engine="vllm", engine_version=release, gpu="MI355X")
    effects = {e.knob: e for e in knob_effects(s, moved_knobs(s, WALKTHROUGH), HEADLINES)}
    engine_reset = evaluate(s, engine=Scenario.param["engine"].default, engine_version=None)
    assert effects["engine"].values["ttft_p95_s"][1] == pytest.approx(
        float(engine_reset.ttft_p95_s)
    )
    release_reset = evaluate(s, engine_version=None)
    assert effects["engine_version"].values["ttft_p95_s"][1] == pytest.approx(
        float(release_reset.ttft_p95_s)
    )
