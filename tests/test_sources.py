"""The sources page: every constant and every published figure shown once, with its origin."""

from core import GPUS, sources
from core.evidence.published import (
    CONTINUOUS_BATCHING_TOK_S,
    STATIC_BATCHING_TOK_S,
    batching_sources,
)
from labs.sources.page import sources_html


def test_every_card_has_its_memory_bandwidth_and_price_row():
    """Each catalog card contributes memory, bandwidth, both peaks and a price row."""
    names = [row.constant for row in sources()]
    for gpu in GPUS:
        for part in ("memory", "HBM bandwidth", "bf16 dense", "fp8 dense", "price"):
            assert f"{gpu} {part}" in names


def test_published_figures_appear_once_with_the_benchmark_that_measured_them():
    """The 81 vs 1,900 tok/s row is listed once and credited to the Anyscale benchmark."""
    html = sources_html()
    figure = f"{STATIC_BATCHING_TOK_S:,.0f} vs {CONTINUOUS_BATCHING_TOK_S:,.0f}"
    assert html.count(figure) == 1
    row = next(row for row in batching_sources() if row.value == figure)
    assert "Anyscale" in row.source
    constants = [row.constant for row in (*sources(), *batching_sources())]
    assert len(constants) == len(set(constants))
