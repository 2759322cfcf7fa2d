"""The pool lab's famous failures. Each loads knobs onto the defaults; ``fix`` is one way out.

Stories name knob values only; figures the model computes are filled in from the preset's
own evaluation through ``{placeholders}`` (see ``labs.pool.details.story_figures``).
"""

from dataclasses import replace

from core import KNOBS
from core.catalog import DEFAULT_GPU
from labs.widgets.presets import Keep, Preset

# Promises the goals share: which model runs, on which traffic, at which price, on how much
# hardware. ``model_class``, ``nodes`` and ``node_cards`` are figures the lab reports beside
# its knobs: the exact Llama-3-70B is the 70B tier's model (core.catalog.tier_match).
MODEL_KNOBS = ("tier", "model", "model_config")
THE_70B = (Keep("model_class", "large", "the 70B model", covers=MODEL_KNOBS),)
THE_8B = (Keep("model_class", "small", "the one-card 8B model", covers=MODEL_KNOBS),)


# What overrides a workload's arrivals and answers, or drives the pool as a benchmark instead.
LOAD_OVERRIDES = ("answer_tokens", "arrivals_per_min", "concurrency", "run_requests", "batch_limit")


def traffic(workload: str, says: str) -> tuple[Keep, ...]:
    """The traffic a goal keeps: the workload and whatever overrides its arrivals and answers."""
    return (
        Keep("workload", workload, says),
        *(Keep(name, None, says) for name in LOAD_OVERRIDES),
        Keep("traffic", "poisson", says),
        Keep("burstiness", 1.0, says),
    )


CHAT = traffic("chat", "the chat traffic")
DOCUMENTS = traffic("document analysis", "the document-analysis traffic")
PRICE = (Keep("usd_per_gpu_hour", None, "the catalog's card price"),)
# A node count is a figure; the replicas knob is how a student buys more of them.
ONE_NODE = Keep("nodes", 1, "a single node", "at most", ("replicas",))
# The card and its count; a card typed by hand is another card.
CARD_KNOBS = ("gpu", "card_memory_gb", "card_tb_per_s", "card_tflops")
_OWNED = f"the hardware you have (one node of one {DEFAULT_GPU})"
NO_NEW_HARDWARE = (
    Keep("gpu", DEFAULT_GPU, _OWNED, covers=CARD_KNOBS),
    Keep("node_cards", 1, _OWNED, "at most", ("cards",)),
    Keep("nodes", 1, _OWNED, "at most", ("replicas",)),
)
# How the lab models the pool, not what the pool is: every goal leaves these open.
MODELLING = ("realism", "serving_mode", "kv_link", "engine", "engine_version", "layout",
             "memory_share", "recv_interval", "router", "prefix_source", "tpot_slo_s")  # fmt: skip
# Where evicted prefixes wait and how sessions come back: tools a student may always reach for.
SESSIONS = ("kv_offload", "session_turns", "think_time_s", "turn_growth_tokens")
HARDWARE = (*CARD_KNOBS, "cards")
STORAGE = ("weight_dtype", "kv_dtype")

