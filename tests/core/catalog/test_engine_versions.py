"""Each engine's releases in the catalog: sourced, ordered, and how a source's version maps."""

from __future__ import annotations

import pytest

from core.catalog.engine_versions import (
    ENGINE_VERSIONS,
    engine_version,
    newest_version,
    versions_of,
)
from core.catalog.engines import ENGINES
from core.catalog.release_kernels import ATOM_PLUGIN_RELEASE
from core.catalog.release_names import is_variant_release, release_key, version_of_text


def test_every_engine_has_releases_oldest_first():
    """Each serving engine has releases, listed oldest first, each its own engine's."""
    assert set(ENGINE_VERSIONS) == set(ENGINES)
    for engine, entries in ENGINE_VERSIONS.items():
        keys = [release_key(entry.version) for entry in entries]
        assert keys == sorted(keys) and len(set(keys)) == len(keys)
        assert all(entry.engine == engine for entry in entries)


def test_every_release_figure_names_its_source():
    """Every release carries a source for what it is and for each figure it states."""
    for entries in ENGINE_VERSIONS.values():
        for entry in entries:
            for name in ("source", "overlap_source", "max_running_source", "chunked_source",
                         "graph_source", "allreduce_source"):  # fmt: skip
                assert len(getattr(entry, name)) > 20, (entry.engine, entry.version, name)
            assert entry.max_running >= entry.max_running_small > 0
            assert 0 < entry.allreduce_latency_s < 1e-4


def test_newest_is_the_last_release_and_the_default():
    """The newest release is the last listed, and a release of None is the newest."""
    for engine in ENGINE_VERSIONS:
        assert newest_version(engine) == versions_of(engine)[-1]
        assert engine_version(engine, None).version == newest_version(engine)


def test_an_unknown_release_is_refused():
    """Asking for a release an engine does not have raises KeyError."""
    with pytest.raises(KeyError):
        engine_version("vllm", "1.0")


@pytest.mark.parametrize(
    ("engine", "text", "release"),
    [
        ("vllm", "0.7.4.dev (V0)", "0.6"),
        ("vllm", "0.9.1 (ROCm 6.4.1)", "0.8"),
        ("vllm", "0.19.0 (ROCm)", "0.19"),
        ("sglang", "0.4.6.post1", "0.4"),
        ("sglang", "0.3.0", "0.3"),
        ("tensorrt-llm", "1.x (PyTorch backend)", "1.0"),
        ("tensorrt-llm", "0.x (NIM 1.8.0)", "0.20"),
        ("tensorrt-llm", "0.17 (trtllm-bench)", "0.17"),
        ("sglang", "0.2.9", "0.3"),
        ("vllm", "unknown", "0.5"),
    ],
)
def test_a_stated_version_maps_to_the_newest_release_at_or_below_it(engine, text, release):
    """The one rule: the newest catalog release at or below the stated one, else the oldest."""
    assert version_of_text(engine, text) == release


@pytest.mark.parametrize(
    ("text", "release"),
    [
        ("0.17.1", "0.14"),
        ("v0.18.0 with the ATOM plugin (rocm/atom-dev:vllm-latest)", ATOM_PLUGIN_RELEASE),
        ("vLLM-ATOM 0.12", ATOM_PLUGIN_RELEASE),
    ],
)
def test_a_text_naming_atom_maps_to_the_plugin_release_and_no_other_does(text, release):
    """vLLM with AMD's ATOM plugin is its own release; a plain version never maps to it."""
    assert version_of_text("vllm", text) == release


def test_the_plugin_release_is_never_the_default():
    """vLLM's newest release, the knob's default, is its own, not the plugin's."""
    assert not is_variant_release(newest_version("vllm"))
    assert ATOM_PLUGIN_RELEASE in versions_of("vllm")


