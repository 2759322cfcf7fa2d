"""The engine_version knob: its default, its check against the engine, and the engine switch."""

from __future__ import annotations

import numpy as np
import pytest

from core import Scenario, evaluate
from core.catalog.engine_versions import newest_version, versions_of
from core.engine_level.kernels import engine_releases


def test_the_default_is_the_engines_newest_release():
    """engine_version None runs each engine's newest release, and evaluates as naming it."""
    for engine in ("vllm", "sglang", "tensorrt-llm"):
        assert engine_releases(engine, None) == (engine, newest_version(engine))
        base = dict(realism="engine", engine=engine, concurrency=64, seats=256)
        named = evaluate(Scenario(**base, engine_version=newest_version(engine)))
        assert evaluate(Scenario(**base)).throughput_tokens_per_s == pytest.approx(
            named.throughput_tokens_per_s, rel=0
        )


def test_a_release_of_another_engine_is_a_value_error_naming_the_allowed():
    """A release the engine lacks raises ValueError naming the knob, the value and the releases."""
    with pytest.raises(ValueError) as error:
        evaluate(Scenario(realism="engine", engine="vllm"), engine_version="1.0")
    text = str(error.value)
    assert "engine_version" in text and "'1.0'" in text
    assert all(release in text for release in versions_of("vllm"))


def test_a_release_no_engine_has_is_a_value_error():
    """A release unknown to every engine is refused when set."""
    with pytest.raises(ValueError, match="engine_version"):
        Scenario(engine_version="9.9")


def test_a_swept_mismatch_is_refused():
    """Swept engines and releases are checked pair by pair."""
    with pytest.raises(ValueError, match="sglang"):
        evaluate(Scenario(realism="engine"), engine=np.array(["vllm", "sglang"]),
                 engine_version=np.array(["0.6", "0.6"], dtype=object))  # fmt: skip


def test_switching_engine_drops_a_release_it_lacks():
    """Choosing another engine opens it at its newest release, unless it has the one set."""
    scenario = Scenario(engine="vllm", engine_version="0.6")
    scenario.engine = "sglang"
    assert scenario.engine_version is None
    scenario.engine_version = "0.5"
    scenario.engine = "vllm"  # vLLM has a 0.5 too
    assert scenario.engine_version == "0.5"
