"""Hypothesis strategies for valid scenarios, in one place."""

import json

from hypothesis import strategies as st

from core import GPUS, MODELS, TIERS, WORKLOADS
from core.catalog import WEIGHT_FORMATS
from core.catalog.custom import CUSTOM
from core.catalog.tiers import OFFLOADS
from core.practice import CHALLENGES
from core.scenario.knobs import KV_LINKS, SERVING_MODES
from tests.paths import FIXTURES_DIR

workloads = st.sampled_from(list(WORKLOADS))
tiers = st.sampled_from(list(TIERS))
models = st.sampled_from([None, *MODELS])
gpus = st.sampled_from(list(GPUS))
dtypes = st.sampled_from(["bf16", "fp8"])
weight_dtypes = st.sampled_from(list(WEIGHT_FORMATS))
batches = st.integers(1, 4096)
seats = st.integers(1, 4096)
prompt_tokens = st.integers(1, 1_000_000)
answer_tokens = st.integers(0, 100_000)
hit_rates = st.floats(0.0, 1.0, allow_nan=False)
arrival_rates = st.floats(0.01, 100_000.0, allow_nan=False)
cards = st.one_of(st.none(), st.integers(1, 16))
realisms = st.sampled_from(["whiteboard", "engine"])
concurrencies = st.one_of(st.none(), st.integers(1, 1_000_000))


@st.composite
def scenario_knobs(draw) -> dict:
    """Keyword arguments for any valid Scenario."""
    return {
        "workload": draw(workloads),
        "tier": draw(tiers),
        "model": draw(models),
        "gpu": draw(gpus),
        "cards": draw(cards),
        "weight_dtype": draw(weight_dtypes),
        "kv_dtype": draw(dtypes),
        "seats": draw(seats),
        "prompt_tokens": draw(prompt_tokens),
        "answer_tokens": draw(st.one_of(st.none(), answer_tokens)),
        "prefix_hit_rate": draw(hit_rates),
        "arrivals_per_min": draw(st.one_of(st.none(), arrival_rates)),
        "realism": draw(realisms),
        "concurrency": draw(concurrencies),
    }


# Every knob of the Scenario, the edges included: the custom model and card, every serving
# mode and link, a closed loop of 1 or 1,000,000 users, runs of 1 to 10,000,000 requests,
# answers of 0 or 1 token, and the arrival rate at the ends of its range.
_CONFIGS = sorted((FIXTURES_DIR / "configs").glob("*.json"))
model_configs = st.sampled_from(
    [json.dumps(json.loads(path.read_text()), separators=(",", ":")) for path in _CONFIGS]
)
every_model = st.sampled_from([None, *MODELS, CUSTOM])
every_gpu = st.sampled_from([*GPUS, CUSTOM])
serving_modes = st.sampled_from(SERVING_MODES)
kv_links = st.sampled_from(KV_LINKS)
offloads = st.sampled_from(OFFLOADS)
edge_answers = st.one_of(st.none(), st.sampled_from([0, 1, 2]), st.integers(0, 1_000_000))
edge_arrivals = st.one_of(
    st.none(),
    st.sampled_from([0.01, 1_000_000.0]),
    st.floats(-2.0, 6.0).map(lambda power: 10.0**power),
)
edge_concurrencies = st.one_of(
    st.none(), st.sampled_from([1, 2, 62, 1_000_000]), st.integers(1, 1_000_000)
)
edge_runs = st.one_of(st.none(), st.sampled_from([1, 10_000_000]), st.integers(1, 10_000_000))
edge_batch_limits = st.one_of(st.none(), st.sampled_from([1, 1_000_000]), st.integers(1, 1_000_000))
edge_memory_shares = st.one_of(st.none(), st.sampled_from([0.05, 1.0]), st.floats(0.05, 1.0))
edge_prices = st.one_of(st.none(), st.sampled_from([0.0, 1000.0]), st.floats(0.0, 1000.0))


@st.composite
def every_knob(draw) -> dict:
    """Keyword arguments for any valid Scenario, drawing every one of its knobs."""
    knobs = {
        "workload": draw(workloads),
        "tier": draw(tiers),
        "model": draw(every_model),
        "gpu": draw(every_gpu),
        "cards": draw(cards),
        "weight_dtype": draw(weight_dtypes),
        "kv_dtype": draw(dtypes),
        "seats": draw(st.one_of(st.sampled_from([1, 4096]), seats)),
        "prompt_tokens": draw(st.one_of(st.sampled_from([1, 4_000_000]), prompt_tokens)),
        "answer_tokens": draw(edge_answers),
        "prefix_hit_rate": draw(st.one_of(st.sampled_from([0.0, 1.0]), hit_rates)),
        "arrivals_per_min": draw(edge_arrivals),
        "realism": draw(realisms),
        "serving_mode": draw(serving_modes),
        "kv_link": draw(kv_links),
        "concurrency": draw(edge_concurrencies),
        "run_requests": draw(edge_runs),
        "batch_limit": draw(edge_batch_limits),
        "memory_share": draw(edge_memory_shares),
        "usd_per_gpu_hour": draw(edge_prices),
        "kv_offload": draw(offloads),
    }
    if knobs["model"] == CUSTOM:
        knobs["model_config"] = draw(model_configs)
    if knobs["gpu"] == CUSTOM:
        knobs["card_memory_gb"] = draw(st.floats(1.0, 4096.0))
        knobs["card_tb_per_s"] = draw(st.floats(0.01, 100.0))
        knobs["card_tflops"] = draw(st.floats(1.0, 100_000.0))
    return knobs


