"""From a results file's run to the set-up the model evaluates: model, card, storage, engine.

A file names its model as the server knew it (``meta-llama/Llama-3.1-8B-Instruct``);
:func:`match_model` finds the catalog model of the same shape. What a file does not state
(the card, usually the storage, sometimes the model) the student chooses, and
:func:`match_setup` marks each such knob as chosen or guessed so the page can say so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.catalog import MODELS
from core.catalog.config_json import custom_shape
from core.evidence.measured.record import BenchmarkRun

# Patterns over the lower-case name without its organisation, first match wins; each names
# the catalog model of the same dimensions (Llama 3.1 and 3.3 keep Llama 3's shapes,
# Qwen2.5 Qwen2's; DeepSeek's R1 distillations keep their base model's).
MODEL_PATTERNS = (
    (r"r1-distill-llama-8b", "Llama-3-8B"),
    (r"r1-distill-llama-70b", "Llama-3-70B"),
    (r"r1-distill-qwen-7b", "Qwen2-7B"),
    (r"gpt-oss-120b", "gpt-oss-120b"),
    (r"gpt-oss-20b", "gpt-oss-20b"),
    (r"deepseek-r1(?!-distill)", "DeepSeek-R1"),
    (r"deepseek-v3", "DeepSeek-V3"),
    (r"kimi-k2", "Kimi-K2"),
    (r"qwen3-235b-a22b", "Qwen3-235B-A22B"),
    (r"qwen3-30b-a3b", "Qwen3-30B-A3B"),
    (r"llama-4-scout", "Llama-4-Scout"),
    (r"llama-4-maverick", "Llama-4-Maverick"),
    (r"mixtral-8x7b", "Mixtral-8x7B"),
    (r"llama-?3(\.\d)?-8b", "Llama-3-8B"),
    (r"llama-?3(\.\d)?-70b", "Llama-3-70B"),
    (r"llama-2-7b", "Llama-2-7B"),
    (r"llama-2-13b", "Llama-2-13B"),
    (r"llama-2-70b", "Llama-2-70B"),
    (r"mistral-7b", "Mistral-7B"),
    (r"qwen2(\.5)?-7b", "Qwen2-7B"),
    (r"qwen2(\.5)?-72b", "Qwen2-72B"),
)
# Storage a checkpoint's name announces
WEIGHT_HINTS = (
    (r"nvfp4", "nvfp4"),
    (r"mxfp4", "mxfp4"),
    (r"fp8|w8a8", "fp8"),
    (r"awq|gptq|int4|w4a16", "int4"),
)
# A server's backend as the tools write it -> the Scenario's engine
ENGINE_HINTS = (("sglang", "sglang"), ("vllm", "vllm"), ("trt", "tensorrt-llm"),
                ("tensorrt", "tensorrt-llm"))  # fmt: skip
TOOL_ENGINES = {"vLLM bench serve": "vllm", "SGLang bench_serving": "sglang"}
ENGINE_NAMES = {"vllm": "vLLM", "sglang": "SGLang", "tensorrt-llm": "TensorRT-LLM"}


def _bare(name: str) -> str:
    return name.strip().lower().rsplit("/", 1)[-1].replace("_", "-").replace(" ", "-")


def match_model(name: str) -> str | None:
    """The catalog model whose shape ``name`` has, or None when the catalog knows no such model."""
    bare = _bare(name)
    if not bare:
        return None
    for key in MODELS:
        if bare == key.lower():
            return key
    for pattern, key in MODEL_PATTERNS:
        if re.search(pattern, bare):
            return key
    return None


def weight_hint(name: str) -> str:
    """The weight storage a checkpoint's name announces, or ''."""
    bare = _bare(name)
    return next((dtype for pattern, dtype in WEIGHT_HINTS if re.search(pattern, bare)), "")


def engine_hint(run: BenchmarkRun) -> str:
    """The engine a run's file names as its backend, or ''."""
    backend = run.engine.lower()
    return next((engine for hint, engine in ENGINE_HINTS if hint in backend), "")


@dataclass(frozen=True)
class Choice:
    """What the student sets for runs whose files do not say: '' or None means 'as the file says'.

    ``model`` (a catalog key, or 'custom' with ``config``) is used only for runs whose model the
    catalog does not know; the rest apply to every run unless its file states them.
    """

    gpu: str = "H100 SXM"
    cards: int | None = None
    weights: str = ""
    cache: str = ""
    engine: str = ""
    model: str = ""
    config: str = ""
    users: int | None = None  # closed-loop users for runs whose file states no load


@dataclass(frozen=True)
class Setup:
    """The set-up a run is evaluated on, with where each knob came from."""

    model: str  # a catalog key or 'custom'
    config: str  # the pasted config.json when model is 'custom'
    gpu: str
    cards: int
    weights: str
    cache: str
    engine: str  # a key of ENGINE_NAMES
    users: int | None  # the chosen closed-loop users where the file states no load
    origin: dict  # knob -> "from the file", "matched by name", "chosen" or "guessed"

    @property
    def guessed(self) -> list[str]:
        """The knobs the file did not state."""
        return [knob for knob, how in self.origin.items() if how in ("chosen", "guessed")]


def match_setup(run: BenchmarkRun, choice: Choice) -> Setup | None:
    """The set-up of ``run``; None when its model is unknown and the student has named none."""
    found = match_model(run.model)
    origin = {}
    if found is not None:
        model, config = found, ""
        origin["model"] = "matched by name"
    elif choice.model in MODELS or (choice.model == "custom" and choice.config):
        model, config = choice.model, choice.config if choice.model == "custom" else ""
        origin["model"] = "chosen"
    else:
        return None
    shape = MODELS[model] if model in MODELS else custom_shape(config)
    hinted = weight_hint(run.model) or run.weights
    weights = choice.weights or hinted or shape.checkpoint_dtype
    origin["weights"] = "chosen" if choice.weights else "from the file" if hinted else "guessed"
    cache = choice.cache or run.cache or "bf16"
    origin["cache"] = "chosen" if choice.cache else "from the file" if run.cache else "guessed"
    gpu = run.card or choice.gpu
    origin["gpu"] = "from the file" if run.card else "chosen"
    cards = choice.cards or shape.cards
    origin["cards"] = "chosen" if choice.cards else "guessed"
    hint = engine_hint(run)
    engine = choice.engine or hint or TOOL_ENGINES.get(run.tool, "vllm")  # the tool's own engine
    origin["engine"] = "chosen" if choice.engine else "from the file" if hint else "guessed"
    stated = run.concurrency or run.request_rate is not None or run.requests
    users = None if stated else choice.users
    origin["load"] = "from the file" if stated else "chosen" if users else "guessed"
    return Setup(model, config, gpu, int(cards), weights, cache, engine, users, origin)
