"""Practice problems on today's models: a latent-attention cache, the weights a mixture of experts reads."""

from __future__ import annotations

import numpy as np

from core.catalog import BYTES_PER_NUMBER, GPUS, MODELS
from core.evaluate import evaluate
from core.foundation import numbers
from core.foundation.units import number_text
from core.practice import draws
from core.practice import wording as say
from core.practice.memory_problems import every_layer
from core.practice.problems import Step, Trap
from core.whiteboard import attention, memory
from core.whiteboard import experts as moe
from core.whiteboard.experts import expert_weight_bytes_read

# The catalog's models with multi-head latent attention, and its mixtures of experts.
MLA_MODELS = {name: shape for name, shape in MODELS.items() if shape.attention == "MLA"}
MOE_MODELS = {name: shape for name, shape in MODELS.items() if shape.is_moe}
DECODE_BATCHES = (2, 4, 8, 16, 32, 64, 128, 256)
# A batch that touches almost no extra expert, or nearly all of them, makes a trap the answer.
_TOUCHED_SHARE = (0.05, 0.95)


def _number(params: float) -> str:
    return number_text(params / 1e9, 4)


def _billions(params: float) -> str:
    return f"{_number(params)} billion"


def mla_kv_bytes(rng) -> dict:
    if rng is None:
        name, dtype = "DeepSeek-V3", "bf16"
    else:
        name, dtype = draws.pick(rng, MLA_MODELS), draws.pick(rng, draws.DTYPES)
    shape = MLA_MODELS[name]
    knobs = {"model": name, "kv_dtype": dtype}
    size = BYTES_PER_NUMBER[dtype]
    layers, rank, rope = shape.layers, shape.kv_lora_rank, shape.qk_rope_head_dim
    cached_numbers = float(
        attention.kv_numbers_per_layer(shape.kv_heads, shape.head_dim, rank, rope)
    )
    per_layer = float(attention.kv_bytes_per_token(1, cached_numbers, size, 1))
    total = float(evaluate(**knobs).kv_bytes_per_token)
    per_head = float(attention.kv_numbers_per_layer(shape.query_heads, shape.head_dim))
    traps = [
        Trap(float(attention.kv_bytes_per_token(layers, per_head, size, 1)),
             "That is the key-and-value-per-head formula (MHA/GQA). Latent attention caches no "
             "per-head keys or values: one latent and one rotary key per layer, shared by all heads."),
        Trap(total * 8, "That counts bits. Divide by 8: the question asks for bytes."),
        Trap(per_layer, f"That is one layer. The model has {layers} of them, each with its own latent."),
        Trap(float(attention.kv_bytes_per_token(layers, rank, size, 1)),
             f"That leaves out the rotary key: each layer also caches {rope} numbers of "
             "position-carrying key beside the latent."),
    ]  # fmt: skip
    if dtype == "fp8":
        traps.append(Trap(total * 2, "That is the bf16 figure; fp8 stores each number in 1 byte."))
    return {
        "question": f"{name} uses multi-head latent attention: each layer caches one compressed "
        "latent per token, from which keys and values are rebuilt. How many bytes of KV cache "
        "does one token of one running sequence occupy?",
        "givens": (
            (
                "model",
                f"{name}: {layers} layers, {shape.query_heads} attention heads, head dim "
                f"{shape.head_dim}",
            ),
            ("latent per layer", f"{rank} numbers (kv_lora_rank)"),
            ("rotary key per layer", f"{rope} numbers (qk_rope_head_dim), shared by all heads"),
            ("KV cache stored in", say.dtype(dtype, "number")),
        ),
        "hint": "Nothing is cached per head. Each layer keeps the latent and the rotary key; "
        "count their numbers, their bytes, then multiply by the layers.",
        "steps": (
            Step(
                "One layer caches the latent and the rotary key, not a key and value per head",
                "kv_lora_rank + qk_rope_head_dim",
                f"{rank} + {rope}",
                cached_numbers,
                f"{number_text(cached_numbers)} numbers",
            ),
            Step(
                "Their bytes in one layer",
                "numbers \u00d7 bytes per number",
                f"{number_text(cached_numbers)} \u00d7 {size} B",
                per_layer,
                numbers.size(per_layer),
            ),
            every_layer(per_layer, layers, total),
        ),
        "traps": traps,
        "knobs": knobs,
    }


