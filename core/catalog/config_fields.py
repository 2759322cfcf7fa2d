"""One field of a pasted config.json, read as what it is and within what published models span.

A config is text from anywhere, so every field :mod:`core.catalog.config_json` reads is
checked twice: for its JSON type (a count is a number, not ``true`` or ``"16"``; a flag is
``true`` or ``false``, not ``"false"``, which Python would read as true) and against a
plausible range. The ranges cover every published decoder-only model with room to spare, so
an absurd but well-formed config (``"hidden_size": 1e9``, 100,000,000 layers) is refused,
naming the field and its range, before any work is done on it.

Plausible ranges, and the published extremes they were set from
-----------------------------------------------------------------
==========================  ==================  =============================================
field                       range               largest published (config.json)
==========================  ==================  =============================================
layers                      1 to 1,024          126 (Llama 3.1 405B), 96 (GPT-3 175B)
hidden size                 64 to 65,536        16,384 (Llama 3.1 405B); tiny models use 64
query heads                 1 to 1,024          128 (Llama 3.1 405B, DeepSeek-V3)
KV heads                    1 to the query      8 for most GQA models; as many as the query
                            heads               heads for MHA
head dimension              8 to 1,024          256 (Gemma, Gemma 2 and 3); 64 in gpt-oss
MLP / expert width          1 to 262,144        53,248 (Llama 3.1 405B); 768 (Qwen3 experts)
vocabulary                  1 to 4,000,000      262,208 (Gemma 3); 256 for byte-level models
experts                     0 to 4,096          384 (Kimi K2), 256 (DeepSeek-V3)
experts per token           1 to experts - 1    8 (DeepSeek-V3, Qwen3); all of them is dense
shared experts              0 to 64             2 (DeepSeek-V2-Lite, Qwen2-MoE), 1 (V3)
latent (KV LoRA) rank       0 to 16,384         512 (DeepSeek-V2, V3 and Kimi K2)
query LoRA rank             0 to 65,536         1,536 (DeepSeek-V3)
rotary / value head dims    0 to 1,024          64 rotary, 128 value (DeepSeek-V3)
sliding window              0 to 16,777,216     262,144 (Phi-3 128k), 4,096 (Mistral 7B)
layer steps and counts      0 to the layers     first_k_dense_replace 3 (DeepSeek-V3)
hybrid heads and groups     1 to 4,096          256 Mamba heads (Nemotron-H 56B)
hybrid head and state dims  1 to 4,096          256 SSM state (Nemotron-H 56B)
convolution widths          1 to 64             4 (Mamba, Gated DeltaNet)
sparse attention top-k      0 to 1,048,576      2,048 (DeepSeek-V3.2)
indexer heads and dims      0 to 4,096          64 heads of 128 (DeepSeek-V3.2)
parameters, counted         up to 100 trillion  about 1 trillion (Kimi K2)
==========================  ==================  =============================================

Messages speak to the student: "the pasted config.json's 'hidden_size' is 1e+09: ...".
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass

KNOB = "model_config"
# Text shown from a config in a message: longer values are cut, so a 100,000-character
# field gives a one-line error, not a 100 kB one.
SHOWN_CHARS = 40
MAX_NAME_CHARS = 48  # a model's name as the labs print it
MOST_PARAMS = 100e12  # counted parameters, about 100 times the largest published model


class ConfigError(ValueError):
    """A pasted config.json that cannot be used, and why, in words for the student.

    ``message`` is the sentence a page shows beside the config box; ``str(error)`` prefixes
    it with the knob, ``model_config``, as a link's notice lists it.
    """

    def __init__(self, message: str):
        self.message = message
        self.knob = KNOB
        super().__init__(f"{KNOB}: {message}")


@dataclass(frozen=True)
class Span:
    """The plausible range of one kind of field, and the published extreme it was set from."""

    low: int
    high: int
    widest: str

    def text(self, high: int | None = None) -> str:
        return f"{self.low:,} to {self.high if high is None else high:,}"


# The names configs use for the four fields every config must state.
ALIASES = {
    "layers": ("num_hidden_layers", "n_layer", "n_layers", "num_layers"),
    "hidden": ("hidden_size", "n_embd", "d_model"),
    "heads": ("num_attention_heads", "n_head", "num_heads"),
    "vocab": ("vocab_size",),
}
_SPANS = (
    (("num_hidden_layers", "n_layer", "n_layers", "num_layers"), Span(1, 1024, "126 (Llama 3.1 405B)")),
    (("hidden_size", "n_embd", "d_model"), Span(64, 65_536, "16,384 (Llama 3.1 405B)")),
    (("num_attention_heads", "n_head", "num_heads"), Span(1, 1024, "128 (Llama 3.1 405B, DeepSeek-V3)")),
    (("num_key_value_heads",), Span(1, 1024, "128 (DeepSeek-V3); most GQA models use 8")),
    (("head_dim",), Span(8, 1024, "256 (Gemma)")),
    (("intermediate_size", "intermediate_size_mlp", "n_inner", "ffn_dim", "moe_intermediate_size",
      "shared_expert_intermediate_size"), Span(1, 262_144, "53,248 (Llama 3.1 405B)")),
    (("vocab_size",), Span(1, 4_000_000, "262,208 (Gemma 3)")),
    (("num_local_experts", "num_experts", "n_routed_experts"), Span(0, 4096, "384 (Kimi K2)")),
    (("num_experts_per_tok", "experts_per_token"), Span(1, 4095, "8 (DeepSeek-V3, Qwen3)")),
    (("n_shared_experts",), Span(0, 64, "2 (DeepSeek-V2-Lite)")),
    (("kv_lora_rank",), Span(0, 16_384, "512 (DeepSeek-V3)")),
    (("q_lora_rank",), Span(0, 65_536, "1,536 (DeepSeek-V3)")),
    (("qk_rope_head_dim",), Span(0, 1024, "64 (DeepSeek-V3)")),
    (("qk_nope_head_dim", "v_head_dim"), Span(1, 1024, "128 (DeepSeek-V3)")),
    (("sliding_window", "attention_chunk_size"), Span(0, 16_777_216, "262,144 (Phi-3 128k)")),
    (("first_k_dense_replace", "moe_layer_freq", "decoder_sparse_step", "interleave_moe_layer_step",
      "sliding_window_pattern", "mlp_only_layers"), Span(0, 1024, "3 (DeepSeek-V3's dense layers)")),
    (("full_attention_interval", "attn_layer_period", "attn_layer_offset", "expert_layer_period",
      "expert_layer_offset"),
     Span(0, 1024, "8 (Jamba's attention period)")),
    (("linear_num_key_heads", "linear_num_value_heads", "mamba_num_heads", "n_groups"),
     Span(1, 4096, "256 (Nemotron-H 56B's Mamba heads)")),
    (("linear_key_head_dim", "linear_value_head_dim", "mamba_head_dim", "ssm_state_size",
      "mamba_d_state", "attention_head_dim"), Span(1, 4096, "256 (Nemotron-H 56B's SSM state)")),
    (("index_topk",), Span(0, 1_048_576, "2,048 (DeepSeek-V3.2)")),
    (("index_head_dim", "index_n_heads"), Span(0, 4096, "128 dims, 64 heads (DeepSeek-V3.2)")),
    (("linear_conv_kernel_dim", "conv_kernel", "mamba_d_conv", "mamba_expand", "expand"),
     Span(1, 64, "4 (every published Mamba and Gated DeltaNet)")),
)  # fmt: skip
SPANS = {name: span for names, span in _SPANS for name in names}


def error(predicate: str) -> ConfigError:
    """A :class:`ConfigError` saying ``predicate`` of the pasted config ("is empty: ...").

    A predicate starting with "'s " speaks of one of its fields: "'s 'hidden_size' is ...".
    """
    joiner = "" if predicate.startswith("'s ") else " "
    return ConfigError(f"the pasted config.json{joiner}{predicate}")


def shown(value) -> str:
    """``value`` as the config wrote it (JSON), cut to a few dozen characters."""
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=True)
    except (TypeError, ValueError):
        text = repr(value)
    if len(text) <= SHOWN_CHARS:
        return text
    return f"{text[: SHOWN_CHARS - 1]}\u2026 ({len(text):,} characters)"


def _field(name: str) -> str:
    return f"'s '{name}'"


def whole(name: str, value, high: int | None = None, low: int | None = None) -> int:
    """``value`` of field ``name`` as a whole number within its plausible range.

    ``high`` and ``low`` narrow the range where it depends on other fields (KV heads at most
    the query heads, experts per token fewer than the experts).

    Raises
    ------
    ConfigError
        Naming the field, what it is, and the range it must lie in.
    """
    span = SPANS[name]
    low = span.low if low is None else low
    high = span.high if high is None else min(high, span.high)
    allowed = f"{low:,} to {high:,}"
    number = isinstance(value, int | float) and not isinstance(value, bool)
    if isinstance(value, int) and number and not -(10**18) < value < 10**18:
        # Past any float (or past Python's digit limit for text): named by its size alone.
        digits = len(f"{abs(value):x}") * 4 * 0.30103  # decimal digits, without making text
        raise error(
            f"{_field(name)} is a number of about {digits:,.0f} digits: it must be {allowed}"
        )
    if not number or not math.isfinite(value) or value != int(value):
        raise error(f"{_field(name)} is {shown(value)}: it must be a whole number, {allowed}")
    if not low <= value <= high:
        widest = "" if high < span.high else f"; the largest published is {span.widest}"
        raise error(f"{_field(name)} is {int(value):,}: it must be {allowed}{widest}")
    return int(value)


def found(data: dict, what: str) -> tuple[str, object] | None:
    """(field name, value) of the first of ``what``'s names (:data:`ALIASES`) the config states."""
    for name in ALIASES[what]:
        if data.get(name) is not None:
            return name, data[name]
    return None


