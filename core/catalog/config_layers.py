"""Which kind each layer of a pasted config.json is, and the constant state a hybrid layer keeps.

Hybrid models mix layer kinds. Qwen3-Next puts one full-attention layer in every
``full_attention_interval`` (the rest are Gated DeltaNet, a linear attention); Nemotron-H
spells its blocks as a string, ``hybrid_override_pattern`` (``M`` a Mamba-2 layer, ``*``
attention, ``-`` an MLP-only block); Jamba places an attention layer every
``attn_layer_period`` layers from ``attn_layer_offset`` (the rest Mamba); newer configs list
``layer_types`` or ``layers_block_type`` outright. A full-attention layer caches a key and a
value per token; a linear-attention or state-space layer keeps a state whose size does not grow
with the sequence; an MLP-only block keeps nothing.

State per layer per sequence, in numbers
----------------------------------------
Gated DeltaNet (Qwen3-Next): a :math:`d_k \\times d_v` matrix per value head plus the
short convolution's last :math:`k - 1` inputs of the query, key and value channels,

.. math:: n = H_v d_k d_v + (k - 1)(2 H_k d_k + H_v d_v)

Mamba-2 (Nemotron-H): a :math:`d_{head} \\times N` state per head plus the convolution over the
inner channels and the groups' B and C, with :math:`d_{in} = H d_{head}`,

.. math:: n = H d_{head} N + (k - 1)(d_{in} + 2 G N)

Mamba (Jamba): :math:`d_{in} = e\\,d` channels of :math:`N` numbers plus the convolution,
:math:`n = d_{in} N + (k - 1) d_{in}`. These are the tensors vLLM's and SGLang's hybrid caches
allocate per sequence (one per request, not per page).
"""

from __future__ import annotations

from dataclasses import dataclass

from core.catalog.config_fields import error, items, optional, shown, text

FULL, WINDOW, LINEAR, MAMBA, MLP = "full", "window", "linear", "mamba", "mlp"
# the names configs give each kind of layer, in layer_types or layers_block_type
_KIND_NAMES = {
    "full_attention": FULL, "attention": FULL, "global_attention": FULL,
    "sliding_attention": WINDOW, "chunked_attention": WINDOW, "local_attention": WINDOW,
    "linear_attention": LINEAR, "mamba": MAMBA, "mamba2": MAMBA, "mlp": MLP, "moe": MLP,
}  # fmt: skip
# Nemotron-H's pattern letters: Mamba-2, attention, MLP, mixture-of-experts MLP
_PATTERN = {"M": MAMBA, "*": FULL, "-": MLP, "E": MLP}
STATE_KIND = {LINEAR: "linear attention (Gated DeltaNet)", MAMBA: "state-space (Mamba)"}
# fields read here, kept in a link's compact config
KEPT = {
    "layers_block_type", "hybrid_override_pattern", "full_attention_interval",
    "attn_layer_period", "attn_layer_offset", "linear_num_key_heads", "linear_num_value_heads",
    "linear_key_head_dim", "linear_value_head_dim", "linear_conv_kernel_dim", "mamba_num_heads",
    "mamba_head_dim", "ssm_state_size", "n_groups", "conv_kernel", "expand", "mamba_d_state",
    "mamba_d_conv", "mamba_expand", "attention_head_dim", "expert_layer_period",
    "expert_layer_offset",
}  # fmt: skip


@dataclass(frozen=True)
class LayerKinds:
    """How many layers of each kind, and the state one state layer keeps per sequence."""

    kinds: tuple[str, ...]
    state_numbers: float = 0.0

    def count(self, kind: str) -> int:
        return sum(1 for each in self.kinds if each == kind)

    @property
    def state_layers(self) -> int:
        return self.count(LINEAR) + self.count(MAMBA)

    @property
    def state_kind(self) -> str:
        return STATE_KIND[LINEAR] if self.count(LINEAR) else STATE_KIND[MAMBA]

    @property
    def hybrid(self) -> bool:
        return self.state_layers + self.count(MLP) > 0