def moe_parts(name: str, batch: float) -> dict:
    """One expert's and the shared parameters, and the experts a batch touches, as core counts them."""
    shape = MOE_MODELS[name]
    experts, per_token = shape.experts, shape.experts_per_token
    per_expert = (shape.params - shape.active_params) / (experts - per_token)
    touched = float(moe.distinct_experts(experts, per_token, batch))
    shared = shape.params - experts * per_expert
    return {"per_expert": per_expert, "shared": shared, "touched": touched,
            "read": shared + touched * per_expert}  # fmt: skip


def _moe_knobs(drawn: dict) -> dict:
    # Every seat asked for is granted (a one-token seat), so the step runs the drawn batch.
    return {"model": drawn["name"], "gpu": drawn["gpu"], "cards": drawn["cards"],
            "weight_dtype": drawn["weight_dtype"], "seats": drawn["batch"],
            "prompt_tokens": 1, "answer_tokens": 0}  # fmt: skip


# The walkthrough's own numbers (seed 0): DeepSeek-V3 on its usual node.
MOE_CLASSIC = {"name": "DeepSeek-V3", "gpu": "H200", "cards": 8, "weight_dtype": "fp8",
               "batch": 16}  # fmt: skip


def _draw_moe(rng) -> dict | None:
    """A mixture, node and batch that touches some but not nearly all experts; None to redraw."""
    name = draws.pick(rng, MOE_MODELS)
    shape = MOE_MODELS[name]
    gpu, weight_dtype = draws.pick(rng, GPUS), draws.pick(rng, draws.DTYPES)
    cards = draws.cards_for(shape, gpu, weight_dtype)
    batch = draws.pick(rng, DECODE_BATCHES)
    share = touched_share(name, batch)
    if cards is None or not _TOUCHED_SHARE[0] <= share <= _TOUCHED_SHARE[1]:
        return None
    drawn = {"name": name, "gpu": gpu, "cards": cards, "weight_dtype": weight_dtype,
             "batch": batch}  # fmt: skip
    return drawn if evaluate(**_moe_knobs(drawn)).seats_granted == batch else None


def moe_weight_read(rng) -> dict:
    """The weights one decode step reads: the shared ones and the distinct experts its batch touches."""
    drawn = draws.classic_or_draw(rng, MOE_CLASSIC, _draw_moe)
    name, batch = drawn["name"], drawn["batch"]
    shape = MOE_MODELS[name]
    knobs = _moe_knobs(drawn)
    experts, k = shape.experts, shape.experts_per_token
    read = float(evaluate(**knobs).weight_bytes_read)
    return {
        "question": f"One decode step of {name} advances a batch of {batch} requests by one "
        "token each. How many bytes of weights does the step read from memory?",
        "givens": (
            ("model", f"{name}: {experts} experts per layer, {k} routed to each token"),
            (
                "parameters",
                f"{_billions(shape.params)} in all, {_billions(shape.active_params)} "
                "active per token (the shared weights plus its experts)",
            ),
            ("weights stored in", say.dtype(drawn["weight_dtype"], "parameter")),
            ("batch", f"{numbers.plural(batch, 'request', figures=4)}, one token each"),
            ("routing", f"each token picks its {k} of {experts} experts independently and evenly"),
        ),
        "hint": "Work out one expert's parameters from total minus active. Each expert escapes "
        "one token with chance 1 \u2212 k/E; count the distinct experts a batch touches in a "
        "layer, and read those plus the shared weights.",
        "steps": _moe_steps(drawn, read),
        "traps": _moe_traps(drawn),
        "knobs": knobs,
    }


