"""No page cites a file of the repository that the repository does not hold."""

import re

import pytest

from core import Scenario
from labs.frame.routes import lab_class
from labs.page.cleanup import panel_objects
from tests.paths import ROOT

# A path in the repository's own folders, as a page's text writes it: a path inside another
# project (after its owner/name, as "NVIDIA/TensorRT-LLM docs/...", or inside its own folder,
# as "tensorrt_llm/bench/...") is that project's, not this one's.
CITED = re.compile(
    r"(?<![\w/.-])"
    r"((?:shared|core|labs|bench|tests|docs|assets)/[\w./-]*\w\.(?:md|py|csv|json|jsonl))"
)
ANOTHER_PROJECT = re.compile(r"[\w.-]+/[\w.-]+ $")


def cited_paths(text: str) -> set[str]:
    """The repository paths ``text`` cites, leaving out paths inside another project."""
    return {
        found.group(1)
        for found in CITED.finditer(text)
        if not ANOTHER_PROJECT.search(text[max(0, found.start() - 80) : found.start()])
    }


def page_text(view) -> str:
    """Every text a lab's panes hold when it is built."""
    texts = []
    for item in panel_objects(view):
        value = getattr(item, "object", None)
        if isinstance(value, str):
            texts.append(value)
    return "\n".join(texts)


@pytest.mark.parametrize("key", ["reality", "sources", "frontier"])
def test_every_file_a_page_cites_is_in_the_repository(key):
    """The Reality check, Sources and Frontier pages cite only files the repository holds."""
    text = page_text(lab_class(key)(scenario=Scenario()))
    cited = cited_paths(text)
    missing = sorted(path for path in cited if not (ROOT / path).exists())
    assert missing == [], f"/{key} cites {missing}"