def test_a_recipe_that_switches_aiter_on_names_vllms_aiter_variant():
    """A source naming VLLM_ROCM_USE_AITER maps to vLLM's AITER variant, which runs AITER's
    kernels on AMD cards; the line's own release stays the default and runs vLLM's own."""
    from core.catalog.kernels import kernels_engine
    from core.catalog.release_kernels import VLLM_AITER_RELEASE

    assert version_of_text("vllm", "0.19.0 (ROCm, VLLM_ROCM_USE_AITER=1)") == VLLM_AITER_RELEASE
    assert version_of_text("vllm", "0.19.0 (ROCm)") == newest_version("vllm") == "0.19"
    assert kernels_engine("MI355X", "vllm", VLLM_AITER_RELEASE) == "aiter"
    assert kernels_engine("MI355X", "vllm", "0.19") == "vllm"
    # no such variant: its own line's release (0.5.6, a patch release of the 0.5 line)
    assert version_of_text("sglang", "0.5.9 (ROCm, AITER)") == "0.5.6"


@pytest.mark.parametrize(
    ("text", "release"),
    [
        ("0.4.6.post1 (ROCm, SGLANG_AITER_MOE=1)", "0.4-aiter"),
        ("0.4.4.post1 (ROCm, CK_MOE=1)", "0.4-aiter"),
        ("0.4.8 (ROCm, SGLANG_USE_AITER=1)", "0.4-aiter"),
        ("0.4.8 (ROCm, SGLANG_USE_AITER=0)", "0.4"),
        ("0.4.5 (ROCm)", "0.4"),
        ("0.5.2 (ROCm, SGLANG_USE_AITER=1)", "0.5"),
    ],
)
def test_a_source_naming_sglangs_aiter_switch_maps_to_its_aiter_variant(text, release):
    """An SGLang 0.4 run that set an AITER switch by hand is the 0.4 line's AITER variant, one set
    to 0 or naming none the line itself; a 0.5 run naming the switch is 0.5, which runs AITER."""
    from core.catalog.kernels import kernels_engine

    assert version_of_text("sglang", text) == release
    assert kernels_engine("MI300X", "sglang", release) == (
        "sglang" if release == "0.4" else "aiter"
    )


def test_a_text_naming_v0_maps_among_the_v0_releases():
    """A V1-default release that fell back to V0 (vLLM 0.8.5 with an fp8 cache on ROCm) is
    priced as the newest V0 line; a plain 0.8.5 stays on its own V1 line."""
    assert version_of_text("vllm", "0.8.5 (main; V0: no fp8 cache on ROCm's V1 yet)") == "0.6"
    assert version_of_text("vllm", "0.8.5") == "0.8"
    assert version_of_text("vllm", "0.7.4.dev (V0)") == "0.6"
    assert version_of_text("sglang", "0.5.9 (V0)") == "0.5.6"  # no V0 runtime: its own release


@pytest.mark.parametrize(
    ("text", "release"),
    [("0.5.5.post3", "0.5"), ("0.5.6", "0.5.6"), ("0.5.6.post1", "0.5.6"),
     ("0.5.7 (ROCm)", "0.5.6"), ("0.5.9", "0.5.6"), ("0.5.10", "0.5.10"),
     ("0.5.19 (ROCm 7.0)", "0.5.10"), ("0.5.2 (ROCm, SGLANG_USE_AITER=1)", "0.5")],
)  # fmt: skip
def test_a_stated_patch_number_maps_to_the_newest_patch_release_at_or_below_it(text, release):
    """SGLang's 0.5 line has patch releases (0.5.6, 0.5.10); a text's patch number picks among
    them, a release before the first the line itself."""
    assert version_of_text("sglang", text) == release


def test_a_patch_release_is_its_line_but_for_what_it_changed():
    """SGLang 0.5.6 and 0.5.10 copy the 0.5 line's every field but their name, their words and
    the kernels their block-fp8 GEMMs run on AMD cards; they sort after the line."""
    line = engine_version("sglang", "0.5")
    own = {"version", "runtime", "source", "amd_dense_kernels", "amd_dense_kernels_source"}
    for name in ("0.5.6", "0.5.10"):
        patch = engine_version("sglang", name)
        for field in set(vars(line)) - own:
            assert getattr(patch, field) == getattr(line, field), (name, field)
        assert release_key(name) > release_key("0.5")
    assert engine_version("sglang", "0.5.6").amd_dense_kernels == "aiter-triton"
    assert engine_version("sglang", "0.5.10").amd_dense_kernels == "aiter-triton"
    assert engine_version("sglang", "0.5").amd_dense_kernels == ""
    assert newest_version("sglang") == "0.5.10"
