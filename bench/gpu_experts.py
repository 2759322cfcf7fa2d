"""One card's slice of a mixture's expert layer in PyTorch, checked and timed against tokens.

Part of ``bench/gpu_kernels.py``: the layer gathers each routed copy of a token into its
expert's rows (padded to 16), runs the gate-and-up and down grouped GEMMs around SiLU-times-up
and weights and scatters the results back; :func:`check` compares it with a float32 loop.
"""

from __future__ import annotations

import math
from functools import partial

import torch
import torch.nn.functional as F

ALIGN = 16  # rows each expert's group is padded to (fp8 grouped GEMMs need 16)

# Expert layers: (name, hidden, expert width, experts, top-k, expert-parallel ranks).
EXPERT_SHAPES = [
    ("Mixtral-8x7B", 4096, 14336, 8, 2, 1),
    ("Qwen3-30B-A3B", 2048, 768, 128, 8, 1),
    ("gpt-oss-120b", 2880, 2880, 128, 4, 1),
    ("Qwen3-235B-A22B/EP8", 4096, 1536, 128, 8, 8),
    ("DeepSeek-V3/EP8", 7168, 2048, 256, 8, 8),
]
TOKENS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384]


class ExpertLayer:
    """One card's slice of an expert layer: experts [0, local) of ``experts``, gate+up and down.

    Routing and layout run inside the step (so a decode step can be captured whole); the
    padded buffer has room for every routed row plus ``ALIGN`` rows per local expert.
    """

    def __init__(self, hidden, width, experts, top, ranks, device, fp8=False):
        self.hidden, self.width, self.experts, self.top = hidden, width, experts, top
        self.local = experts // ranks
        self.fp8 = fp8
        scale = 1 / math.sqrt(hidden)
        self.router = torch.randn(experts, hidden, dtype=torch.bfloat16, device=device) * scale
        # weights stored (experts, out, in): each expert's matrix transposed, as CUTLASS wants
        gate_up = torch.randn(self.local, 2 * width, hidden, dtype=torch.bfloat16, device=device)
        down = torch.randn(self.local, hidden, width, dtype=torch.bfloat16, device=device)
        self.gate_up, self.down = gate_up * scale, down / math.sqrt(width)
        if fp8:
            self.gate_up, self.gate_up_scale = quantise_rows(self.gate_up)
            self.down, self.down_scale = quantise_rows(self.down)

    def weight_bytes(self):
        return self.gate_up.numel() * self.gate_up.element_size() + self.down.numel() * (
            self.down.element_size()
        )

    def route(self, x):
        """(expert ids, weights) of each token's top-k over all experts."""
        logits = F.linear(x, self.router).float()
        weights, ids = torch.topk(torch.softmax(logits, dim=-1), self.top, dim=-1)
        return ids, weights

    def capacity(self, routed):
        """Rows of the padded buffer for ``routed`` copies on this card, and a spare row."""
        return routed + ALIGN * self.local + 1

    def layout(self, ids, capacity=None):
        """(destination row of each routed copy, group end offsets) in the padded buffer.

        Copies routed to another card's experts go to the buffer's last row, after every group.
        """
        flat = ids.reshape(-1)
        counts = torch.zeros(self.experts, dtype=torch.int32, device=ids.device)
        counts.scatter_add_(0, flat, torch.ones_like(flat, dtype=torch.int32))
        counts = counts[: self.local]
        padded = (counts + ALIGN - 1) // ALIGN * ALIGN
        ends = torch.cumsum(padded, 0).to(torch.int32)
        starts = ends - padded
        order = torch.argsort(flat, stable=True)
        sorted_ids = flat[order]
        # rank of each copy within its expert: position among the sorted minus the expert's start
        first = torch.cumsum(
            torch.cat([torch.zeros(1, dtype=torch.int32, device=ids.device), counts]), 0
        )
        local = sorted_ids < self.local
        safe = torch.where(local, sorted_ids, 0)
        rank = torch.arange(flat.numel(), device=ids.device) - first[safe]
        trash = (capacity or self.capacity(flat.numel())) - 1
        dest_sorted = torch.where(local, starts[safe] + rank, trash)
        dest = torch.empty_like(dest_sorted)
        dest[order] = dest_sorted
        return dest, ends

    def experts_step(self, x, ids, weights, dest, ends, capacity=None):
        """Gather, two grouped GEMMs around SiLU-times-up, weight and scatter back.

        Rows past a group's tokens are left as they are: no kernel reads their results.
        """
        tokens = x.shape[0]
        rows = capacity or self.capacity(tokens * self.top)
        buffer = torch.empty(rows, self.hidden, dtype=x.dtype, device=x.device)
        source = torch.arange(tokens, device=x.device).repeat_interleave(self.top)
        buffer[dest] = x[source]
        up = self._grouped(buffer, self.gate_up, ends, "gate_up")
        gate, value = up.chunk(2, dim=-1)
        act = F.silu(gate) * value
        out = self._grouped(act, self.down, ends, "down")
        picked = out[dest] * weights.reshape(-1, 1).to(out.dtype)
        picked = torch.where((dest < rows - 1).unsqueeze(1), picked, 0)
        result = torch.zeros_like(x)
        result.index_add_(0, source, picked)
        return result

    def _grouped(self, a, weight, ends, which):
        if not self.fp8:
            return torch._grouped_mm(a, weight.transpose(-2, -1), offs=ends)
        a8, a_scale = quantise_rows(a)
        w_scale = self.gate_up_scale if which == "gate_up" else self.down_scale
        return torch._scaled_grouped_mm(
            a8, weight.transpose(-2, -1), a_scale, w_scale, offs=ends, out_dtype=torch.bfloat16
        )

    def routing(self, x, capacity=None):
        """The router and the layout alone."""
        return self.layout(self.route(x)[0], capacity)

    def __call__(self, x, capacity=None):
        ids, weights = self.route(x)
        dest, ends = self.layout(ids, capacity)
        return self.experts_step(x, ids, weights, dest, ends, capacity)


