"""The sources table's rows for what each engine release does: host work, fused kernels, AMD's.

Each row is one release of :data:`core.catalog.engine_versions.ENGINE_VERSIONS` that prices
something the others do not (:mod:`core.evidence.engine_sources` lists them among the engine
level's costs).
"""

from __future__ import annotations

from core.catalog.engine_versions import (
    ENGINE_VERSIONS,
    PRICE_RELEASE_REQUEST_HOST,
    engine_version,
)
from core.catalog.engines import ENGINES, TRTLLM_BENCH_GRAPH_SIZES
from core.catalog.layer_kernels import BLOCK_FP8_MLP_INPUTS, SHARED_EXPERT_KERNELS
from core.catalog.prefill_chunking import (
    EAGER_PROMPT_SOURCE,
    EAGER_PROMPT_STEPS,
    LONG_CONTEXT_CHUNKING,
    LONG_CONTEXT_SOURCE,
)
from core.catalog.release_kernels import (
    EXPERT_LAUNCH_LOOPS,
    MARLIN_LOOP_TOKENS,
    RELEASE_EXPERT_KERNELS,
    SHARED_EXPERT_STREAMS,
)
from core.evidence.source_groups import Source

_FUSED_UNIT = (
    "kernels fewer per expert layer (the shared expert's gate-up, activation and down, and its "
    "two quantisers), its two GEMM floors too; its weights are still read"
)
_QUANT_UNIT = (
    "per-tensor fp8 GEMMs a layer that skip their quantiser (QKV, gate-up, down; see 'fp8 input "
    "quantiser in the floor')"
)
_AMD_UNIT = "its expert and block-fp8 GEMM rows measured on the card (the kernel tables below)"
_AMD_DENSE_UNIT = "its dense block-fp8 GEMMs priced by that row on MI300-class cards (below)"
_AHEAD_UNIT = "step more a prompt arriving among running decodes waits (see 'a step queued ahead')"
_AHEAD_SOURCE = (
    "NVIDIA/TensorRT-LLM docs/source/torch/features/overlap_scheduler.md ('The optimization "
    "introduces one extra decoding step'); sgl-project/sglang python/sglang/srt/managers/"
    "scheduler.py event_loop_overlap launches batch n+1 before it processes batch n's result; "
    "vllm-project/vllm vllm/v1/engine/core.py step_with_batch_queue schedules a new batch while "
    "the batch queue has room, before it waits for the oldest"
)
_GRAPH_UNIT = (
    "requests a captured decode step holds: under trtllm-bench a step runs the next size up (each "
    "rank's batch, up to the engine's limit), its matmuls the padded batch, its cache reads its own"
)


def _release_rows(keep, name: str, value, unit, source: str, kind: str) -> list[Source]:
    """A row for each release that ``keep(release)`` selects: ``name``, then the release, its
    ``value(release)`` and ``unit(release)``, and the release's ``source`` attribute."""
    return [
        Source(
            f"{name}, {release.engine} {release.version}",
            value(release),
            unit(release),
            getattr(release, source),
            kind=kind,
        )
        for releases in ENGINE_VERSIONS.values()
        for release in releases
        if keep(release)
    ]


def host_request_rows() -> list[Source]:
    """Each release whose host work per running request is priced, with its profile."""
    if not PRICE_RELEASE_REQUEST_HOST:
        return []
    return _release_rows(
        lambda release: release.host_per_request_s > 0,
        "host time per running request",
        lambda release: f"{release.host_per_request_s * 1e6:.1f}",
        lambda release: (
            "µs per request a step, per rank"
            + (
                " (beside the GPU's step: only what outlasts it)"
                if release.overlap_scheduler
                else ""
            )
        ),
        "host_per_request_source",
        "measurements",
    )


# What a release does that the engine level prices for it alone: (the release's field saying it
# does, the row's name, its value, unit and the release's field citing it).
_ENGINE_FACTS = (
    ("fuses_shared_expert", "shared expert fused into the routed experts",
     lambda _: f"{SHARED_EXPERT_KERNELS} (+ {BLOCK_FP8_MLP_INPUTS} in block fp8)", _FUSED_UNIT,
     "fuses_shared_expert_source"),
    ("amd_kernels", "kernels on AMD cards", lambda release: release.amd_kernels.upper(),
     _AMD_UNIT, "amd_kernels_source"),
    ("amd_dense_kernels", "block-fp8 GEMMs on AMD cards", lambda release: release.amd_dense_kernels,
     _AMD_DENSE_UNIT, "amd_dense_kernels_source"),
    ("overlap_scheduler", "a scheduler a step ahead", lambda _: "1", _AHEAD_UNIT,
     "overlap_source"),
    ("fuses_input_quant", "fp8 input quantiser fused into the kernel before", lambda _: "3",
     _QUANT_UNIT, "fuses_input_quant_source"),
    ("pads_to_graph_sizes", "a benchmark's decode steps padded to CUDA-graph sizes",
     lambda _: ", ".join(f"{size:,}" for size in TRTLLM_BENCH_GRAPH_SIZES), _GRAPH_UNIT,
     "graph_padding_source"),
)  # fmt: skip