# Practice problems: any challenge, any seed (0 is the classic version).
challenge_keys = st.sampled_from(list(CHALLENGES))
problem_seeds = st.integers(0, 999_999)


# The step simulator (core/simulator/): small runs, tight enough memory to force the wall.
engine_policies = st.sampled_from(["static", "continuous"])
engine_layouts = st.sampled_from(["reserved", "paged"])
engine_arrivals = st.sampled_from(["poisson", "offline"])
engine_answers = st.sampled_from(["fixed", "exponential", "capped exponential", "uniform"])


@st.composite
def engine_runs(draw) -> dict:
    """Keyword arguments for a small ``core.simulator.simulate`` run, plus ``kv_room_tokens``."""
    return {
        "policy": draw(engine_policies),
        "kv_layout": draw(engine_layouts),
        "requests": draw(st.integers(1, 40)),
        "seed": draw(st.integers(0, 2**32 - 1)),
        "batch_size": draw(st.integers(1, 64)),
        "wait_cap_s": draw(st.floats(0.0, 2.0, allow_nan=False)),
        "arrival": draw(engine_arrivals),
        "arrival_rate_per_s": draw(st.floats(0.1, 50.0, allow_nan=False)),
        "prompt_tokens": draw(st.integers(1, 600)),
        "answer": draw(engine_answers),
        "answer_mean": draw(st.integers(1, 60)),
        "answer_cap": draw(st.integers(1, 400)),
        "kv_room_tokens": draw(st.integers(2_000, 40_000)),
    }


engine_modes = st.sampled_from(["aggregated", "chunked", "disaggregated"])


@st.composite
def engine_mode_runs(draw) -> dict:
    """Keyword arguments for a small continuous run in any serving mode, plus ``kv_room_tokens``."""
    return {
        "mode": draw(engine_modes),
        "kv_layout": draw(engine_layouts),
        "requests": draw(st.integers(1, 40)),
        "seed": draw(st.integers(0, 2**32 - 1)),
        "batch_size": draw(st.integers(1, 64)),
        "arrival": draw(engine_arrivals),
        "arrival_rate_per_s": draw(st.floats(0.1, 50.0, allow_nan=False)),
        "prompt_tokens": draw(st.integers(1, 600)),
        "answer": draw(engine_answers),
        "answer_mean": draw(st.integers(1, 60)),
        "answer_cap": draw(st.integers(1, 400)),
        "long_every": draw(st.integers(0, 10)),
        "long_prompt_tokens": draw(st.integers(1, 3000)),
        "chunk_tokens": draw(st.integers(1, 2048)),
        "replicas": draw(st.integers(1, 3)),
        "prefill_nodes": draw(st.integers(1, 3)),
        "decode_nodes": draw(st.integers(1, 3)),
        "link": draw(st.sampled_from(["nvlink", "infiniband"])),
        "kv_room_tokens": draw(st.integers(2_000, 40_000)),
    }


# The Pareto frontier (core/studies/frontier.py): clouds of points on two measures, some ineligible.
@st.composite
def point_clouds(draw) -> tuple:
    """``(x, y, eligible)`` lists of one length, with ties likely."""
    size = draw(st.integers(0, 40))
    values = st.integers(0, 12).map(float)
    x = draw(st.lists(values, min_size=size, max_size=size))
    y = draw(st.lists(values, min_size=size, max_size=size))
    eligible = draw(st.lists(st.booleans(), min_size=size, max_size=size))
    return x, y, eligible


