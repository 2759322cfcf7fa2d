"""Kernel and engine figures of a node, looked up for one scenario or a sweep of them.

:func:`kernel_fields` turns the scenario's card, weight format, model and engine into the
:class:`core.engine_level.node.Node` fields that price expert layers from measured kernel
tables, launch each kind of layer's kernels and charge the engine's per-request costs.
"""

from __future__ import annotations

import numpy as np

from core.catalog import BYTES_PER_WEIGHT, ENGINE_KV_FRACTION, HOST_STEP_S
from core.catalog.checkpoints import kept_bf16_params, kept_embedding_params
from core.catalog.collective_tables import allreduce_table_index, gather_table_index
from core.catalog.dense_gemms import dense_gemm_row
from core.catalog.engine_versions import (
    PRICE_RELEASE_ALLREDUCE,
    PRICE_RELEASE_HOST_COSTS,
    PRICE_RELEASE_REQUEST_HOST,
    newest_version,
)
from core.catalog.engines import ENGINES, TRTLLM_BENCH_BYTES_PER_PARAM
from core.catalog.gemm_tables import gemm_table_index
from core.catalog.gemm_tiles import gemm_tile_rows
from core.catalog.kernels import amd_card, card_family, expert_kernel, kernels_engine
from core.catalog.release_kernels import expert_launch_tokens
from core.engine_level.attention_fields import attention_fields
from core.engine_level.bench_sizing import trtllm_bench_settings
from core.engine_level.formats import dense_format, expert_format
from core.engine_level.gemm_shapes import card_gemms
from core.engine_level.lookups import lookup, lookup_rows, release_field
from core.engine_level.memory import engine_memory_bytes, sglang_reserve_bytes
from core.engine_level.release_defaults import prefill_chunking, running_limit
from core.engine_level.shared_experts import shared_expert_fused, shared_stream_tokens
from core.engine_level.terms import chunked_read_share, kv_replication
from core.foundation.vector import any_true, is_array
from core.scenario.resolve import factorize, pick, tensor_peak
from core.whiteboard.attention import kv_bytes_per_token, kv_numbers_per_layer
from core.whiteboard.pool import decode_read_share

KV_RULES = {"free": 0.0, "total": 1.0, "static": 2.0}


# The tensor rates an expert kernel's compute share may be a share of (ExpertKernel.compute),
# each named by a weight format that multiplies at it; code 0 is the weights' own rate.
EXPERT_RATE_FORMATS = {"": "", "bf16": "bf16", "fp8": "fp8", "fp4": "nvfp4"}


def expert_rate_code(compute: str) -> float:
    """The index of an expert kernel's ``compute`` in :data:`EXPERT_RATE_FORMATS`."""
    return float(list(EXPERT_RATE_FORMATS).index(compute))


def expert_rate_scale(code, gpu, gpus, own_rate):
    """What turns an expert kernel's compute share into a share of the weights' own rate.

    ``code`` indexes :data:`EXPERT_RATE_FORMATS` (kernel_fields' ``expert_rate_code``);
    ``own_rate`` is the card's measured rate for the weights' format (the node's
    ``measured_flops``): a W4A16 kernel's share is of the card's bf16 rate, however fast its
    fp4 tensor cores are.
    """
    if not any_true(code):  # every kernel here multiplies at its weights' own rate
        return 1.0
    rate = own_rate
    for index, name in enumerate(EXPERT_RATE_FORMATS.values()):
        if name:
            rate = np.where(np.equal(code, index), tensor_peak(gpu, gpus, name, "achieved_"), rate)
    return rate / own_rate


def _expert_fields(gpu, weight, shape, engine, version, shapes, pool, expert_parallel) -> dict:
    """The Node's expert-kernel fields, each (card, format, model, release)'s row looked up once;
    a layer's floor holds its kernel's cost for the inputs its two GEMMs walk (gate-up the hidden
    size, down the expert's width, sliced over the cards under tensor parallelism)."""
    field = lookup_rows(
        lambda g, w, name, e, v: expert_kernel(g, expert_format(w, shapes[name]), e, v)[0],
        gpu, weight, shape, engine, version,
    )  # fmt: skip
    floor = field("fixed_s")
    per_input = field("per_input_s")
    if any_true(per_input):
        width = pick(shape, shapes, "intermediate") / np.where(expert_parallel, 1.0, pool.cards)
        floor = floor + per_input * (pick(shape, shapes, "hidden") + width)
    return {
        "expert_fixed_s": floor,
        "expert_bandwidth_share": field("bandwidth_share"),
        "expert_compute_share": field("compute_share"),
        "expert_padding_rows": field("padding_rows"),
        "expert_rate_code": field("compute", expert_rate_code),
    }