def engine_fact_rows() -> list[Source]:
    """Each release that runs a DeepSeek layer's shared expert inside its routed experts' kernel,
    each that runs AMD's AITER kernels on AMD cards (the rows keyed "aiter"), each whose block-fp8
    GEMMs there run other kernels (AITER's Triton on its default tile: "aiter-triton"), each whose
    scheduler queues a step ahead, each that fuses an fp8 GEMM's input quantiser into the kernel
    before it, then each whose benchmark runs pad decode steps to CUDA-graph sizes."""
    return [
        row
        for field, name, value, unit, source in _ENGINE_FACTS
        for row in _release_rows(
            lambda release, field=field: getattr(release, field),
            name,
            value,
            lambda _, unit=unit: unit,
            source,
            "engine",
        )
    ]


_MIXING = {
    "always": ("rides in the running step", "a new prompt's prefill joins the decodes' step"),
    "chunked": ("rides where prefills are chunked", "else a step of its own, the decodes waiting"),
    "never": ("a step of its own", "the running decodes wait for it"),
}


def _first_token_rows(name, engine) -> list[Source]:
    """An engine's first-token path: one figure a layer, or, where measured apart (SGLang's),
    its eager prefill's cost per kernel launched and its server's own path."""
    if not engine.eager_launch_s:
        return [Source(
            f"server and eager prefill per first token, {name}",
            f"{engine.request_overhead_per_layer_s * 1e3:.1f}",
            "ms per layer, added to every first token", engine.source, kind="engine",
        )]  # fmt: skip
    return [
        Source(
            f"eager prefill per kernel launched, {name}",
            f"{engine.eager_launch_s * 1e6:.1f}",
            "µs per kernel a prompt's eager pass launches, holding the cards",
            engine.source,
            kind="engine",
        ),
        Source(
            f"server path per first token, {name}",
            f"{engine.server_path_s * 1e3:.1f}",
            "ms added to every first token, beside the cards",
            engine.dispatch_source,
            kind="engine",
        ),
    ]


def engine_rows() -> list[Source]:
    """Each engine's first-token server path, whether its host step hides behind the GPU's and
    how it schedules a new prompt's prefill."""
    rows = []
    for name, engine in ENGINES.items():
        rows.extend(_first_token_rows(name, engine))
        rows.append(Source(
            f"host step between decode steps, {name}",
            "hidden" if engine.overlap_profiled else "paid",
            "behind the GPU's step where a release overlaps its scheduler" if
            engine.overlap_profiled else "whole, overlap scheduler or not",
            engine.overlap_profiled_source, kind="engine",
        ))  # fmt: skip
        value, unit = _MIXING[engine.prefill_mixing]
        rows.append(Source(
            f"a new prompt's prefill, {name}", value, unit, engine.prefill_mixing_source,
            kind="engine",
        ))  # fmt: skip
    return rows


def schedules_ahead_row() -> Source:
    """Why a release whose scheduler runs a step ahead makes a new prompt wait a step more."""
    return Source(
        "a step queued ahead", "1", "step more a new prompt waits where the scheduler prepares "
        "step n+1 during step n: it arrives after n+1 was queued, so it joins n+2",
        _AHEAD_SOURCE, kind="engine",
    )  # fmt: skip


def shared_stream_rows() -> list[Source]:
    """Each release that runs a DeepSeek layer's shared expert on a second stream in a decode
    step, with the most tokens such a step may carry and where its code says so."""
    return [
        Source(
            f"shared expert on a second stream, {engine} {version}",
            f"{tokens:,}",
            "tokens a decode step at most (and within its CUDA graph): the shared expert's kernel "
            "floors pass while the routed experts run; its weights still stream",
            source,
            kind="engine",
        )
        for (engine, version), (tokens, source) in sorted(SHARED_EXPERT_STREAMS.items())
    ]


