"""What each engine's release does by default on a card: how many requests it runs at once, how
many tokens a step carries, and whether a new prompt waits for a step of its own.

vLLM sets its batch limits by the card (larger on cards of 70 GB or more, not an A100), SGLang its
chunk by the card's memory (:mod:`core.catalog.engine_versions`, :mod:`core.catalog.
prefill_chunking`); these give the :class:`~core.engine_level.node.Node` fields for a scenario or
a sweep of them, the catalog keys factorized.
"""

from __future__ import annotations

import numpy as np

from core.catalog import GB
from core.catalog.engine_versions import engine_version
from core.catalog.engines import ENGINES
from core.catalog.kernels import card_family
from core.catalog.prefill_chunking import chunk_tokens, eager_prompt_steps, long_context_limit
from core.engine_level.lookups import lookup, release_field


def _separate_prefill(name, version) -> bool:
    """Whether the engine's release runs a new prompt's prefill in a step of its own
    (:attr:`core.catalog.engines.Engine.prefill_mixing`), the decodes waiting."""
    mixing = ENGINES[name].prefill_mixing
    return mixing == "never" or (
        mixing == "chunked" and not engine_version(name, version).chunked_prefill
    )


def large_card(gpu, card_memory_bytes):
    """Whether each card takes the releases' larger defaults: 70 GB or more, not an A100 (vLLM's
    _set_default_args, core.catalog.engine_versions)."""
    big = np.asarray(card_memory_bytes, dtype=float) / GB >= 70
    return big & ~(lookup(lambda g: card_family(g) == "ampere", gpu) > 0)


def running_limit(gpu, engine, version, card_memory_bytes):
    """The most requests each release runs at once on one instance (its ``max_running`` on a
    :func:`large_card`, else ``max_running_small``), of factorized engine and release keys."""
    large = lookup(release_field("max_running"), engine, version)
    small = lookup(release_field("max_running_small"), engine, version)
    return np.where(large_card(gpu, card_memory_bytes), large, small)


def prefill_chunking(pool, gpu, engine, version) -> dict:
    """Whether a new prompt runs in a step of its own, the tokens one forward pass of a lone
    prompt carries (0: the whole prompt in one; the release's chunk on the card's memory) and
    whether the release runs those passes eagerly (:mod:`core.catalog.prefill_chunking`).
    Requests past the release's long-context limit (vLLM V0's 32K) turn chunking on, and the
    chunks then ride in the running steps."""
    chunked = lookup(release_field("chunked_prefill"), engine, version) > 0
    longest = lookup(long_context_limit, engine, version)
    forced = (longest > 0) & (np.add(pool.prompt, pool.answer) > longest)
    chunk = _chunk_tokens(gpu, engine, version, pool.card_memory)
    return {
        "separate_prefill": (lookup(_separate_prefill, engine, version) > 0) & ~forced,
        "prefill_chunk_tokens": np.where(chunked | forced, chunk, 0.0),
        "eager_prompt_steps": lookup(eager_prompt_steps, engine, version) > 0,
    }


def _chunk_tokens(gpu, engine, version, card_memory_bytes):
    """:func:`core.catalog.prefill_chunking.chunk_tokens` of factorized keys and each card's
    memory (a pasted card's its own)."""
    return lookup(lambda e, v, large, memory: chunk_tokens(e, v, bool(large), float(memory)),
                  engine, version, large_card(gpu, card_memory_bytes),
                  card_memory_bytes)  # fmt: skip