def quantise_rows(t):
    """fp8 e4m3 values and one fp32 scale per row (the last dimension's max over 448)."""
    amax = t.abs().amax(dim=-1).float().clamp(min=1e-12)
    scale = amax / 448.0
    return (t / scale.unsqueeze(-1).to(t.dtype)).to(torch.float8_e4m3fn), scale


def reference(layer, x):
    """The expert layer computed token by token in float32 (experts off the card give 0)."""
    ids, weights = layer.route(x)
    out = torch.zeros(x.shape, dtype=torch.float32, device=x.device)
    gate_up, down = layer.gate_up.float(), layer.down.float()
    if layer.fp8:
        gate_up = gate_up * layer.gate_up_scale.unsqueeze(-1)
        down = down * layer.down_scale.unsqueeze(-1)
    for t in range(x.shape[0]):
        for e, w in zip(ids[t].tolist(), weights[t].tolist(), strict=True):
            if e < layer.local:
                gate, up = (gate_up[e] @ x[t].float()).chunk(2)
                out[t] += w * (down[e] @ (F.silu(gate) * up))
    return out


def check(device):
    """Relative error of the expert layer against :func:`reference`, per format and split."""
    for fmt in ("bf16", "fp8"):
        for ranks in (1, 4):
            try:
                layer = ExpertLayer(512, 256, 16, 4, ranks, device, fp8=fmt == "fp8")
                x = torch.randn(40, 512, dtype=torch.bfloat16, device=device)
                routed = int((layer.route(x)[0] < layer.local).sum())
                got, want = layer(x, layer.capacity(routed)).float(), reference(layer, x)
                error = float((got - want).norm() / want.norm())
                print(f"check {fmt} ranks {ranks}: relative error {error:.2e}")
            except Exception as error:
                print(f"check {fmt} ranks {ranks}: {type(error).__name__}: {str(error)[:200]}")


def expert_rows(timer, device, quick):
    """Rows of expert-layer times against tokens, per shape and format."""
    rows = []
    shapes = [("tiny", 256, 128, 8, 2, 2)] if quick else EXPERT_SHAPES
    tokens_list = [1, 4, 64] if quick else TOKENS
    for name, hidden, width, experts, top, ranks in shapes:
        for fmt in ("bf16", "fp8"):
            try:
                layer = ExpertLayer(hidden, width, experts, top, ranks, device, fp8=fmt == "fp8")
            except Exception as error:
                print(f"{name} {fmt}: {type(error).__name__}: {str(error)[:200]}")
                continue
            for tokens in tokens_list:
                x = torch.randn(tokens, hidden, dtype=torch.bfloat16, device=device)
                try:
                    ids, weights = layer.route(x)
                    on_card = ids < layer.local
                    touched = int(torch.unique(ids[on_card]).numel())
                    routed = int(on_card.sum())
                    # the same tokens route the same way in every replay: size the buffer once
                    capacity = layer.capacity(routed)
                    dest, ends = layer.layout(ids, capacity)
                    whole = timer(partial(layer, x, capacity))
                    gemms = timer(
                        partial(layer.experts_step, x, ids, weights, dest, ends, capacity)
                    )
                    router = timer(partial(layer.routing, x, capacity))
                except Exception as error:
                    print(f"{name} {fmt} {tokens}: {type(error).__name__}: {str(error)[:200]}")
                    break
                row = {"shape": name, "format": fmt, "hidden": hidden, "width": width,
                       "experts": experts, "top_k": top, "ranks": ranks, "tokens": tokens,
                       "routed_rows": routed, "touched": touched, "layer_ms": whole,
                       "experts_ms": gemms, "routing_ms": router,
                       "weight_bytes": layer.weight_bytes()}  # fmt: skip
                rows.append(row)
                print(
                    f"{name:<20} {fmt:<4} {tokens:>6} tokens {routed:>6} rows {touched:>4} "
                    f"experts  layer {whole * 1e3:8.1f} us  experts {gemms * 1e3:8.1f}  "
                    f"routing {router * 1e3:6.1f}"
                )
            del layer
            if device.type == "cuda":
                torch.cuda.empty_cache()
    return rows
