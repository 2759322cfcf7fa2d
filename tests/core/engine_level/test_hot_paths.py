"""One scenario's hot path: its step's parts in plain floats give a sweep's bits, and a step or a
prefill the load's loops ask for twice is priced once."""

from __future__ import annotations

import numpy as np

from core import Scenario, evaluate
from core.engine_level.node import Node
from core.engine_level.terms import ALL_TERMS
from core.evaluate import engine_node


def _count_prices(monkeypatch, name: str) -> list:
    """The arguments each call of ``Node.<name>`` (the priced method behind the memory) gets."""
    original, calls = getattr(Node, name), []

    def counted(self, *args):
        calls.append(args)
        return original(self, *args)

    monkeypatch.setattr(Node, name, counted)
    return calls


def test_a_step_asked_for_twice_is_priced_once(monkeypatch):
    """The same step of plain numbers comes back from memory with the same bits; a sweep's
    arrays are priced every time."""
    node = engine_node(Scenario(model="DeepSeek-R1", gpu="H200", cards=8, weight_dtype="fp8",
                                layout="dep", realism="engine"))  # fmt: skip
    priced = _count_prices(monkeypatch, "_step_s")
    first = node.step_s(64.0, 3000.0, ALL_TERMS)
    assert node.step_s(64.0, 3000.0, ALL_TERMS) == first and len(priced) == 1
    batch = np.array([64.0, 128.0])
    node.step_s(batch, 3000.0, ALL_TERMS)
    node.step_s(batch, 3000.0, ALL_TERMS)
    assert len(priced) == 3


def test_a_prefill_asked_for_twice_is_priced_once(monkeypatch):
    """The same prompt's prefill of plain numbers comes back from memory with the same bits, a
    prefill alone and one riding in a step each priced once."""
    node = engine_node(Scenario(model="Llama-3-70B", gpu="H100 SXM", cards=8, weight_dtype="fp8",
                                engine="vllm", realism="engine"))  # fmt: skip
    priced = _count_prices(monkeypatch, "_prefill_s")
    alone = node.prefill_s(2048.0, 0.0, ALL_TERMS, True)
    riding = node.prefill_s(2048.0, 0.0, ALL_TERMS, False)
    assert node.prefill_s(2048.0, 0.0, ALL_TERMS, True) == alone
    assert node.prefill_s(2048.0, 0.0, ALL_TERMS, False) == riding
    assert [args[3] for args in priced] == [True, False]


def test_mixtures_and_dense_models_under_each_engine_swept_and_alone_agree():
    """DeepSeek-R1 (latent attention, shared experts, DEP) and Llama-3-70B under each engine,
    on H200s and MI300Xs, in one array call give each scenario's own figures to the last bit."""
    for model, dtype in (("DeepSeek-R1", "fp8"), ("Llama-3-70B", "bf16")):
        base = Scenario(model=model, weight_dtype=dtype, realism="engine", prompt_tokens=2048,
                        answer_tokens=512, concurrency=96)  # fmt: skip
        gpus = np.array(["H200", "H200", "H200", "MI300X", "H200"])
        engines = np.array(["tensorrt-llm", "vllm", "sglang", "sglang", "sglang"])
        layouts = np.array(["tp", "tp", "tp", "tp", "dep"])
        swept = evaluate(base, gpu=gpus, cards=8, engine=engines, layout=layouts)
        for index in range(gpus.size):
            alone = evaluate(base, gpu=str(gpus[index]), cards=8, engine=str(engines[index]),
                             layout=str(layouts[index]))  # fmt: skip
            for field in ("itl_s", "ttft_p50_s", "ttft_p95_s", "throughput_tokens_per_s"):
                assert getattr(swept, field)[index] == getattr(alone, field), (model, index)
