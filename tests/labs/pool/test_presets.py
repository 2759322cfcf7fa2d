"""Every famous failure's goal says what may and may not change, and the judge reads it both ways."""

import pytest

from core import KNOBS, Scenario, evaluate
from labs.kv.lab import LOCAL_KNOBS, SHARED_KNOBS, KvLab, evaluate_kv, kv_defaults
from labs.kv.presets import KV_PRESETS
from labs.pool.lab import PoolLab, pool_defaults
from labs.pool.presets import POOL_PRESETS
from labs.widgets.presets import judged_state

# One other value per knob, a move a student could make; knobs missing here take no value alone
# (a pasted config or a hand-typed card only counts with model or gpu set to 'custom').
MOVES = {
    "workload": "chat", "tier": "large", "model": "Mixtral-8x7B", "gpu": "B200", "cards": 8,
    "weight_dtype": "fp8", "kv_dtype": "fp8", "seats": 8, "prompt_tokens": 2000,
    "answer_tokens": 50, "prefix_hit_rate": 0.5, "arrivals_per_min": 10.0, "realism": "engine",
    "serving_mode": "chunked", "engine": "vLLM", "layout": "TP", "concurrency": 8,
    "usd_per_gpu_hour": 0.5, "sequence_tokens": 2000, "requests": 2,
}  # fmt: skip
FLIPS = {"workload": "document analysis", "tier": "small"}  # where MOVES is the preset's own


def pool_state(knobs):
    scenario = Scenario(**{**pool_defaults(), **knobs})
    return judged_state(scenario, evaluate(scenario)), None


def kv_state(knobs):
    values = {**kv_defaults(), **knobs}
    scenario = Scenario(**{name: values[name] for name in KNOBS if name in values})
    result = evaluate_kv(scenario, values["sequence_tokens"], values["requests"])
    local = {name: values[name] for name in LOCAL_KNOBS}
    return judged_state(scenario, result, **local), bool(result.capacity_ok)


CASES = [(preset, pool_state, tuple(KNOBS)) for preset in POOL_PRESETS] + [
    (preset, kv_state, (*KNOBS, *LOCAL_KNOBS)) for preset in KV_PRESETS
]
IDS = [preset.key for preset, _, _ in CASES]


def held(preset):
    return {name for keep in preset.keep for name in keep.knobs}


@pytest.mark.parametrize(("preset", "state", "universe"), CASES, ids=IDS)
def test_every_knob_is_either_kept_or_left_open(preset, state, universe):
    """Each knob a student can reach is, in the preset's goal, held or free, never both or neither."""
    kept, free = held(preset) - {"nodes"}, set(preset.free)
    assert not kept & free, sorted(kept & free)
    assert kept | free == set(universe), sorted(set(universe) ^ (kept | free))


@pytest.mark.parametrize(("preset", "state", "universe"), CASES, ids=IDS)
def test_the_loaded_failure_and_its_fix_keep_every_promise(preset, state, universe):
    """The loaded failure keeps every promise about a knob (a node count may be the failure); the fix all."""
    loaded = preset.broken(state(preset.knobs)[0])
    assert all(keep.name == "nodes" for keep in loaded), loaded
    assert preset.broken(state({**preset.knobs, **preset.fix})[0]) == []


def move(now, knob):
    value = MOVES[knob]
    return FLIPS.get(knob, value) if now[knob] == value else value


@pytest.mark.parametrize(("preset", "state", "universe"), CASES, ids=IDS)
def test_moving_a_held_knob_breaks_a_promise_and_a_free_one_breaks_none_of_its_own(
    preset, state, universe
):
    """After the fix, a held knob moved is no fix; a free knob moved breaks no promise about it."""
    fixed = {**preset.knobs, **preset.fix}
    before, _ = state(fixed)
    for knob in (name for name in universe if name in MOVES):
        now, _ = state({**fixed, knob: move(before, knob)})
        blamed = [keep for keep in preset.broken(now) if knob in keep.knobs]
        # bounds, not values: a longer prompt or a lower hit rate than the sessions keep holds
        bounded = ("prompt_tokens", "sequence_tokens", "requests", "prefix_hit_rate")
        if knob in held(preset) and knob not in bounded:
            assert blamed, f"{preset.key}: {knob} -> {move(before, knob)} kept every promise"
        if knob in preset.free:
            assert not blamed, f"{preset.key}: free {knob} broke {blamed}"


@pytest.mark.parametrize(("preset", "state", "universe"), CASES, ids=IDS)
def test_the_tiers_exact_model_is_the_same_model(preset, state, universe):
    """Picking the tier's exact model by name (Llama-3-70B for the 70B) keeps 'the ... model'."""
    tier = {**kv_defaults(), **preset.knobs}.get("tier", "small")
    exact = {"small": "Llama-3-8B", "large": "Llama-3-70B"}[tier]
    now, _ = state({**preset.knobs, **preset.fix, "model": exact})
    assert not [keep for keep in preset.broken(now) if "model" in keep.knobs]


def test_buying_a_b200_does_not_fix_the_timestamp():
    """The timestamp's goal says no new hardware: a B200 that passes is 'not fixed', never 'Fixed.'"""
    lab = PoolLab(Scenario())
    lab.presets.load("timestamp")
    lab.scenario.param.update(gpu="B200", cards=2)
    lab._refresh_details()
    story = lab.presets.story.object
    assert "<b>Fixed.</b>" not in story
    assert "without buying hardware" in lab.presets.presets["timestamp"].goal
    assert "the hardware you have" in story


def test_the_memory_wall_solved_on_the_exact_llama_3_70b_is_fixed():
    """The memory wall's fix on the exact Llama-3-70B is 'Fixed.', not 'gave up the 70B model'."""
    lab = PoolLab(Scenario())
    lab.presets.load("memory-wall")
    preset = lab.presets.presets["memory-wall"]
    lab.scenario.param.update(**preset.fix, model="Llama-3-70B")
    lab._refresh_details()
    assert lab.result.passes
    story = lab.presets.story.object
    assert "<b>Fixed.</b>" in story and "giving up" not in story


def test_the_goal_line_names_what_it_keeps_and_what_is_yours():
    """The story box reads the goal both ways: 'Keeps ...' and 'Yours to change: ...'."""
    lab = KvLab(Scenario())
    lab.presets.load("bf16-cache")
    lab._refresh_details()
    story = lab.presets.story.object
    assert "Keeps the 8B model, the one H100 SXM card" in story
    assert "Yours to change:" in story and "cache storage" in story.split("Yours to change:")[1]
    assert set(SHARED_KNOBS) <= set(KNOBS)


def test_the_agent_is_not_fixed_by_typing_a_hit_rate_its_cache_cannot_keep():
    """95 % typed with nowhere for the history to wait is no fix; the same rate with offload is."""
    lab = PoolLab(Scenario())
    lab.presets.load("agent-rereads")
    lab.scenario.param.update(prefix_hit_rate=0.95)
    lab._refresh_details()
    assert lab.result.latency_ok  # the figures pass: the judge must see through them
    story = lab.presets.story.object
    assert "<b>Fixed.</b>" not in story and "Passing, but not fixed" in story
    lab.scenario.param.update(kv_offload="host-pcie")
    lab._refresh_details()
    assert "<b>Fixed.</b>" in lab.presets.story.object
