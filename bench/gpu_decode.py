"""A random-weight decoder built from a config.json, its decode step timed and profiled.

Part of ``bench/gpu_kernels.py``: one card's tensor-parallel slice (its all-reduces left out),
PyTorch's own unfused elementwise kernels, each step captured as a CUDA graph.
"""

from __future__ import annotations

import json
import math
import time
from functools import partial
from pathlib import Path

import torch
import torch.nn.functional as F

from bench.gpu_experts import ExpertLayer

# Decode steps: (config.json name, tensor-parallel cards, [(batch, context), ...]).
DECODE_POINTS = [(1, 1024), (8, 1024), (32, 1024), (128, 1024), (256, 1024), (1, 8192),
                 (32, 8192)]  # fmt: skip
DECODE_MODELS = [("llama-3.1-8b", 1), ("llama-3.1-70b", 8), ("qwen3-30b-a3b", 1)]
CONFIGS = Path(__file__).with_name("gpu_configs")


class Decoder:
    """A random-weight decoder from a config.json's fields, one card's tensor-parallel slice."""

    def __init__(self, config, cards, device, max_tokens):
        c = config
        self.layers = c["num_hidden_layers"]
        self.hidden = c["hidden_size"]
        self.head_dim = c.get("head_dim") or self.hidden // c["num_attention_heads"]
        self.heads = c["num_attention_heads"] // cards
        self.kv_heads = max(c["num_key_value_heads"] // cards, 1)
        self.vocab = c["vocab_size"] // cards
        experts = c.get("num_experts") or c.get("num_local_experts") or 0
        d, h = self.head_dim, self.hidden
        scale = 1 / math.sqrt(h)

        def weight(*shape):
            return torch.randn(*shape, dtype=torch.bfloat16, device=device) * scale

        self.embed = weight(self.vocab, h)
        self.blocks = []
        for _ in range(self.layers):
            block = {"qkv": weight((self.heads + 2 * self.kv_heads) * d, h),
                     "o": weight(h, self.heads * d), "norm1": torch.ones(h, device=device,
                     dtype=torch.bfloat16), "norm2": torch.ones(h, device=device,
                     dtype=torch.bfloat16)}  # fmt: skip
            if experts:
                width = c["moe_intermediate_size"] // cards
                block["moe"] = ExpertLayer(h, width, experts, c["num_experts_per_tok"], 1, device)
            else:
                width = c["intermediate_size"] // cards
                block["gate_up"], block["down"] = weight(2 * width, h), weight(h, width)
            self.blocks.append(block)
        self.head = weight(self.vocab, h)
        self.norm = torch.ones(h, device=device, dtype=torch.bfloat16)
        per_layer = max_tokens * self.kv_heads * d
        self.cache = torch.randn(self.layers, 2, per_layer, dtype=torch.bfloat16, device=device)
        self.max_tokens = max_tokens
        angles = torch.arange(d // 2, device=device, dtype=torch.float32)
        self.cos = torch.cos(angles).to(torch.bfloat16)
        self.sin = torch.sin(angles).to(torch.bfloat16)

    def _rotary(self, t):
        first, second = t.chunk(2, dim=-1)
        return torch.cat(
            [first * self.cos - second * self.sin, second * self.cos + first * self.sin], dim=-1
        )

    def step(self, tokens, batch, context):
        """One decode step: a token for each of ``batch`` requests after ``context`` tokens."""
        d, g = self.head_dim, self.heads // self.kv_heads
        x = self.embed[tokens]
        for index, block in enumerate(self.blocks):
            cache = self.cache[index, :, : batch * self.kv_heads * context * d]
            keys = cache[0].view(batch, self.kv_heads, context, d)
            values = cache[1].view(batch, self.kv_heads, context, d)
            y = F.rms_norm(x, (self.hidden,), block["norm1"])
            q, k, v = F.linear(y, block["qkv"]).split(
                [self.heads * d, self.kv_heads * d, self.kv_heads * d], dim=-1
            )
            q = self._rotary(q.view(batch, self.kv_heads, g, d))
            keys[:, :, -1] = self._rotary(k.view(batch, self.kv_heads, d))
            values[:, :, -1] = v.view(batch, self.kv_heads, d)
            attended = F.scaled_dot_product_attention(q, keys, values)
            x = x + F.linear(attended.reshape(batch, self.heads * d), block["o"])
            y = F.rms_norm(x, (self.hidden,), block["norm2"])
            if "moe" in block:
                x = x + block["moe"](y)
            else:
                gate, up = F.linear(y, block["gate_up"]).chunk(2, dim=-1)
                x = x + F.linear(F.silu(gate) * up, block["down"])
        logits = F.linear(F.rms_norm(x, (self.hidden,), self.norm), self.head)
        return torch.argmax(logits, dim=-1)

    def weight_bytes(self):
        parts = [self.embed, self.head, *(v for block in self.blocks for v in block.values())]
        return sum(
            p.weight_bytes() if isinstance(p, ExpertLayer) else p.numel() * p.element_size()
            for p in parts
        )


def kernels_per_step(fn):
    """How many GPU kernels one run of ``fn`` launches (PyTorch's profiler), or -1."""
    try:
        return sum(count for count, _ in kernel_categories(fn).values())
    except Exception:
        return -1


def decode_rows(timer, device, quick):
    """Rows of decode-step times per model, batch and context."""
    rows = []
    models = [("tiny-llama", 1), ("tiny-moe", 1)] if quick else DECODE_MODELS
    points = [(1, 64), (4, 128)] if quick else DECODE_POINTS
    for name, cards in models:
        config = json.loads((CONFIGS / f"{name}.json").read_text())
        max_tokens = max(b * c for b, c in points)
        try:
            model = Decoder(config, cards, device, max_tokens)
        except Exception as error:
            print(f"{name}: {type(error).__name__}: {str(error)[:200]}")
            continue
        for batch, context in points:
            tokens = torch.randint(0, model.vocab, (batch,), device=device)
            try:
                step = partial(model.step, tokens, batch, context)
                graph_ms = timer(step, flush=False)
                eager_ms = _eager_ms(step, device)
            except Exception as error:
                print(f"{name} {batch}x{context}: {type(error).__name__}: {str(error)[:200]}")
                continue
            count = -1
            if device.type == "cuda" and batch == 1 and context == points[0][1]:
                count = kernels_per_step(step)
            cache_bytes = 2 * model.layers * 2 * batch * context * model.kv_heads * model.head_dim
            rows.append({"model": name, "cards": cards, "batch": batch, "context": context,
                         "graph_ms": graph_ms, "eager_ms": eager_ms, "kernels": count,
                         "weight_bytes": model.weight_bytes(), "cache_bytes": cache_bytes})  # fmt: skip
            print(f"{name:<15} TP{cards} batch {batch:>4} context {context:>5}  graph "
                  f"{graph_ms:7.3f} ms  eager {eager_ms:7.3f} ms  kernels {count}")  # fmt: skip
        del model
        if device.type == "cuda":
            torch.cuda.empty_cache()
    return rows


def kernel_categories(fn):
    """{category: (kernels, device microseconds)} of one run of ``fn``, from the profiler."""
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        fn()
        torch.cuda.synchronize()
    totals = {}
    for event in prof.events():
        if event.device_type.name != "CUDA":
            continue
        name = event.name.lower()
        category = next((c for c, keys in CATEGORIES if any(k in name for k in keys)), "other")
        count, micros = totals.get(category, (0, 0.0))
        totals[category] = (count + 1, micros + event.time_range.elapsed_us())
    return totals


CATEGORIES = [
    ("attention", ("flash", "attention", "fmha", "sdpa")),
    ("matmul", ("gemm", "gemv", "cutlass", "sm90", "xmma", "matmul", "cublas", "nvjet")),
    ("copy", ("copy", "index", "scatter", "gather", "cat")),
]


def profile_rows(timer, device, quick):
    """Rows of one decode step's device time by kind of kernel (Llama-3.1-8B, eager)."""
    rows = []
    if device.type != "cuda":
        return rows
    name = "tiny-llama" if quick else "llama-3.1-8b"
    config = json.loads((CONFIGS / f"{name}.json").read_text())
    model = Decoder(config, 1, device, 128 * 1024)
    for batch, context in [(1, 1024), (128, 1024)]:
        tokens = torch.randint(0, model.vocab, (batch,), device=device)
        step = partial(model.step, tokens, batch, context)
        step()
        for category, (count, micros) in sorted(kernel_categories(step).items()):
            rows.append({"model": name, "batch": batch, "context": context,
                         "category": category, "kernels": count, "device_us": micros})  # fmt: skip
            print(f"{name} batch {batch:>4}: {category:<10} {count:>5} kernels "
                  f"{micros:9.1f} us")  # fmt: skip
    return rows


def _eager_ms(fn, device, reps=5):
    """Median wall-clock milliseconds of ``fn`` run eagerly, synchronised after each run."""
    times = []
    for _ in range(reps + 1):
        start = time.perf_counter()
        fn()
        if device.type == "cuda":
            torch.cuda.synchronize()
        times.append((time.perf_counter() - start) * 1e3)
    return sorted(times[1:])[reps // 2]
