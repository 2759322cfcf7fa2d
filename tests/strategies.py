"""Hypothesis strategies for valid scenarios, in one place."""

from hypothesis import strategies as st

from core import GPUS, MODELS, TIERS, WORKLOADS

workloads = st.sampled_from(list(WORKLOADS))
tiers = st.sampled_from(list(TIERS))
models = st.sampled_from([None, *MODELS])
gpus = st.sampled_from(list(GPUS))
dtypes = st.sampled_from(["bf16", "fp8"])
seats = st.integers(1, 4096)
prompt_tokens = st.integers(1, 1_000_000)
answer_tokens = st.integers(0, 100_000)
hit_rates = st.floats(0.0, 1.0, allow_nan=False)
arrival_rates = st.floats(0.01, 100_000.0, allow_nan=False)
cards = st.one_of(st.none(), st.integers(1, 16))


@st.composite
def scenario_knobs(draw) -> dict:
    """Keyword arguments for any valid Scenario."""
    return {
        "workload": draw(workloads),
        "tier": draw(tiers),
        "model": draw(models),
        "gpu": draw(gpus),
        "cards": draw(cards),
        "weight_dtype": draw(dtypes),
        "kv_dtype": draw(dtypes),
        "seats": draw(seats),
        "prompt_tokens": draw(prompt_tokens),
        "answer_tokens": draw(st.one_of(st.none(), answer_tokens)),
        "prefix_hit_rate": draw(hit_rates),
        "arrivals_per_min": draw(st.one_of(st.none(), arrival_rates)),
    }