def required(data: dict, what: str) -> int:
    """One of the four fields every config states, as :func:`whole`; missing is refused."""
    stated = found(data, what)
    if stated is None:
        names = " or ".join(f"'{name}'" for name in ALIASES[what][:2])
        raise error(f"has no {names}: a config needs the field")
    return whole(*stated)


def first_width(data: dict, names: tuple[str, ...]) -> int | None:
    """The first of ``names`` the config states (0 counts as not stated), as a whole number."""
    for name in names:
        value = data.get(name)
        if value is not None and (isinstance(value, bool) or value != 0):
            return whole(name, value)
    return None


def optional(data: dict, name: str, default: int = 0, high: int | None = None, low=None) -> int:
    """Field ``name`` as :func:`whole`, or ``default`` when the config leaves it out (or null)."""
    value = data.get(name)
    return default if value is None else whole(name, value, high, low)


def flag(data: dict, name: str, default: bool = False) -> bool:
    """A true-or-false field; text such as ``"false"`` is refused, never read as true."""
    value = data.get(name)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise error(f"{_field(name)} is {shown(value)}: it must be true or false")
    return value


def text(data: dict, name: str) -> str:
    """A text field ('' when left out); a number or a list is refused."""
    value = data.get(name)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise error(f"{_field(name)} is {shown(value)}: it must be text in quotes")
    return value


