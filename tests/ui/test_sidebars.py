"""In the browser: no text in the pool, KV and frontier knob columns is cut off, no page too wide."""

import pytest
from playwright.sync_api import expect

# Every text node under the knob column, through shadow roots, whose drawn extent leaves an
# ancestor that clips (overflow other than visible) or the column itself: such text is cut.
CLIPPED_TEXT_JS = r"""() => {
  const deep = (root, found) => {
    for (const element of root.querySelectorAll('*')) {
      if (element.classList.contains('knob-column')) found.push(element);
      if (element.shadowRoot) deep(element.shadowRoot, found);
    }
    return found;
  };
  const texts = (root, found) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) found.push(walker.currentNode);
    for (const element of root.querySelectorAll('*')) {
      if (element.shadowRoot) texts(element.shadowRoot, found);
    }
    return found;
  };
  const up = (node) => node.parentNode instanceof ShadowRoot ? node.parentNode.host : node.parentNode;
  const clipped = [];
  const columns = deep(document, []);
  for (const column of columns) {
    const roots = [column, ...(column.shadowRoot ? [column.shadowRoot] : [])];
    for (const text of roots.flatMap((root) => texts(root, []))) {
      if (!text.textContent.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(text);
      const box = range.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;  // hidden
      for (let node = up(text); node; node = up(node)) {
        if (!(node instanceof Element)) continue;
        const style = getComputedStyle(node);
        if (node === column || style.overflowX !== 'visible') {
          const edge = node.getBoundingClientRect();
          if (box.left < edge.left - 1 || box.right > edge.right + 1) {
            clipped.push(text.textContent.trim().slice(0, 60));
            break;
          }
        }
        if (node === column) break;
      }
    }
  }
  return {columns: columns.length, clipped};
}"""

SCREENS = {
    "1280x800": ({"width": 1280, "height": 800}, ""),
    "1920x1080": ({"width": 1920, "height": 1080}, ""),
    "presenter": ({"width": 1280, "height": 800}, "presenter=1"),
}


@pytest.mark.parametrize("screen", SCREENS)
def test_no_sidebar_label_is_cut_off(browser, lab_url, screen):
    """Every label, button and note of the pool, KV and frontier knob columns fits; no sideways scroll."""
    viewport, query = SCREENS[screen]
    page = browser.new_page(viewport=viewport)
    for route in ("/pool", "/kv", "/frontier"):
        page.goto(f"{lab_url}{route}?{query}")
        expect(page.locator("div.cards").first).to_be_visible(timeout=30_000)
        page.wait_for_timeout(500)
        found = page.evaluate(CLIPPED_TEXT_JS)
        assert found["columns"] == 1, route
        assert found["clipped"] == [], f"{route} at {screen}: {found['clipped']}"
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], f"{route} at {screen} is {width} px wide"
    page.close()
