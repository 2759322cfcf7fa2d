"""The sources page: every constant and every published figure shown once, with its origin."""

from html import escape

import pytest

from core import GPUS, MODELS, sources
from core.evidence.published import (
    CONTINUOUS_BATCHING_TOK_S,
    STATIC_BATCHING_TOK_S,
    batching_sources,
)
from core.evidence.source_groups import KINDS, Source, source_groups
from labs.sources.page import source_cell, sources_html


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


def test_every_row_has_a_kind_and_the_groups_come_in_page_order():
    """Each constant belongs to one known kind, and the page's groups follow KINDS' order."""
    rows = [*sources(), *batching_sources()]
    assert {row.kind for row in rows} <= set(KINDS)
    groups = source_groups(rows)
    assert [group.kind for group in groups] == [
        kind for kind in KINDS if kind in {r.kind for r in rows}
    ]
    assert sum(len(group.rows) for group in groups) == len(rows)
    for kind in ("cards", "models", "engine", "measurements", "published"):
        assert kind in [group.kind for group in groups]


def test_rows_sit_in_the_group_their_figure_belongs_to():
    """Datasheet rows are cards, measured rates are measurements, shapes are models."""
    kind = {row.constant: row.kind for row in sources()}
    for gpu in GPUS:
        assert kind[f"{gpu} memory"] == "cards"
        assert kind[f"{gpu} price"] == "cards"
        assert kind[f"{gpu} measured bandwidth"] == "measurements"
    for name in MODELS:
        assert kind[name] == "models"
    assert kind["engine batch limit under a benchmark"] == "engine"
    assert kind["memory margin"] == "whiteboard"
    assert all(row.kind == "published" for row in batching_sources())


def test_an_unknown_kind_is_refused_by_name():
    """A row of a kind the table does not know raises ValueError naming it."""
    with pytest.raises(ValueError, match="'gossip'"):
        source_groups([Source("x", "1", "u", "s", kind="gossip")])


@pytest.mark.parametrize(
    ("text", "link"),
    [
        ("paper (https://arxiv.org/abs/2405.04434)", "https://arxiv.org/abs/2405.04434"),
        ("see http://example.org/a_b?c=1.", "http://example.org/a_b?c=1"),
        ("javascript:alert(1)", ""),
        ("data:text/html,hi and ftp://example.org/x", ""),
        ("Anyscale blog, June 2023", ""),
    ],
)
def test_only_http_addresses_become_links(text, link):
    """A source's link is its http(s) address without trailing punctuation; other schemes none."""
    assert Source("x", "1", "u", text, kind="models").link == link


def test_source_links_open_in_a_new_tab_and_everything_is_escaped():
    """The address becomes an anchor; markup in a source's text or address is escaped."""
    hostile = Source("x", "1", "u", '<b>a</b> https://e.org/"onmouseover="x <i>', kind="models")
    cell = source_cell(hostile)
    assert "<b>" not in cell and "<i>" not in cell and '"onmouseover' not in cell
    assert cell.count("<a ") == 1
    assert 'href="https://e.org/' in cell
    html = sources_html()
    for row in sources():
        if row.link:
            assert f'href="{row.link}" target="_blank" rel="noopener noreferrer"' in html


def test_the_page_has_a_heading_and_a_table_per_group():
    """Every group's heading appears once, in KINDS' order, each with its own table."""
    html = sources_html()
    headings = [heading for heading, _about in KINDS.values()]
    places = [html.index(f'<h2 style="margin-top:24px">{heading}</h2>') for heading in headings]
    assert places == sorted(places)
    assert html.count("<table") == len(headings)


def test_a_run_of_rows_from_one_source_shares_one_source_cell():
    """A card's datasheet rows show their datasheet once, in a cell spanning them all."""
    card = GPUS["H100 SXM"]
    run = [row for row in sources() if row.source == card.source]
    html = sources_html()
    assert html.count(escape(card.source)) == 1
    assert f"rowspan='{len(run)}'>{escape(card.source)}" in html