def _embedding_table_bytes(pool, shape, shapes):
    """Bytes of the input embedding table a step never reads whole (it looks up its tokens'
    rows): an untied model's, in bf16 as checkpoints keep it (a tied one's is the output head,
    which every step reads)."""
    untied = pick(shape, shapes, "tied_embeddings") == 0
    table = _vocabulary_params(shape, shapes)
    return np.where(untied, table * np.maximum(pool.bytes_weight, BYTES_PER_WEIGHT["bf16"]), 0.0)


def _vocabulary_params(shape, shapes):
    """Parameters of one vocabulary-by-hidden table: the input embedding or the output head."""
    return pick(shape, shapes, "vocab") * pick(shape, shapes, "hidden")


def _launch_tokens(shapes):
    """Tokens a looping expert kernel covers per launch per expert, of (card, weights, model,
    engine, release) names, for :func:`lookup`
    (:func:`core.catalog.release_kernels.expert_launch_tokens`; the release is a catalog one,
    :func:`engine_releases`)."""

    def tokens(gpu, weight, name, engine, version):
        expert_weights = expert_format(weight, shapes[name])
        return expert_launch_tokens(engine, version, expert_weights, amd_card(gpu))

    return tokens


def _gemm_cost_fields(shapes, gpu, weight, shape, engine, version, split) -> dict:
    """The Node's dense GEMM fields: the floor, cost per input and fused quantiser
    (:func:`core.catalog.dense_gemms.dense_gemm_row`) of the dense GEMMs' kernel and of the
    attention projections' (:func:`~core.engine_level.formats.dense_format`), each (card,
    format, model, release, cards each matrix is split over)'s row looked up once, the GEMMs'
    shapes on one card (:func:`~core.engine_level.gemm_shapes.card_gemms`) read where a release
    tuned some."""
    fields = {}
    for attention, prefix in ((False, ""), (True, "attention_")):
        field = lookup_rows(
            lambda g, w, name, e, v, s, attention=attention: dense_gemm_row(
                g, dense_format(shapes[name], w, attention), e, v,
                card_gemms(shapes[name], attention, s),
            ),
            gpu, weight, shape, engine, version, split,
        )  # fmt: skip
        fields[f"{prefix}gemm_floor_s"] = field("floor_s")
        fields[f"{prefix}gemm_input_cost_s"] = field("per_input_s")
        fields[f"{prefix}fused_quant_s"] = field("fused_quant_s")
    return fields


def engine_releases(engine, version):
    """Factorized (engine, release) keys: the ``engine_version`` knob, or each engine's newest."""
    if isinstance(engine, str) and not is_array(version):
        chosen = np.asarray(version, dtype=object).item()
        return engine, newest_version(engine) if chosen is None else chosen
    engines, versions = np.broadcast_arrays(
        np.asarray(engine, dtype=object), np.asarray(version, dtype=object)
    )
    newest = np.vectorize(newest_version, otypes=[object])(engines)
    return factorize(engines), factorize(np.where(np.equal(versions, None), newest, versions))


def max_running(gpu, engine, card_memory_bytes, version=None):
    """The most requests an engine's release (None: its newest) runs at once on one instance."""
    return running_limit(gpu, *engine_releases(engine, version), card_memory_bytes)


