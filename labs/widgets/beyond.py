"""What a lab's knobs hold beyond the seed's walkthrough, said in one line for a folded area.

The pool lab opens on the walkthrough's knobs (the workload, the batch, the tier, the request
shape, the cache storage). Everything else (model, card and weights; traffic and the fleet;
memory beyond the card; level of detail, serving mode, engine and layout) sits in one folded
area whose closed header reads what differs from the walkthrough, "real engine · vLLM ·
3 replicas · Azure code hour", or "as the walkthrough" when nothing does.
"""

from __future__ import annotations

from html import escape

from core import KNOBS
from core.catalog.custom import CUSTOM
from labs.page import format as fmt

# The walkthrough's knobs: the seed's workload and its five knobs. Every other knob is beyond.
WALKTHROUGH_KNOBS = ("workload", "seats", "tier", "prompt_tokens", "prefix_hit_rate", "kv_dtype")
# The summary's order: the node, the level, the fleet, the traffic, memory, then the rest.
SUMMARY_ORDER = (
    "model", "gpu", "cards", "weight_dtype", "realism", "engine", "engine_version",
    "serving_mode", "kv_link",
    "layout", "concurrency", "run_requests", "batch_limit", "memory_share", "recv_interval",
    "replicas", "router",
    "prefix_source",
    "traffic", "burstiness", "arrivals_per_min", "answer_tokens", "tpot_slo_s", "kv_offload",
    "session_turns", "think_time_s", "turn_growth_tokens", "usd_per_gpu_hour",
)  # fmt: skip
BEYOND_KNOBS = tuple(
    sorted(
        (knob for knob in KNOBS if knob not in WALKTHROUGH_KNOBS),
        key=lambda knob: SUMMARY_ORDER.index(knob) if knob in SUMMARY_ORDER else len(KNOBS),
    )
)
# The engine level's own knobs: at the whiteboard level they change no figure, so they are
# neither shown nor summarised there.
ENGINE_LEVEL_KNOBS = ("serving_mode", "kv_link", "engine", "engine_version", "layout",
                      "concurrency", "run_requests", "batch_limit", "memory_share",
                      "recv_interval")  # fmt: skip
AS_THE_WALKTHROUGH = "as the walkthrough"

ENGINE_NAMES = {"tensorrt-llm": "TensorRT-LLM", "vllm": "vLLM", "sglang": "SGLang"}
LAYOUT_NAMES = {"tp": "TP", "ep": "TP + EP", "dep": "DEP"}
TRAFFIC_NAMES = {
    "bursty": "bursty traffic",
    "azure-conversation": "Azure chat hour",
    "azure-code": "Azure code hour",
}
OFFLOAD_NAMES = {
    "host-pcie": "KV offload to host (PCIe)",
    "host-c2c": "KV offload to host (C2C)",
    "host-nvme": "KV offload to host and NVMe",
}


def _card_words(scenario) -> str:
    return "my own card" if scenario.gpu == CUSTOM else scenario.gpu


def _phrase(scenario, knob: str) -> str:
    """How the closed header names one knob that left its default."""
    value = getattr(scenario, knob)
    words = {
        "model": lambda: "pasted config.json" if value == CUSTOM else value,
        "gpu": lambda: _card_words(scenario),
        "cards": lambda: fmt.plural(value, "card"),
        "weight_dtype": lambda: f"{value} weights",
        "realism": lambda: "real engine",
        "serving_mode": lambda: value,
        "kv_link": lambda: f"KV over {value}",
        "engine": lambda: ENGINE_NAMES.get(value, value),
        "engine_version": lambda: f"release {value}",
        "layout": lambda: LAYOUT_NAMES.get(value, value),
        "traffic": lambda: TRAFFIC_NAMES.get(value, value),
        "burstiness": lambda: f"burstiness {value:g}",
        "tpot_slo_s": lambda: f"{fmt.duration(value)} per token target",
        "replicas": lambda: fmt.plural(value, "replica"),
        "router": lambda: f"{value} router",
        "prefix_source": lambda: "hit rate derived",
        "arrivals_per_min": lambda: f"{value:,g} arrivals/min",
        "answer_tokens": lambda: f"{fmt.plural(value, 'token')} answers",
        "concurrency": lambda: fmt.plural(value, "closed-loop user"),
        "run_requests": lambda: f"{fmt.plural(value, 'request')} a run",
        "batch_limit": lambda: f"at most {fmt.count(value)} running",
        "memory_share": lambda: f"{fmt.percent(value)} of memory to the engine",
        "recv_interval": lambda: f"SGLang polls every {fmt.plural(value, 'step')}",
        "usd_per_gpu_hour": lambda: f"${value:,.2f} a card-hour",
        "kv_offload": lambda: OFFLOAD_NAMES.get(value, value),
        "session_turns": lambda: f"{fmt.plural(value, 'turn')} a session",
        "think_time_s": lambda: f"{value:g} s between turns",
        "turn_growth_tokens": lambda: f"+{fmt.plural(value, 'token')} a turn",
    }
    return str(words[knob]()) if knob in words else f"{knob.replace('_', ' ')} {value}"


def moved_beyond(scenario) -> list[str]:
    """The knobs beyond the walkthrough that left their defaults and act at this level."""
    engine = scenario.realism == "engine"
    typed_card = scenario.gpu == CUSTOM
    moved = []
    for knob in BEYOND_KNOBS:
        if getattr(scenario, knob) == scenario.param[knob].default:
            continue
        if knob in ENGINE_LEVEL_KNOBS and not engine:
            continue
        if knob.startswith("card_") and not typed_card:  # a typed card's figures: "my own card"
            continue
        if knob == "model_config" or knob.startswith("card_"):  # said by "pasted", "my own card"
            continue
        if knob in ("run_requests", "batch_limit") and scenario.concurrency is None:
            # only a closed loop ends, and only a closed loop runs its command's batch limit
            continue
        moved.append(knob)
    return moved


def beyond_summary(scenario) -> str:
    """One line: what differs from the walkthrough, joined by middle dots, or that nothing does."""
    phrases = [_phrase(scenario, knob) for knob in moved_beyond(scenario)]
    return " \u00b7 ".join(phrases) if phrases else AS_THE_WALKTHROUGH


def summary_html(scenario) -> str:
    """The closed header's summary line."""
    return (
        f'<div class="lab small muted" data-beyond-summary>{escape(beyond_summary(scenario))}</div>'
    )
