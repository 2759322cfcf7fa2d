"""Hypothesis strategies for pasted config.json shapes: ordinary, at the edges of the plausible
ranges, and just past them, as a hostile link could carry them."""

from __future__ import annotations

from hypothesis import strategies as st

from core.catalog.config_fields import SPANS


def edgy(low: int, high: int) -> st.SearchStrategy[int]:
    """Whole numbers in ``low``..``high``, often its ends, and one time in twenty just past them."""
    inside = st.one_of(
        st.integers(low, high), st.sampled_from([low, high]), st.integers(low, min(high, 64))
    )
    past = st.sampled_from([high + 1, max(low - 1, 0)])
    return st.integers(0, 19).flatmap(lambda roll: past if roll == 0 else inside)


def field(name: str) -> st.SearchStrategy[int]:
    """A value for config field ``name`` around its plausible range."""
    span = SPANS[name]
    return edgy(span.low, span.high)


MODEL_TYPES = ["llama", "mistral", "qwen3_moe", "deepseek_v3", "gpt_oss", "gpt2", "llama4_text"]


@st.composite
def attention_fields(draw) -> dict:
    """Layers, widths, heads (GQA, MQA or MLA) and vocabulary."""
    heads = draw(field("num_attention_heads"))
    data = {
        "model_type": draw(st.sampled_from(MODEL_TYPES)),
        "num_hidden_layers": draw(field("num_hidden_layers")),
        "hidden_size": draw(field("hidden_size")),
        "num_attention_heads": heads,
        "vocab_size": draw(field("vocab_size")),
        "intermediate_size": draw(field("intermediate_size")),
        "tie_word_embeddings": draw(st.booleans()),
        "attention_bias": draw(st.booleans()),
    }
    grouping = draw(st.sampled_from(["mha", "gqa", "mqa", "mla"]))
    if grouping == "gqa":
        data["num_key_value_heads"] = draw(st.sampled_from([1, 2, 4, 8, heads, heads + 1]))
    elif grouping == "mqa":
        data["multi_query"] = True
    elif grouping == "mla":
        data |= {"kv_lora_rank": draw(field("kv_lora_rank")),
                 "qk_rope_head_dim": draw(field("qk_rope_head_dim")),
                 "q_lora_rank": draw(st.one_of(st.just(0), field("q_lora_rank")))}  # fmt: skip
    if draw(st.booleans()):
        data["head_dim"] = draw(field("head_dim"))
    return data


@st.composite
def pasted_configs(draw) -> dict:
    """A decoder-only config.json as a dict: dense or a mixture, with or without windows."""
    data = draw(attention_fields())
    if draw(st.booleans()):
        experts = draw(field("num_local_experts"))
        data |= {"num_local_experts": experts,
                 "num_experts_per_tok": draw(st.sampled_from([1, 2, 8, experts - 1, experts])),
                 "moe_intermediate_size": draw(field("moe_intermediate_size")),
                 "n_shared_experts": draw(st.sampled_from([0, 1, 2])),
                 "first_k_dense_replace": draw(st.sampled_from([0, 1, 3]))}  # fmt: skip
    window = draw(st.sampled_from(["none", "all", "pattern", "types"]))
    if window != "none":
        data["sliding_window"] = draw(field("sliding_window"))
    if window == "pattern":
        data["sliding_window_pattern"] = draw(st.integers(0, 8))
    elif window == "types":
        period = draw(st.integers(1, 6))  # every period-th layer attends to the whole context
        data["layer_types"] = [
            "full_attention" if (i + 1) % period == 0 else "sliding_attention"
            for i in range(data["num_hidden_layers"])
        ]
    return data