def kernel_fields(pool, gpu, weight, engine, layout, shape, shapes, version=None) -> dict:
    """The Node fields for expert kernels, layer kinds, checkpoint formats and the engine.

    ``pool`` is the evaluation's resolved knobs (:class:`core.whiteboard.pool.PoolKnobs`);
    ``gpu``, ``weight``, ``engine``, ``layout`` and ``shape`` are factorized catalog keys and
    ``version`` the ``engine_version`` knob (None: each engine's newest release).
    """
    engine, version = engine_releases(engine, version)

    kept = lookup(lambda w, name: kept_bf16_params(shapes[name], w)
                  + kept_embedding_params(shapes[name], w), weight, shape)  # fmt: skip
    extra = kept * np.maximum(0.0, BYTES_PER_WEIGHT["bf16"] - pool.bytes_weight)
    data_parallel = lookup(lambda name: name == "dep", layout) > 0
    expert_parallel = lookup(lambda name: name in ("ep", "dep"), layout) > 0
    latent = pool.kv_lora_rank > 0
    copies = kv_replication(pool.kv_heads, pool.cards, latent)
    return {
        "kv_copies": np.where(data_parallel, 1.0, copies),
        "data_parallel_attention": data_parallel,
        "gathered_bytes": lookup(_gathered_bytes(shapes), engine, weight, shape),
        "expert_ranks": np.where(expert_parallel, pool.cards, 1.0),
        **_expert_fields(gpu, weight, shape, engine, version, shapes, pool, expert_parallel),
        **_gemm_cost_fields(
            shapes, gpu, weight, shape, engine, version, np.where(data_parallel, 1.0, pool.cards)
        ),
        **attention_fields(pool, gpu, weight, shape, engine, shapes, version),
        "gemm_table": lookup(_gemm_table(shapes), gpu, weight, shape, engine, version),
        "gemm_tile_rows": lookup(_tile_rows(shapes), gpu, weight, shape, engine, version),
        **_head_fields(pool, gpu, engine, version, shape, shapes),
        "expert_launch_tokens": lookup(_launch_tokens(shapes), gpu, weight, shape, engine, version),
        "gather_table": lookup(gather_table_index, gpu, engine),
        "allreduce_table": lookup(allreduce_table_index, gpu, engine),
        "block_fp8": lookup(
            lambda w, name: expert_format(w, shapes[name]) == "fp8_block", weight, shape
        )
        > 0,
        "shared_experts": pick(shape, shapes, "shared_experts"),
        "shared_expert_fused": shared_expert_fused(
            engine,
            version,
            gpu,
            pick(shape, shapes, "experts"),
            pick(shape, shapes, "shared_experts"),
            expert_parallel,
            data_parallel,
        ),
        # the release's limit; the node streams only a DeepSeek-V3-shaped layer's shared expert
        # (latent attention, not fused: FixedCosts._shared_floors)
        "shared_stream_tokens": shared_stream_tokens(gpu, engine, version),
        "bf16_extra_bytes": extra,
        "unstreamed_bytes": _embedding_table_bytes(pool, shape, shapes),
        **_first_token_path(pool, engine),
        "kv_rule": lookup(lambda e: KV_RULES[ENGINES[e].kv_rule], engine),
        **_memory_share_fields(pool),
        # whether the release's profile takes each card's memory outside PyTorch's allocator
        # out of the cache's room (TensorRT-LLM's and vLLM's to 0.6; vLLM's from 0.7 only what
        # grows after its snapshot)
        "counts_outside_allocator": lookup(
            release_field("counts_outside_allocator"), engine, version
        )
        > 0,
        "max_running": running_limit(gpu, engine, version, pool.card_memory),
        "host_step_s": HOST_STEP_S,
        **_release_host_costs(engine, version),
        **prefill_chunking(pool, gpu, engine, version),
        **_bench_settings(pool, gpu, weight, engine, version, latent, data_parallel, shape, shapes),
        # TensorRT-LLM's profiling step runs its fused MoE, whose workspace comes out of the room
        # it then gives the cache (PyTorch backend _util.py: KV = 0.9 x (memory - peak))
        "expert_workspace": lookup(lambda e: e == "tensorrt-llm", engine) > 0,
        "kv_stored_share": _stored_share(pool, engine),
        "read_share": chunked_read_share(
            pool.layers,
            pool.window_layers,
            pool.sliding_window,
            pool.prompt,
            pool.answer,
            pick(shape, shapes, "chunked_attention"),
        )
        * decode_read_share(pool),
    }