def items(data: dict, name: str, kind: type, length: int | None = None) -> list:
    """A list field whose every item is ``kind`` ([] when left out).

    A list that names layers at all (``length`` given, the list not empty) names every one.
    """
    value = data.get(name)
    if value is None:
        return []
    what = "text" if kind is str else "whole numbers" if kind is int else "true or false"
    good = isinstance(value, list) and all(
        isinstance(item, kind) and (kind is bool or not isinstance(item, bool)) for item in value
    )
    if not good:
        raise error(f"{_field(name)} is {shown(value)}: it must be a list of {what}")
    if value and length is not None and len(value) != length:
        raise error(
            f"{_field(name)} lists {len(value):,} layers: it must list one for each of the "
            f"{length:,} layers"
        )
    return value


def model_name(data: dict, model_type: str) -> str:
    """The name a pasted model is shown by: its checkpoint's name, printable and short."""
    name = text(data, "_name_or_path") or model_type or "pasted model"
    name = "".join(char for char in name.split("/")[-1] if char.isprintable()).strip()
    if len(name) > MAX_NAME_CHARS:
        name = name[: MAX_NAME_CHARS - 1] + "\u2026"
    return name or "pasted model"


def check_params(total: float) -> None:
    """Refuse a config whose dimensions multiply to more parameters than any plausible model."""
    if total > MOST_PARAMS:
        raise error(
            f"describes {total / 1e12:,.0f} trillion parameters: it must be at most "
            f"{MOST_PARAMS / 1e12:,.0f} trillion; the largest published have about 1 trillion"
        )