def _named(names: list[str], field: str) -> tuple[str, ...]:
    """Each layer's kind from a list of names; an unknown name is refused, naming it."""
    kinds = []
    for name in names:
        kind = _KIND_NAMES.get(name.lower())
        if kind is None:
            known = ", ".join(f"'{each}'" for each in sorted(_KIND_NAMES))
            raise error(f"'s '{field}' names a layer {shown(name)}: each must be one of {known}")
        kinds.append(kind)
    return tuple(kinds)


def _pattern(data: dict, layers: int) -> tuple[str, ...]:
    pattern = text(data, "hybrid_override_pattern")
    if len(pattern) != layers or any(char not in _PATTERN for char in pattern):
        raise error(
            f"'s 'hybrid_override_pattern' is {shown(pattern)}: it must have one of 'M', '*', "
            f"'-' or 'E' for each of the {layers:,} layers"
        )
    return tuple(_PATTERN[char] for char in pattern)


def layer_kinds(data: dict, layers: int) -> tuple[str, ...]:
    """Each layer's kind, from whichever field the config states; () when it states none."""
    for field in ("layer_types", "layers_block_type"):
        names = items(data, field, str, length=layers)
        if names:
            return _named(names, field)
    if data.get("hybrid_override_pattern") is not None:
        return _pattern(data, layers)
    if data.get("full_attention_interval") is not None and "linear_num_value_heads" in data:
        every = optional(data, "full_attention_interval", low=1, high=layers)
        return tuple(FULL if (i + 1) % every == 0 else LINEAR for i in range(layers))
    if data.get("attn_layer_period") is not None:
        period = optional(data, "attn_layer_period", low=1, high=layers)
        offset = optional(data, "attn_layer_offset", high=period - 1)
        return tuple(FULL if i % period == offset else MAMBA for i in range(layers))
    return ()


def _linear_state(data: dict) -> float:
    key_heads = optional(data, "linear_num_key_heads", 16, low=1)
    value_heads = optional(data, "linear_num_value_heads", 32, low=1)
    key_dim = optional(data, "linear_key_head_dim", 128, low=1)
    value_dim = optional(data, "linear_value_head_dim", 128, low=1)
    kernel = optional(data, "linear_conv_kernel_dim", 4, low=1)
    conv = (kernel - 1) * (2 * key_heads * key_dim + value_heads * value_dim)
    return float(value_heads * key_dim * value_dim + conv)


def _mamba_state(data: dict, hidden: int) -> float:
    if data.get("mamba_num_heads") is not None:  # Mamba-2 (Nemotron-H)
        heads = optional(data, "mamba_num_heads", low=1)
        head_dim = optional(data, "mamba_head_dim", 64, low=1)
        state = optional(data, "ssm_state_size", 128, low=1)
        groups = optional(data, "n_groups", 1, low=1)
        kernel = optional(data, "conv_kernel", 4, low=1)
        inner = heads * head_dim
        return float(inner * state + (kernel - 1) * (inner + 2 * groups * state))
    state = optional(data, "mamba_d_state", 16, low=1)  # Mamba (Jamba)
    kernel = optional(data, "mamba_d_conv", 4, low=1)
    inner = optional(data, "mamba_expand", 2, low=1) * hidden
    return float(inner * state + (kernel - 1) * inner)


def read_layer_kinds(data: dict, layers: int, hidden: int) -> LayerKinds:
    """The layers' kinds and one state layer's numbers per sequence (0 without state layers)."""
    kinds = layer_kinds(data, layers)
    found = LayerKinds(kinds)
    if found.count(LINEAR):
        return LayerKinds(kinds, _linear_state(data))
    if found.count(MAMBA):
        return LayerKinds(kinds, _mamba_state(data, hidden))
    return found


def _gated_delta_params(data: dict, hidden: int) -> float:
    key_heads = optional(data, "linear_num_key_heads", 16, low=1)
    value_heads = optional(data, "linear_num_value_heads", 32, low=1)
    keys = key_heads * optional(data, "linear_key_head_dim", 128, low=1)
    values = value_heads * optional(data, "linear_value_head_dim", 128, low=1)
    kernel = optional(data, "linear_conv_kernel_dim", 4, low=1)
    projections = hidden * (2 * keys + 2 * values + 2 * value_heads) + values * hidden
    return float(projections + kernel * (2 * keys + values))


