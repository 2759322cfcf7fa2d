"""How a release is named and ordered, and which catalog release a source's version text means.

A release is its engine's line (``"0.19"``), a patch release within a line where a fact changed
inside it (``"0.5.6"``: SGLang's block-fp8 layers on CDNA3 moved to Triton GEMMs), or a variant of
a line, named by a suffix: the engine run with a vendor's plugin (``"0.17-atom"``: vLLM with
AMD's ATOM) or with a vendor's kernels switched on (``"0.19-aiter"``: vLLM on ROCm with
``VLLM_ROCM_USE_AITER=1``). A line's own release is its default; a variant sorts just before it,
a patch release after it. A patch release shares its line's facts but those it states itself
(:func:`core.catalog.release_lines.release_line`).
"""

from __future__ import annotations

import re

from core.catalog.engine_versions import ENGINE_VERSIONS, engine_version, versions_of

# variant suffix: what a source's version text says to name it (checked in this order: ATOM's
# texts may name the AITER kernels it runs)
VARIANT_TEXTS = {
    "atom": r"\batom\b",
    # a switch set to 0 names the library off
    "aiter": (
        r"\baiter\b|(?:VLLM_ROCM_USE_AITER|SGLANG_USE_AITER|SGLANG_AITER_MOE|\bCK_MOE)\b(?!=0)"
    ),
}


# a version's first numbers: major.minor (``x`` for "any minor") and, where stated, the patch
_VERSION = r"(\d+)\.(\d+|x)(?:\.(\d+))?"


def _number(text: str) -> tuple[int, int, int]:
    major, minor, patch = re.match(_VERSION, text).groups()
    return int(major), (10**6 if minor == "x" else int(minor)), int(patch or 0)


def release_variant(version: str) -> str:
    """A release's variant suffix (``"atom"``, ``"aiter"``), or ``""`` for a line's own."""
    return version.partition("-")[2]


def is_variant_release(version: str) -> bool:
    """Whether a release is a variant of its line: a vendor's plugin or kernels switched on."""
    return release_variant(version) != ""


def release_key(version: str) -> tuple[int, int, int, int]:
    """A release's place in order: its line, a variant just before the line's own release, a
    patch release after it."""
    return (*_number(version), 0 if is_variant_release(version) else 1)


def version_of_text(engine: str, text: str) -> str:
    """The catalog release that ran a benchmark whose source names ``text`` as its version.

    One rule for every published case: the first ``major.minor`` in the text, with its patch
    number where stated (``1.x`` is the newest 1.* release the catalog knows), maps to the
    newest catalog release at or below it;
    a text older than every release, or naming none, takes the oldest. A text that names a
    variant (AMD's ATOM plugin; vLLM's or SGLang's AITER switch) maps among that variant's
    releases, any other among the engine's own, except that a text naming the library a later
    line of the engine runs anyway (SGLang's 0.5 line runs AITER on AMD cards) maps to that
    line; one that names vLLM's V0 engine (a V1-default release that fell back to V0 for a
    feature V1 lacked) among the releases whose runtime is V0.

    >>> version_of_text("vllm", "0.7.4.dev (V0)")
    '0.6'
    >>> version_of_text("tensorrt-llm", "1.x (PyTorch backend)")
    '1.0'
    >>> version_of_text("vllm", "0.18.1 with the ATOM plugin")
    '0.17-atom'
    >>> version_of_text("vllm", "0.19.0 (ROCm, VLLM_ROCM_USE_AITER=1)")
    '0.19-aiter'
    >>> version_of_text("vllm", "0.8.5 (V0)")
    '0.6'
    >>> version_of_text("sglang", "0.4.6.post1 (ROCm, SGLANG_AITER_MOE=1)")
    '0.4-aiter'
    >>> version_of_text("sglang", "0.5.2 (ROCm, SGLANG_USE_AITER=1)")
    '0.5'
    >>> version_of_text("sglang", "0.5.7 (ROCm)")
    '0.5.6'
    """
    found = re.search(_VERSION, text)
    variant = next(
        (name for name, words in VARIANT_TEXTS.items() if re.search(words, text, re.IGNORECASE)),
        "",
    )
    every = versions_of(engine)
    known = [version for version in every if release_variant(version) == variant] or [
        version for version in every if not is_variant_release(version)
    ]
    if re.search(r"\bV0\b", text):
        runtimes = {entry.version: entry.runtime for entry in ENGINE_VERSIONS[engine]}
        known = [version for version in known if runtimes[version].startswith("V0")] or known
    if found is None:
        return known[0]
    stated = _number(found.group(0))
    at_or_below = [version for version in known if _number(version) <= stated]
    chosen = at_or_below[-1] if at_or_below else known[0]
    # a text naming the library a later line runs anyway means that line itself
    own = [version for version in every if not is_variant_release(version)
           and _number(chosen) < _number(version) <= stated]  # fmt: skip
    if variant and own and engine_version(engine, own[-1]).amd_kernels == variant:
        return own[-1]
    return chosen
