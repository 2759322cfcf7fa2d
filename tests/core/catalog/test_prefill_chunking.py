"""Which releases split a lone long prompt into forward passes, and which run them eagerly."""

from __future__ import annotations

from core import Scenario
from core.catalog.engine_versions import VLLM_SMALL_CARD_CHUNK, engine_version
from core.catalog.prefill_chunking import eager_prompt_steps, long_context_limit
from core.evaluate import engine_node

_QWEN_7B_LIKE = {"model": "Llama-3-8B", "gpu": "A100 80GB SXM", "weight_dtype": "bf16"}


def _node(engine, version, prompt, answer=2048):
    scenario = Scenario(**_QWEN_7B_LIKE, engine=engine, engine_version=version,
                        prompt_tokens=prompt, answer_tokens=answer, realism="engine")  # fmt: skip
    return engine_node(scenario)


def test_vllm_v0_chunks_only_requests_past_32k():
    """vLLM 0.6 (V0) serves contexts up to 32,768 tokens in one pass and chunks longer ones into
    512-token passes; its release is the only one with such a limit here."""
    assert long_context_limit("vllm", "0.6") == 32768
    assert long_context_limit("vllm", "0.14") == 0 and long_context_limit("sglang", "0.5") == 0
    assert _node("vllm", "0.6", 129024).prefill_chunk_tokens == 512
    assert _node("vllm", "0.6", 30720).prefill_chunk_tokens == 0  # 30,720 + 2,048 = 32,768


def test_chunking_releases_chunk_whatever_the_length_and_trtllm_never():
    """vLLM V1 and SGLang chunk every prompt at their release's chunk on the card (vLLM's API
    server its smaller one on an A100); TensorRT-LLM chunks none."""
    assert _node("vllm", "0.14", 1000).prefill_chunk_tokens == VLLM_SMALL_CARD_CHUNK
    assert (
        _node("sglang", "0.4", 1000).prefill_chunk_tokens
        == engine_version("sglang", "0.4").chunk_tokens
    )
    assert _node("tensorrt-llm", None, 129024).prefill_chunk_tokens == 0


def test_v0_and_sglang_run_prompt_steps_eagerly_and_v1_does_not():
    """vLLM V0 and SGLang replay graphs for decode batches only; V1 runs mixed steps compiled."""
    assert eager_prompt_steps("vllm", "0.6") and eager_prompt_steps("sglang", "0.4")
    assert not eager_prompt_steps("vllm", "0.14")
    assert not eager_prompt_steps("tensorrt-llm", "1.0")


def test_a_forced_chunking_mixes_prompts_into_running_steps():
    """vLLM V0 runs a prompt in a step of its own until a long context turns chunking on; then
    its chunks ride in the running steps as every chunking release's do."""
    assert _node("vllm", "0.6", 8000).separate_prefill
    assert not _node("vllm", "0.6", 40000).separate_prefill
    assert not _node("vllm", "0.14", 8000).separate_prefill