POOL_PRESETS = [
    Preset(
        key="memory-wall",
        title="The memory wall",
        story=(
            "A team moved its document pipeline to the 70B model and, seeing a queue, raised the "
            "batch to 64 seats. Nothing improved. The weights take {weights} of the node, the "
            "8,000-token contexts fill what is left after {granted} seats, and the other {waiting} "
            "requests wait in line without a single error in the logs."
        ),
        goal="keep the 70B model on document analysis and pass all three checks.",
        hint="the seats dial is noise here; shrink what each seat stores, in bytes per number and in tokens.",
        knobs={
            "workload": "document analysis",
            "tier": "large",
            "prompt_tokens": 8000,
            "seats": 64,
        },
        fix={"kv_dtype": "fp8", "prompt_tokens": 4000, "seats": 24},
        keep=(*THE_70B, *DOCUMENTS, *PRICE),
        free=(
            *MODELLING,
            *SESSIONS,
            *HARDWARE,
            *STORAGE,
            "seats",
            "prompt_tokens",
            "prefix_hit_rate",
            "replicas",
        ),
    ),
    Preset(
        key="timestamp",
        title="The timestamp in the preamble",
        story=(
            "A contract-review service sends a 40,000-token shared preamble with every request, "
            "and nearly all of it used to come from the prefix cache. Then someone stamped the "
            "current time into its first line. Every cache block after the stamp changed, the hit "
            "rate fell to zero, and each arrival now prefills the whole preamble: {prefill} of "
            "tensor time before its first token."
        ),
        goal="bring the p95 first token back under 1,200 ms without buying hardware.",
        hint="move the changing value to the end of the prompt, so the blocks before it still match.",
        knobs={
            "workload": "document analysis",
            "prompt_tokens": 40000,
            "prefix_hit_rate": 0.0,
            "kv_dtype": "fp8",
        },
        fix={"prefix_hit_rate": 0.9},
        keep=(
            *THE_8B,
            *DOCUMENTS,
            *PRICE,
            *NO_NEW_HARDWARE,
            Keep("prompt_tokens", 40000, "the 40,000-token preamble", "at least"),
        ),
        free=(*MODELLING, *SESSIONS, *STORAGE, "seats", "prefix_hit_rate"),
    ),
    Preset(
        key="batch-of-one",
        title="The batch of one",
        story=(
            "A prototype served one request at a time because it was simpler. Every decode step "
            "still streams all {weights} of weights for a single token, so the pool needs {nodes} "
            "nodes for chat traffic, and arrivals still queue for {wait} at p95."
        ),
        goal="serve chat from one node, under budget and under the latency target.",
        hint="one weight read can write a token for every seat in the batch.",
        knobs={"seats": 1},
        fix={"seats": 16},
        keep=(*CHAT, *PRICE, ONE_NODE),
        free=(
            *MODELLING,
            *SESSIONS,
            *HARDWARE,
            *STORAGE,
            *MODEL_KNOBS,
            "seats",
            "prompt_tokens",
            "prefix_hit_rate",
        ),
    ),
    Preset(
        key="70b-upgrade",
        title="The 70B upgrade",
        story=(
            "Product asked for the bigger model on the chat traffic. It spans two cards per node, "
            "keeps {weights} of weights, and stores {kv_per_token} of cache per token. The peak "
            "now needs {nodes} nodes at {bill} a month, and even those queue for {wait} at p95."
        ),
        goal="keep the 70B model on chat and fit one node under the $6,500 ceiling with the latency target met.",
        hint="halve the bytes of every cached number, then use the room it frees.",
        knobs={"tier": "large"},
        fix={"kv_dtype": "fp8", "seats": 64},
        keep=(*THE_70B, *CHAT, *PRICE, ONE_NODE),
        free=(
            *MODELLING,
            *SESSIONS,
            *HARDWARE,
            *STORAGE,
            "seats",
            "prompt_tokens",
            "prefix_hit_rate",
        ),
    ),
    Preset(
        key="document-flood",
        title="The long-context document flood",
        story=(
            "A customer began uploading 32,000-token reports. With 64 seats requested, memory "
            "grants only {granted}; those run long, arrivals pile up behind them, and the p95 "
            "first token drifts to {ttft}."
        ),
        goal="carry the 32,000-token documents with every requested seat granted and p95 under 1,200 ms.",
        hint="a cheaper cache number doubles the seats; then ask only for what memory can grant.",
        knobs={"workload": "document analysis", "prompt_tokens": 32000, "seats": 64},
        fix={"kv_dtype": "fp8", "seats": 28},
        keep=(
            *DOCUMENTS,
            *PRICE,
            Keep("prompt_tokens", 32000, "the 32,000-token documents", "at least"),
        ),
        free=(
            *MODELLING,
            *SESSIONS,
            *HARDWARE,
            *STORAGE,
            *MODEL_KNOBS,
            "seats",
            "prefix_hit_rate",
            "replicas",
        ),
    ),
    Preset(
        key="9am-burst",
        title="The 9 a.m. burst",
        story=(
            "A code assistant's pool was sized from the dashboard's hourly average, "
            "{trace_mean} requests a minute. Poisson at that rate, the closed form promises a "
            "p95 first token of {ttft} on {nodes} node. The real hour is not Poisson: its "
            "busiest minute brought {trace_peak} requests and its busiest second "
            "{trace_second}, and the hour replayed on that node misses the target minute after "
            "minute."
        ),
        goal="keep the code service's real hour and bring its replayed p95 under 1,200 ms, "
        "under budget.",
        hint="the average is not the load: give the bursts a second node, and make each "
        "prompt's prefill cheaper.",
        knobs={"traffic": "azure-code", "arrivals_per_min": 154.0},
        fix={"replicas": 2, "weight_dtype": "fp8"},
        keep=(Keep("traffic", "azure-code", "the code service's real hour"), *PRICE),
    ),
    Preset(
        key="agent-rereads",
        title="The agent that re-reads its whole history",
        story=(
            "A coding agent keeps one session for 20 turns, its history grown to 200,000 tokens. "
            "Between turns its tools run for 30 s, and meanwhile the other sessions' contexts push "
            "its prefix out of HBM, which holds only {granted} such seats. So every turn prefills "
            "the whole history again: {prefill} of tensor time, and {ttft} at p95 before the first "
            "token."
        ),
        goal="keep the 200,000-token sessions on one node and bring the p95 first token under 1,200 ms.",
        hint="the history is still worth keeping: give the evicted prefixes somewhere to wait "
        "(offload), then let the hit rate follow what the sessions would reuse.",
        knobs={
            "prompt_tokens": 200_000,
            "prefix_hit_rate": 0.0,
            "seats": 2,
            "arrivals_per_min": 2,
            "session_turns": 20,
            "think_time_s": 30.0,
            "turn_growth_tokens": 2000,
        },
        fix={"kv_offload": "host-pcie", "prefix_hit_rate": 0.95},
        keep=(
            *THE_8B,
            ONE_NODE,
            Keep("prompt_tokens", 200_000, "the 200,000-token history", "at least"),
            # a hit rate typed past what the caches keep is a wish, not a fix (within a point)
            Keep(
                "hit_rate_beyond_sessions",
                0.01,
                "a hit rate the sessions' caches can give",
                "at most",
                ("prefix_hit_rate",),
            ),
        ),
    ),
]


def _leave_the_rest(preset: Preset) -> Preset:
    """``preset`` with every knob its goal does not hold left to the student."""
    held = {name for keep in preset.keep for name in keep.knobs}
    return replace(preset, free=tuple(name for name in KNOBS if name not in held))


# The two newest goals hold only what their stories name (the real hour and its price; the 8B
# model, one node and the 200,000-token history): every other knob is the student's.
POOL_PRESETS = [
    _leave_the_rest(preset) if preset.key in ("9am-burst", "agent-rereads") else preset
    for preset in POOL_PRESETS
]