def _moe_steps(drawn: dict, read: float) -> tuple[Step, ...]:
    """One expert, the shared parameters, the experts touched, the parameters read, their bytes."""
    shape = MOE_MODELS[drawn["name"]]
    experts, k, batch = shape.experts, shape.experts_per_token, drawn["batch"]
    size = BYTES_PER_NUMBER[drawn["weight_dtype"]]
    parts = moe_parts(drawn["name"], batch)
    per_expert, shared, touched = parts["per_expert"], parts["shared"], parts["touched"]
    return (
        Step(
            "One expert's parameters (over all layers): the weights a token skips, per "
            "expert skipped",
            "(total \u2212 active) / (E \u2212 k)",
            f"({_number(shape.params)} \u2212 {_number(shape.active_params)}) billion / "
            f"({experts} \u2212 {k})",
            per_expert,
            _billions(per_expert),
        ),
        Step(
            "Shared parameters (attention, embeddings, routers, any shared expert): every "
            "step reads them",
            "total \u2212 E \u00d7 one expert",
            f"{_billions(shape.params)} \u2212 {experts} \u00d7 {_billions(per_expert)}",
            shared,
            _billions(shared),
        ),
        Step(
            "Distinct experts per layer the batch touches",
            "E \u00d7 (1 \u2212 (1 \u2212 k/E)^B)",
            f"{experts} \u00d7 (1 \u2212 (1 \u2212 {k}/{experts})^{batch})",
            touched,
            f"{number_text(touched, 4)} of {experts} experts",
        ),
        Step(
            "Parameters the step reads: the shared ones and the touched experts",
            "shared + touched \u00d7 one expert",
            f"{_billions(shared)} + {number_text(touched, 4)} \u00d7 {_billions(per_expert)}",
            parts["read"],
            _billions(parts["read"]),
        ),
        Step(
            "Their bytes",
            "parameters read \u00d7 bytes per parameter",
            f"{_billions(parts['read'])} \u00d7 {size} B",
            read,
            numbers.size(read),
        ),
    )


def _moe_traps(drawn: dict) -> list[Trap]:
    """Every expert read, one token's share, each token read apart, no two tokens overlapping."""
    shape = MOE_MODELS[drawn["name"]]
    experts, k, batch = shape.experts, shape.experts_per_token, drawn["batch"]
    size = BYTES_PER_NUMBER[drawn["weight_dtype"]]
    parts = moe_parts(drawn["name"], batch)
    weights = memory.weight_bytes(shape.params, size)
    one_token = float(
        expert_weight_bytes_read(weights, shape.params, shape.active_params, experts, k, 1.0)
    )
    no_overlap = (parts["shared"] + min(k * batch, experts) * parts["per_expert"]) * size
    return [
        Trap(weights, "That reads every expert, as a dense model of the same size would. A "
             "step reads only the experts its batch routes to."),
        Trap(one_token, f"That is one token's share: the shared weights and {k} expert"
             f"{'s' if k != 1 else ''}. {batch} tokens route to different experts, so the step "
             "reads more."),
        Trap(shape.active_params * batch * size, "That reads each token's active weights "
             "separately. Tokens share one read of each weight: count distinct experts, not "
             "tokens."),
        Trap(no_overlap, f"That assumes no two tokens pick the same expert. With {batch} tokens "
             f"choosing {k} of {experts} each, many picks coincide: use E(1 \u2212 (1 \u2212 k/E)^B)."),
    ]  # fmt: skip


def touched_share(name: str, batch) -> np.ndarray:
    """Of the experts a token skips, the share a batch of ``batch`` touches anyway."""
    shape = MOE_MODELS[name]
    k = shape.experts_per_token
    return (moe.distinct_experts(shape.experts, k, batch) - k) / (shape.experts - k)
