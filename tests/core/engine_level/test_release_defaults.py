"""Each release's defaults by the card: its batch limit and the tokens a step carries."""

from __future__ import annotations

import numpy as np
import pytest

from core import GPUS, Scenario
from core.catalog import GIB
from core.catalog.engine_versions import VLLM_SMALL_CARD_CHUNK, engine_version
from core.catalog.prefill_chunking import chunk_tokens
from core.evaluate import engine_node
from core.evidence.release_sources import release_default_rows


def _chunk(gpu: str, engine: str, version: str, **knobs) -> float:
    node = engine_node(Scenario(gpu=gpu, engine=engine, engine_version=version, **knobs))
    return float(node.prefill_chunk_tokens)


def test_vllm_api_server_steps_carry_its_smaller_chunk_on_an_a100_and_small_cards():
    """vLLM 0.10's API server carries its release's chunk on an H100 or an H200 and its smaller
    one on an A100 80GB (large but an A100) and an L40S (under 70 GB), as its batch limit."""
    release = engine_version("vllm", "0.10")
    for gpu in ("H100 SXM", "H200"):
        assert _chunk(gpu, "vLLM", "0.10") == release.chunk_tokens
    for gpu in ("A100 80GB SXM", "L40S"):
        assert _chunk(gpu, "vLLM", "0.10") == VLLM_SMALL_CARD_CHUNK < release.chunk_tokens
    assert _chunk("H100 SXM", "vLLM", "0.8") == engine_version("vllm", "0.8").chunk_tokens


def test_sglang_05_sets_its_chunk_by_the_cards_memory():
    """SGLang 0.5 takes the first memory tier each card is under (an L4's, an L40S's, an H100's
    and an H200's), and its largest chunk above them (an MI300X, a B200)."""
    release = engine_version("sglang", "0.5")
    for gpu in ("L4", "L40S", "A100 40GB SXM", "H100 SXM", "H200", "H20", "MI300X", "B200"):
        memory = GPUS[gpu].memory_bytes
        tier = next((tokens for below, tokens in release.chunk_tiers if memory < below), None)
        assert _chunk(gpu, "SGLang", "0.5") == (tier or release.chunk_tokens), gpu
    assert _chunk("L40S", "SGLang", "0.5") < _chunk("H100 SXM", "SGLang", "0.5")
    assert _chunk("H100 SXM", "SGLang", "0.5") < _chunk("MI300X", "SGLang", "0.5")


def test_a_pasted_card_takes_the_chunk_of_its_own_memory():
    """A card entered by hand with 40 GB under SGLang 0.5 carries the 60 GiB tier's chunk; with
    200 GB, the largest; SGLang 0.4 gives 2,048-token steps only under 25,000 MiB."""
    small = _chunk("custom", "SGLang", "0.5", card_memory_gb=40.0)
    large = _chunk("custom", "SGLang", "0.5", card_memory_gb=200.0)
    assert small == chunk_tokens("sglang", "0.5", False, 40e9) < large
    assert large == engine_version("sglang", "0.5").chunk_tokens
    assert _chunk("custom", "SGLang", "0.4", card_memory_gb=24.0) < _chunk(
        "custom", "SGLang", "0.4", card_memory_gb=30.0
    )
    assert chunk_tokens("sglang", "0.4", True, 25000 * 2**20 - 1) < chunk_tokens(
        "sglang", "0.4", True, 25000 * 2**20
    )


def test_a_sweep_over_cards_gives_each_card_its_own_chunk():
    """A sweep over cards and engines prices each scenario's chunk as it alone does."""
    gpus = np.array(["A100 80GB SXM", "H100 SXM", "L40S", "MI300X"], dtype=object)
    engines = np.array(["vllm", "vllm", "sglang", "sglang"], dtype=object)
    swept = engine_node(Scenario(), gpu=gpus, engine=engines)
    for index, (gpu, engine) in enumerate(zip(gpus, engines, strict=True)):
        alone = engine_node(Scenario(gpu=gpu, engine=engine)).prefill_chunk_tokens
        assert swept.prefill_chunk_tokens[index] == alone, (gpu, engine)


def test_a_lone_long_prompt_on_an_a100_under_vllm_takes_a_pass_a_small_chunk():
    """A 32,000-token prompt alone under vLLM 0.10 takes 16 passes on an A100 (2,048 tokens a
    pass) and 4 on an H100 (8,192), so its first token costs more passes' weight reads."""
    a100 = engine_node(Scenario(gpu="A100 80GB SXM", engine="vLLM", engine_version="0.10"))
    h100 = engine_node(Scenario(gpu="H100 SXM", engine="vLLM", engine_version="0.10"))
    assert a100.prompt_passes(32000.0) == pytest.approx(np.ceil(32000 / VLLM_SMALL_CARD_CHUNK))
    assert h100.prompt_passes(32000.0) == pytest.approx(
        np.ceil(32000 / engine_version("vllm", "0.10").chunk_tokens)
    )


def test_the_sources_table_states_each_releases_defaults_by_card():
    """Every release has a row; vLLM 0.10's names its smaller cards' chunk, SGLang 0.5's its
    memory tiers, each with the release's own source."""
    rows = {row.constant: row for row in release_default_rows()}
    vllm = rows["requests at once and tokens a step, vllm 0.10"]
    assert f"{VLLM_SMALL_CARD_CHUNK:,} under 70 GB or on an A100" in vllm.value
    sglang = rows["requests at once and tokens a step, sglang 0.5"]
    assert "4,096 under 60 GiB" in sglang.value and "_handle_gpu_memory_settings" in sglang.source
    assert "25,000 MiB" in rows["requests at once and tokens a step, sglang 0.4"].value
    assert GIB == 2**30
