"""In the browser: a pasted hybrid's layer table, and offload growing the pool's tier table."""

from urllib.parse import quote

from playwright.sync_api import expect

from core.catalog.config_json import compact_config
from tests.paths import FIXTURES_DIR

QWEN3_NEXT = FIXTURES_DIR / "configs" / "qwen3-next-80b-a3b.json"


def test_a_pasted_hybrid_and_offload_show_their_tables(page, lab_url):
    """Qwen3-Next's link shows a row per layer kind; host offload adds the host tier's row."""
    config = quote(compact_config(QWEN3_NEXT.read_text()))
    page.goto(f"{lab_url}/?lab=kv&model=custom&model_config={config}&gpu=H200&cards=2")
    kinds = page.locator("[data-layer-kinds]")
    expect(kinds).to_contain_text("linear attention (Gated DeltaNet)", timeout=30_000)
    expect(kinds).to_contain_text("full attention")
    page.goto(f"{lab_url}/?lab=pool&kv_offload=host-pcie")
    tiers = page.locator("[data-tiers]")
    expect(tiers).to_contain_text("host memory over PCIe Gen5", timeout=30_000)
    expect(page.locator("[data-binding]")).to_contain_text("Offload is on")
    assert page.console_log.errors == []