# Hostile values for a results file's fields: text, lists, objects, booleans, huge and odd numbers.
hostile_values = st.one_of(
    st.none(),
    st.booleans(),
    st.text(max_size=12),
    st.sampled_from(["12", "inf", "NaN", "-1", "=1+2", ""]),
    st.integers(-(10**6), 10**6),
    st.sampled_from([10**400, -(10**400), 10**20]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.lists(st.one_of(st.integers(-5, 5), st.text(max_size=3), st.none()), max_size=4),
    st.dictionaries(st.text(max_size=4), st.integers(0, 3), max_size=2),
)


# Figures shown on two pages (tests/labs/page/test_shown.py): a scenario every lab can draw,
# the prefix lab's prompt, and the batching lab's run. Half the draws give the pool the prefix
# lab's prompt and cached share, so the two first tokens are the same quantity.
@st.composite
def shown_knobs(draw) -> dict:
    """The shared Scenario's knobs and each lab's own, for one draw of every lab."""
    preamble = draw(st.integers(16, 6000))
    question = draw(st.integers(0, 2000))
    prefix = {
        "preamble_tokens": preamble,
        "question_tokens": question,
        "edit_position": draw(st.integers(0, preamble)),
        "state": draw(st.sampled_from(["cached", "edited"])),
    }
    scenario = {
        "workload": draw(workloads),
        "tier": draw(tiers),
        "model": draw(st.sampled_from([None, "Llama-3-8B", "Mixtral-8x7B", "gpt-oss-20b"])),
        "gpu": draw(st.sampled_from(["H100 SXM", "H200", "L40S", "A100 80GB SXM"])),
        "seats": draw(st.integers(1, 256)),
        "prompt_tokens": draw(st.integers(16, 8000)),
        "prefix_hit_rate": draw(st.sampled_from([0.0, 0.3, 0.5, 0.9, 1.0])),
        "kv_dtype": draw(dtypes),
        "realism": draw(realisms),
    }
    batching = {
        "batch_size": draw(st.sampled_from([4, 16, 32, 64])),
        "requests": draw(st.sampled_from([40, 100, 200])),
        "kv_layout": draw(engine_layouts),
    }
    return {"scenario": scenario, "prefix": prefix, "batching": batching,
            "aligned": draw(st.booleans())}  # fmt: skip


# A node's scheduler (core/simulator/rules.py): short streams of requests with bursts (equal
# arrival times), long and short prompts and answers, and answer limits above the answers.
@st.composite
def request_streams(draw):
    """A :class:`~core.simulator.requests.Requests` of 1 to 40 requests, sorted by arrival."""
    import numpy as np

    from core.simulator.requests import Requests

    size = draw(st.integers(1, 40))
    gaps = draw(
        st.lists(st.sampled_from([0.0, 0.01, 0.05, 0.3, 2.0]), min_size=size, max_size=size)
    )
    prompts = draw(st.lists(st.integers(1, 3000), min_size=size, max_size=size))
    answers = draw(st.lists(st.integers(1, 300), min_size=size, max_size=size))
    slack = draw(st.lists(st.integers(0, 200), min_size=size, max_size=size))
    answer_tokens = np.array(answers)
    return Requests(
        np.cumsum(gaps), np.array(prompts), answer_tokens, answer_tokens + np.array(slack)
    )


# Mixtures laid out attention data-parallel (DEP) on one node: the gathers' cards and counts,
# NCCL's measured ones among them (core.catalog.collective_tables) and others on the line.
dep_models = st.sampled_from(["DeepSeek-R1", "Qwen3-235B-A22B", "Qwen3-30B-A3B", "gpt-oss-120b",
                              "Llama-4-Scout", "Llama-4-Maverick", "Mixtral-8x7B"])  # fmt: skip


def _engine_run(draw) -> dict:
    """The engine-level knobs both split strategies draw alike: the engine and its release
    (int4 experts loop over the experts in some: core.catalog.release_kernels), the weights and
    one closed loop's lengths and users."""
    from core.catalog.engine_versions import versions_of

    engine = draw(st.sampled_from(["tensorrt-llm", "vllm", "sglang"]))
    return {
        "realism": "engine",
        "engine": engine,
        "engine_version": draw(st.sampled_from([None, *versions_of(engine)])),
        "weight_dtype": draw(st.sampled_from(["fp8", "bf16", "int4"])),
        "prompt_tokens": draw(st.integers(1, 32_768)),
        "answer_tokens": draw(st.integers(1, 8_192)),
        "concurrency": draw(st.integers(1, 4_096)),
    }


@st.composite
def dep_knobs(draw) -> dict:
    """Keyword arguments for a Scenario of a mixture laid out DEP at the engine level."""
    return {
        **_engine_run(draw),
        "model": draw(dep_models),
        "gpu": draw(st.sampled_from(["H100 SXM", "H200", "B200", "H20", "MI300X"])),
        "cards": draw(st.sampled_from([2, 4, 6, 8])),
        "layout": "dep",
    }


tensor_parallel_models = st.sampled_from(
    ["Llama-3-8B", "Llama-3-70B", "Mixtral-8x7B", "Qwen3-30B-A3B", "gpt-oss-120b"]
)
tensor_parallel_gpus = st.sampled_from(
    ["H100 SXM", "H200", "B200", "A100 80GB SXM", "L40S", "MI300X"]
)


@st.composite
def tensor_parallel_knobs(draw) -> dict:
    """Keyword arguments for a Scenario split tensor-parallel over one node at the engine level:
    measured all-reduce tables (NVLink cards, 2, 4 or 8 of them) and the line elsewhere."""
    return {
        **_engine_run(draw),
        "model": draw(tensor_parallel_models),
        "gpu": draw(tensor_parallel_gpus),
        "cards": draw(st.sampled_from([1, 2, 3, 4, 8])),
    }


# any node split over cards: tensor-parallel or DEP
split_knobs = st.one_of(dep_knobs(), tensor_parallel_knobs())