def _first_token_path(pool, engine) -> dict:
    """What a new request pays on its way to the cards: the engine's overhead per request and
    per eager launch, its server's path (core.catalog.engines), and the decode steps between
    the scheduler's polls for new requests (SGLang's command's ``--scheduler-recv-interval``,
    1 where it sets none; every other engine's loop takes new requests each step)."""
    return {
        "request_overhead_s": pick(engine, ENGINES, "request_overhead_per_layer_s") * pool.layers,
        "eager_launch_s": pick(engine, ENGINES, "eager_launch_s"),
        "server_path_s": pick(engine, ENGINES, "server_path_s"),
        "poll_interval": np.where(
            lookup(lambda e: e == "sglang", engine) > 0, pool.recv_interval, 1.0
        ),
    }


def _commands_share(pool, default):
    """The share of each card's memory the run's command gives the engine, else ``default``."""
    return np.where(np.isfinite(pool.memory_share), pool.memory_share, default)


def _memory_share_fields(pool) -> dict:
    """The engine's share of each card's memory: its command's where it sets one, else the
    release's own (0.9, and SGLang's reserve by its own rule). Under SGLang a stated
    ``--mem-fraction-static`` leaves the rest of the card, as CUDA counts it, as the reserve."""
    own_reserve = sglang_reserve_bytes(pool.card_memory, pool.cards)
    stated = np.isfinite(pool.memory_share)
    if not any_true(stated):
        return {"kv_fraction": ENGINE_KV_FRACTION, "kv_reserve_bytes": own_reserve}
    share = _commands_share(pool, ENGINE_KV_FRACTION)
    left = (1.0 - share) * engine_memory_bytes(1.0, pool.card_memory)
    return {"kv_fraction": share, "kv_reserve_bytes": np.where(stated, left, own_reserve)}


def _release_host_costs(engine, version) -> dict:
    """Each release's overlap scheduler (the step it queues ahead, always; its hidden host work,
    where the catalog prices it) and all-reduce kernel, where the catalog prices them.

    Left unpriced (:data:`core.catalog.engine_versions.PRICE_RELEASE_HOST_COSTS`,
    :data:`~core.catalog.engine_versions.PRICE_RELEASE_ALLREDUCE`), every release pays the
    one measured all-reduce latency, and the whole host step unless its engine's overlap is
    profiled (``Engine.overlap_profiled``: SGLang's).
    """
    overlapped = lookup(release_field("overlap_scheduler"), engine, version) > 0
    # the step queued ahead delays a new prompt whatever the host's costs (joining.joining), and
    # hides the host's work per request where that is priced (FixedCosts.host_requests_s)
    fields = {"schedules_ahead": overlapped}
    if PRICE_RELEASE_REQUEST_HOST:
        fields["host_request_s"] = lookup(release_field("host_per_request_s"), engine, version)
    # an overlap scheduler hides the host's step where a profile shows the GPU never idle between
    # steps (SGLang's); every release that overlaps, where the catalog prices them all
    profiled = lookup(lambda e: ENGINES[e].overlap_profiled, engine) > 0
    fields["host_overlapped"] = overlapped & (profiled | PRICE_RELEASE_HOST_COSTS)
    if PRICE_RELEASE_ALLREDUCE:
        fields["allreduce_latency_s"] = lookup(
            release_field("allreduce_latency_s"), engine, version
        )
    return fields


def _gathered_bytes(shapes):
    """(engine, weights, model) -> bytes a DEP gather moves per number: TensorRT-LLM's fused MoE
    quantises an NVFP4 MoE's input first (fp4_quantize: the format's bytes), others gather bf16."""
    nvfp4, bf16 = BYTES_PER_WEIGHT["nvfp4"], BYTES_PER_WEIGHT["bf16"]
    return lambda e, w, name: (
        nvfp4 if e == "tensorrt-llm" and expert_format(w, shapes[name]) == "nvfp4" else bf16
    )


def _tile_rows(shapes):
    """(card, weights, model, engine, release) -> the rows its dense GEMMs multiply at least."""
    return lambda g, w, name, e, v: gemm_tile_rows(g, expert_format(w, shapes[name]), e, v)


def _head_tile_rows(gpu, engine, version):
    """(card, engine, release) -> the rows the output head's bf16 GEMM multiplies at least."""
    return gemm_tile_rows(gpu, "bf16", engine, version)


def _head_fields(pool, gpu, engine, version, shape, shapes) -> dict:
    """The output head's GEMM on one card: its parameters (the vocabulary split over the cards;
    the head stays in bf16 in every checkpoint the catalog prices) and the rows it multiplies at
    least (:func:`_head_tile_rows`)."""
    return {
        "head_params": _vocabulary_params(shape, shapes) / pool.cards,
        "head_tile_rows": lookup(_head_tile_rows, gpu, engine, version),
    }


