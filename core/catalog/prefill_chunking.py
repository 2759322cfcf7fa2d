"""How a release splits a lone long prompt into forward passes, and which passes run eagerly.

A release that chunks prefills (:attr:`core.catalog.engine_versions.EngineVersion.
chunked_prefill`) runs a prompt longer than its chunk as one forward pass a chunk; vLLM's V0
engine does so only where the server allows contexts past 32K tokens, which any request longer
than that forces. Each pass reads the weights again and pays a step's fixed costs, and where the
release runs a prompt's steps outside CUDA graphs, its eager dispatch too
(:attr:`core.catalog.engines.Engine.request_overhead_per_layer_s`).
"""

from __future__ import annotations

from core.catalog.engine_versions import engine_version
from core.catalog.release_lines import release_line

# (engine, release line): the longest context (max_model_len) the release serves without
# turning chunked prefill on; past it, each step carries the release's chunk_tokens (512)
LONG_CONTEXT_CHUNKING: dict[tuple[str, str], int] = {("vllm", "0.5"): 32768, ("vllm", "0.6"): 32768}
LONG_CONTEXT_SOURCE = (
    "vLLM V0 vllm/engine/arg_utils.py create_engine_config: 'Chunked prefill is enabled by "
    "default for models with max_model_len > 32K' (a CUDA device, no sliding window, no "
    "speculative decoding or LoRA), and config.py SchedulerConfig: max_num_batched_tokens 512 "
    "once it is ('Chunked prefill is enabled with max_num_batched_tokens=512', its log line)"
)
# release lines whose steps carrying a prompt run eagerly, outside CUDA graphs: vLLM V0 captures
# decode-only batches (worker/model_runner.py: a graph only where the batch has no prefill), and
# SGLang captures its decode batches only (its extend and prefill forwards run eagerly); vLLM V1
# runs mixed steps through torch.compile's piecewise graphs, TensorRT-LLM chunks no prompt by
# default
EAGER_PROMPT_STEPS: frozenset[tuple[str, str]] = frozenset(
    {("vllm", "0.5"), ("vllm", "0.6"), ("sglang", "0.3"), ("sglang", "0.4"), ("sglang", "0.5")}
)
EAGER_PROMPT_SOURCE = (
    "vLLM V0 worker/model_runner.py: CUDA graphs replay decode-only batches; SGLang "
    "cuda_graph_runner.py captures decode batches (its extend forward runs eagerly)"
)


def chunk_tokens(engine: str, version: str, large_card: bool, card_memory_bytes: float) -> int:
    """The tokens one step of ``engine``'s release ``version`` may carry on a card of
    ``card_memory_bytes`` (``large_card``: one that takes the release's larger defaults, as
    :attr:`~core.catalog.engine_versions.EngineVersion.max_running` does).

    Notes
    -----
    The first of the release's ``chunk_tiers`` whose memory the card is below (SGLang's), else
    ``chunk_tokens_small`` on a card that is not large (vLLM's API server: 2,048 under 70 GiB or
    on an A100), else ``chunk_tokens``.
    """
    release = engine_version(engine, version)
    for below, tokens in release.chunk_tiers:
        if card_memory_bytes < below:
            return tokens
    if not large_card and release.chunk_tokens_small:
        return release.chunk_tokens_small
    return release.chunk_tokens


def long_context_limit(engine: str, version: str) -> int:
    """The longest context ``engine``'s release ``version`` serves before it turns chunked
    prefill on (0: never by itself)."""
    return LONG_CONTEXT_CHUNKING.get(
        (engine, release_line(engine_version(engine, version).version)), 0
    )


def eager_prompt_steps(engine: str, version: str) -> bool:
    """Whether ``engine``'s release ``version`` runs a step carrying a prompt eagerly."""
    return (engine, release_line(engine_version(engine, version).version)) in EAGER_PROMPT_STEPS
