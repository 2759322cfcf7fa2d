"""The KV cache calculator's famous failures. ``fix`` is one documented way out.

Stories name knob values only; figures come from the preset's own evaluation through
``{placeholders}`` (see ``labs.kv.lab.story_figures``).
"""

from core.catalog import DEFAULT_GPU
from labs.widgets.presets import Keep, Preset

MODEL_KNOBS = ("tier", "model", "model_config")
CARD_KNOBS = ("gpu", "card_memory_gb", "card_tb_per_s", "card_tflops")


def the_cards(count: int) -> tuple[Keep, ...]:
    """A bigger card, or more of them, is no fix for a cache that outgrows these."""
    says = f"the {DEFAULT_GPU} cards" if count > 1 else f"the one {DEFAULT_GPU} card"
    return (
        Keep("gpu", DEFAULT_GPU, says, covers=CARD_KNOBS),
        Keep("node_cards", count, says, "at most", ("cards",)),
    )


# ``model_class`` is a figure: the exact Llama-3-70B is the 70B tier's model.
THE_70B = (Keep("model_class", "large", "the 70B model", covers=MODEL_KNOBS), *the_cards(2))
THE_8B = (Keep("model_class", "small", "the 8B model", covers=MODEL_KNOBS), *the_cards(1))
# How the lab models the node, and knobs of the pool the calculator does not read (it sets the
# prompt and the seats from its own sequence length and requests): every goal leaves them open.
OPEN = (
    "realism", "serving_mode", "kv_link", "engine", "engine_version", "layout", "workload", "seats",
    "prompt_tokens", "answer_tokens", "prefix_hit_rate", "arrivals_per_min", "concurrency",
    "run_requests", "batch_limit", "memory_share", "recv_interval", "usd_per_gpu_hour", "weight_dtype", "kv_dtype", "traffic",
    "burstiness", "tpot_slo_s", "replicas", "router", "prefix_source", "kv_offload",
    "session_turns", "think_time_s", "turn_growth_tokens",
)  # fmt: skip

KV_PRESETS = [
    Preset(
        key="70b-long-context",
        title="Long-context seats on 70B",
        story=(
            "An agent product moved to the 70B model and kept its 32,000-token working context. "
            "The weights leave {room} of KV room on the two cards, one such sequence holds "
            "{seat}, and memory grants {granted} of the 16 requested seats."
        ),
        goal="grant all 16 requests on the 70B model.",
        hint="both the bytes per cached number and the tokens per seat are on the table.",
        knobs={"tier": "large", "sequence_tokens": 32000, "requests": 16},
        fix={"kv_dtype": "fp8", "sequence_tokens": 6000},
        keep=(*THE_70B, Keep("requests", 16, "all 16 requests", "at least")),
        free=(*OPEN, "sequence_tokens"),
    ),
    Preset(
        key="bf16-cache",
        title="A bf16 cache where fp8 would do",
        story=(
            "A retrieval service runs 16,000-token prompts on the 8B model and asks for 48 seats. "
            "Every cached number is stored in two bytes, so the room holds {room_seats} seats "
            "and {waiting} requests sit in the queue."
        ),
        goal="grant all 48 requests without shortening the prompts.",
        hint="the weights and the answers do not change if only the cache numbers shrink.",
        knobs={"sequence_tokens": 16000, "requests": 48},
        fix={"kv_dtype": "fp8"},
        keep=(
            *THE_8B,
            Keep("requests", 48, "all 48 requests", "at least"),
            Keep("sequence_tokens", 16000, "the 16,000-token prompts", "at least"),
        ),
        free=OPEN,
    ),
    Preset(
        key="million-token-context",
        title="The million-token context",
        story=(
            "A demo promised a one-million-token context on the 8B model. One such sequence "
            "stores {seat} of cache, {outweigh_factor} times the model's own weights, and the "
            "card's room holds {max_sequence} tokens at most: memory grants no seat at all."
        ),
        goal="get one request of at least 100,000 tokens running on this card.",
        hint="find the largest sequence the room holds, then make each token cheaper.",
        knobs={"sequence_tokens": 1_000_000, "requests": 1},
        fix={"kv_dtype": "fp8", "sequence_tokens": 500_000},
        keep=(
            *THE_8B,
            Keep("sequence_tokens", 100_000, "a context of at least 100,000 tokens", "at least"),
        ),
        free=(*OPEN, "requests"),
    ),
]
