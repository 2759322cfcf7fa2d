"""In the browser: a 2025-26 model from a link, and a config.json pasted into the text box."""

import re
from urllib.parse import urlencode

from playwright.sync_api import expect

from core import Scenario
from core.catalog.config_json import compact_config
from labs.kv.lab import evaluate_kv
from labs.page import format as fmt
from tests.paths import FIXTURES_DIR

CONFIGS = FIXTURES_DIR / "configs"


def test_kv_lab_compares_attention_designs_for_deepseek(page, lab_url):
    """DeepSeek-V3 on 8 H200s in fp8: the KV lab shows its 70,272-byte latent beside MHA and GQA."""
    page.goto(lab_url + "/kv?model=DeepSeek-V3&gpu=H200&cards=8&weight_dtype=fp8")
    token = page.locator('[data-card="one cached token"] .value')
    expect(token).to_contain_text("70,272", timeout=20_000)
    mla = page.locator('[data-variant="MLA"]')
    expect(mla).to_contain_text("this model", timeout=20_000)
    expect(page.locator('[data-variant="MHA"]')).to_contain_text("3,997,696 B")
    assert page.console_log.errors == []


def test_a_link_with_a_pasted_config_runs_it_in_the_pool(page, lab_url):
    """The pool lab restores a pasted gpt-oss config from its link and draws the MoE curve."""
    text = compact_config((CONFIGS / "gpt-oss-120b.json").read_text())
    query = urlencode({"model_config": text, "model": "custom", "weight_dtype": "mxfp4"})
    page.goto(f"{lab_url}/pool?{query}")
    caption = page.locator("[data-moe-caption]")
    expect(caption).to_contain_text("4 of 128 experts", timeout=20_000)
    expect(page.locator("[data-url-notice]")).to_have_count(0)
    assert page.console_log.errors == []


def test_kv_lab_picks_the_card_and_keeps_it_in_the_link(page, lab_url):
    """Choosing H200 in the KV lab's card picker moves its room to core's figure and into the link."""
    page.goto(lab_url + "/kv")
    room = page.locator('[data-card="seats granted"] .note')
    expect(room).to_contain_text("room for", timeout=20_000)
    page.get_by_role("combobox", name="Card", exact=True).select_option("H200")
    expected = evaluate_kv(Scenario(gpu="H200"), 4000, 16)
    expect(room).to_have_text(f"room for {fmt.count(expected.seats_room)}", timeout=10_000)
    expect(page).to_have_url(re.compile(r"gpu=H200"), timeout=15_000)
    assert page.console_log.errors == []


# The MoE chart's top and the highest value of its dense line, as the browser holds them.
MOE_SCALE_JS = """() => {
  for (const doc of Bokeh.documents)
    for (const model of doc._all_models.values()) {
      const axis = (model.below || [])[0];
      if (!axis || !String(axis.axis_label || "").startsWith("batch size")) continue;
      for (const other of doc._all_models.values()) {
        if (other.type !== "ColumnDataSource") continue;
        const data = other.data instanceof Map ? other.data : new Map(Object.entries(other.data));
        if (data.has("dense") && data.has("moe"))
          return {top: model.y_range.end, dense: Math.max(...Array.from(data.get("dense")))};
      }
    }
  return null;
}"""


def test_a_link_to_a_big_mixture_draws_its_moe_curve_on_its_own_scale(page, lab_url):
    """DeepSeek-R1 from a link (fp8, engine level, DEP on 8 H200) is drawn below the chart's top."""
    links = [
        "/?model=DeepSeek-R1&weight_dtype=fp8",
        "/?model=DeepSeek-R1&realism=engine&layout=dep&cards=8&gpu=H200&weight_dtype=fp8",
        "/pool?model=DeepSeek-R1&realism=engine",
    ]
    for link in links:  # later visitors of a route get its kept first page, drawn at defaults
        page.goto(lab_url + link)
        caption = page.locator("[data-moe-caption]").first
        expect(caption).to_contain_text("8 of 256 experts", timeout=20_000)
        page.wait_for_timeout(1500)  # the page drawn, and its charts sent again
        scale = page.evaluate(MOE_SCALE_JS)
        assert scale is not None and scale["dense"] > 600
        assert scale["dense"] < scale["top"] < 1.2 * scale["dense"], link
    assert page.console_log.errors == []