def release_expert_rows() -> list[Source]:
    """Each release whose expert kernels on NVIDIA cards are not its engine's newest, with the
    rows that price them and where the engine's history says so."""
    return [
        Source(
            f"expert kernels, {engine} {version} on NVIDIA cards",
            rows,
            "the expert rows keyed so where a card family has them (core.catalog.kernels), "
            "else the engine's own",
            source,
            kind="engine",
        )
        for (engine, version), (rows, source) in sorted(RELEASE_EXPERT_KERNELS.items())
    ]


def expert_launch_rows() -> list[Source]:
    """Each release whose int4 expert kernel loops over the card's experts, with the tokens one
    launch covers and where the engine's code says so."""
    return [
        Source(
            f"int4 experts launched one at a time, {engine} {version}",
            f"{MARLIN_LOOP_TOKENS:,.0f}",
            "tokens a launch, per expert on the card and GEMM, each at least the kernel floor "
            "(NVIDIA cards; an expert no token picked still launches)",
            source,
            kind="engine",
        )
        for (engine, version), source in sorted(EXPERT_LAUNCH_LOOPS.items())
    ]


def _memory(size: float) -> str:
    """A card memory threshold as its release's code writes it: whole GiB, else MiB."""
    return f"{size / 2**30:.0f} GiB" if size % 2**30 == 0 else f"{size / 2**20:,.0f} MiB"


def _chunk_text(release) -> str:
    """A release's tokens a step, by card: its memory tiers, or its smaller cards' figure."""
    tiers = [f"{tokens:,} under {_memory(below)}" for below, tokens in release.chunk_tiers]
    if release.chunk_tokens_small:
        tiers.append(f"{release.chunk_tokens_small:,} under 70 GB or on an A100")
    return f"{release.chunk_tokens:,} tokens a step" + (f" ({', '.join(tiers)})" if tiers else "")


def release_default_rows() -> list[Source]:
    """Each release's batch limit and, where it chunks prefills, the tokens a step carries, by
    card (vLLM sets both by the card, SGLang its chunk by the card's memory)."""
    return [
        Source(
            f"requests at once and tokens a step, {release.engine} {release.version}",
            f"{release.max_running:,} requests"
            + (f" ({release.max_running_small:,} under 70 GB or on an A100)"
               if release.max_running_small != release.max_running else "")
            + (f"; {_chunk_text(release)}" if release.chunked_prefill else ""),
            "at once on one instance; a lone prompt longer than a step's tokens runs one "
            "forward pass a chunk",
            release.max_running_source
            + (f"; {release.chunked_source}" if release.chunked_prefill else ""),
            kind="engine",
        )
        for releases in ENGINE_VERSIONS.values()
        for release in releases
    ]  # fmt: skip


def prompt_pass_rows() -> list[Source]:
    """Each release that chunks a prompt only past a long context, and the releases whose steps
    carrying a prompt run eagerly (each pass of a lone prompt then pays the engine's dispatch)."""
    # the chunk each such release then carries a pass (its release's own chunk_tokens)
    chunks = {engine_version(e, v).chunk_tokens for e, v in LONG_CONTEXT_CHUNKING}
    long_context = Source(
        "long-context chunking, " + ", ".join(f"{e} {v}" for e, v in sorted(LONG_CONTEXT_CHUNKING)),
        ", ".join(f"{tokens:,}" for tokens in sorted(set(LONG_CONTEXT_CHUNKING.values()))),
        "tokens of context past which the release chunks every prompt ("
        + ", ".join(f"{tokens:,}" for tokens in sorted(chunks))
        + " tokens a pass): a lone prompt runs one forward pass a chunk, each reading the weights",
        LONG_CONTEXT_SOURCE,
        kind="engine",
    )
    eager = Source(
        "prompt steps run eagerly",
        ", ".join(f"{engine} {version}" for engine, version in sorted(EAGER_PROMPT_STEPS)),
        "releases whose every pass of a lone prompt pays the engine's eager dispatch",
        EAGER_PROMPT_SOURCE,
        kind="engine",
    )
    return [long_context, eager]


def release_rows() -> list[Source]:
    """Every engine and release-level row: each engine's first-token path and prefill steps, the
    step an overlap scheduler queues ahead, host work per request, the fused shared expert, AMD's
    kernels, CUDA-graph padding, the shared expert on a second stream, older expert kernels,
    those that launch once per expert and how a lone prompt is split into passes."""
    return [
        *engine_rows(), schedules_ahead_row(), *host_request_rows(), *engine_fact_rows(),
        *shared_stream_rows(), *release_expert_rows(), *expert_launch_rows(),
        *release_default_rows(), *prompt_pass_rows(),
    ]  # fmt: skip