def _mamba_params(data: dict, hidden: int) -> float:
    kernel_name = "conv_kernel" if data.get("mamba_num_heads") is not None else "mamba_d_conv"
    kernel = optional(data, kernel_name, 4, low=1)
    if data.get("mamba_num_heads") is not None:  # Mamba-2: in, conv, out projections
        heads = optional(data, "mamba_num_heads", low=1)
        inner = heads * optional(data, "mamba_head_dim", 64, low=1)
        groups_state = (
            2 * optional(data, "n_groups", 1, low=1) * optional(data, "ssm_state_size", 128, low=1)
        )
        conv = kernel * (inner + groups_state)
        return float(hidden * (2 * inner + groups_state + heads) + conv + inner * hidden)
    state = optional(data, "mamba_d_state", 16, low=1)
    inner = optional(data, "mamba_expand", 2, low=1) * hidden
    rank = -(-hidden // 16)  # Mamba's dt rank, ceil(d / 16)
    return float(2 * hidden * inner + kernel * inner + inner * (rank + 2 * state)
                 + rank * inner + inner * state + inner * hidden)  # fmt: skip


def mixer_params(data: dict, found: LayerKinds, hidden: int) -> float:
    """Parameters of all the state layers' mixers (what replaces their attention).

    Notes
    -----
    Gated DeltaNet: :math:`d(2 H_k d_k + 2 H_v d_v + 2 H_v) + H_v d_v d` projections and a
    :math:`k`-wide convolution; Mamba-2: :math:`d(2 d_{in} + 2 G N + H) + d_{in} d` and the
    convolution; Mamba: :math:`2 d\\,d_{in} + d_{in}(r + 2N) + r d_{in} + d_{in} N + d_{in} d`
    with :math:`r = \\lceil d / 16 \\rceil`.
    """
    if found.count(LINEAR):
        return found.count(LINEAR) * _gated_delta_params(data, hidden)
    return found.count(MAMBA) * _mamba_params(data, hidden)


def moe_layer_flags(data: dict, layers: int) -> list[bool] | None:
    """Jamba's experts: every ``expert_layer_period`` layers from its offset; None otherwise."""
    if data.get("expert_layer_period") is None:
        return None
    period = optional(data, "expert_layer_period", low=1, high=layers)
    offset = optional(data, "expert_layer_offset", high=period - 1)
    return [i % period == offset for i in range(layers)]


def hybrid_param_change(
    data: dict, found: LayerKinds, hidden: int, attention: float, dense_mlp: float
) -> float:
    """Parameters to add to a count that gave every layer attention and an MLP.

    State layers have their mixer instead of attention, MLP-only blocks no attention; in
    Nemotron-H's pattern only the MLP blocks (``-``) have an MLP, of ``dense_mlp`` parameters.
    """
    change = mixer_params(data, found, hidden) - attention * (found.state_layers + found.count(MLP))
    if data.get("hybrid_override_pattern") is not None:
        change -= (len(found.kinds) - found.count(MLP)) * dense_mlp
    return change


def shape_layer_fields(
    data: dict, layers: int, hidden: int, attention: float, dense_mlp: float, latent: bool
) -> tuple[float, dict]:
    """(parameters to add, :class:`~core.catalog.ModelShape` fields) for the layers' kinds.

    The fields are the state and MLP-only layers of a hybrid and, for a latent-attention model
    with ``index_topk`` (DeepSeek-V3.2), its sparse attention's top-k and indexer.
    """
    kinds = read_layer_kinds(data, layers, hidden)
    change = hybrid_param_change(data, kinds, hidden, attention, dense_mlp) if kinds.hybrid else 0.0
    sparse = latent and bool(data.get("index_topk"))
    fields = {
        "state_layers": kinds.state_layers,
        "state_numbers": kinds.state_numbers,
        "mlp_layers": kinds.count(MLP),
        "state_kind": kinds.state_kind if kinds.state_layers else "",
        "sparse_top_k": optional(data, "index_topk") if sparse else 0,
        "indexer_dim": optional(data, "index_head_dim") if sparse else 0,
        "indexer_heads": optional(data, "index_n_heads") if sparse else 0,
    }
    return change, fields