def _gemm_table(shapes):
    """(card, weights, model, engine, release) -> the measured GEMM table of the card's family
    and format, in the kernels the release runs there where measured (AITER's on AMD cards,
    :func:`~core.catalog.kernels.kernels_engine`), else in the engine's own."""
    return lambda g, w, name, e, v: gemm_table_index(
        card_family(g), expert_format(w, shapes[name]), kernels_engine(g, e, v)
    )


def _bench_settings(pool, gpu, weight, engine, version, latent, data_parallel, shape, shapes):
    """The batch ``trtllm-bench`` sizes the engine for (inf for the other engines) and the
    tokens a rank's step may carry (the engine's default where the tool leaves it alone).

    A checkpoint format the tool does not size keeps the release's own batch limit
    (:func:`max_running`). A batch limit the command sets (``pool.batch_limit``) is the tool's
    instead: given ``--max_batch_size`` and ``--max_num_tokens``, ``get_settings``
    (``tensorrt_llm/bench/benchmark/utils/general.py``) uses them and sizes nothing.
    """
    per_param = lookup(
        lambda e, w: TRTLLM_BENCH_BYTES_PER_PARAM.get(w, np.nan) if e == "tensorrt-llm" else np.nan,
        engine, weight,
    )  # fmt: skip
    query_heads = pick(shape, shapes, "query_heads")
    # a latent-attention config.json states its query heads as key/value heads, no head_dim
    heads = np.where(latent, query_heads, pool.kv_heads)
    head_size = np.where(latent, pick(shape, shapes, "hidden") / query_heads, pool.head_dim)
    bench = trtllm_bench_settings(
        pool.params, per_param, pool.bytes_kv, pool.layers - pool.cacheless_layers, heads,
        head_size, pool.cards, pool.card_memory, pool.prompt, pool.answer,
        kv_fraction=_commands_share(
            pool, lookup(release_field("bench_kv_fraction"), engine, version)
        ),
        checkpoint_scale=lookup(release_field("bench_checkpoint_scale"), engine, version),
        ranks=np.where(data_parallel, pool.cards, 1.0),
        chunked_prefill=lookup(release_field("chunked_prefill"), engine, version) > 0,
        # build.py get_benchmark_engine_settings: a format it does not tune keeps the engine's
        # default max_batch_size (DEFAULT_MAX_BATCH_SIZE), the release's own limit
        default_batch=np.where(
            lookup(lambda e: e == "tensorrt-llm", engine) > 0,
            running_limit(gpu, engine, version, pool.card_memory), np.inf,
        ),
    )  # fmt: skip
    pads = lookup(release_field("pads_to_graph_sizes"), engine, version) > 0
    stated = np.isfinite(pool.batch_limit) & (lookup(lambda e: e == "tensorrt-llm", engine) > 0)
    return {
        "bench_batch": np.where(stated, pool.batch_limit, bench.batch),
        "profile_tokens": bench.tokens,
        # a closed loop (trtllm-bench's run, whether or not it sized the batch) replays its CUDA
        # graphs padded; an open one is no run of the tool's
        "graph_padding": pads & np.isfinite(pool.users),
    }


def _stored_share(pool, engine):
    """Bytes the engine stores per cached token over the bytes the windows need (1: the same)."""
    whole = lookup(lambda e: ENGINES[e].keeps_windows_whole, engine) > 0
    numbers = kv_numbers_per_layer(
        pool.kv_heads, pool.head_dim, pool.kv_lora_rank, pool.qk_rope_head_dim
    )
    tokens = pool.prompt + pool.answer
    common = (pool.cacheless_layers, pool.state_bytes, pool.indexer_bytes)
    windowed = kv_bytes_per_token(pool.layers, numbers, pool.bytes_kv, tokens,
                                  pool.sliding_window, pool.window_layers, *common)  # fmt: skip
    stored = kv_bytes_per_token(pool.layers, numbers, pool.bytes_kv, tokens, 0, 0, *common)
    return np.where(whole & (np.asarray(pool.window_layers) > 0), stored / windowed, 1.0)
