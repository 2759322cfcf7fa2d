"""axe-core's WCAG 2.0/2.1 A and AA rules on every route: by default, after a famous failure
is loaded, with predict first on, in presenter mode, and on a class poll's pages (issue 36).

One server and one browser page serve the whole file; the labs behind ``/`` are reached by
their tabs, so each state costs one page load. A failure lists every violation: the page and
state, the rule, its impact, the element (axe's target path) and a short excerpt of its HTML.
"""

from __future__ import annotations

import os
import subprocess

import pytest
from playwright.sync_api import expect

from labs.frame.routes import LABS, PAGES
from labs.kv.presets import KV_PRESETS
from labs.pool.presets import POOL_PRESETS
from tests.ui.conftest import ROOT, free_port, lab_command, serving

axe_api = pytest.importorskip("axe_playwright_python.sync_playwright")

PRESENTER = "front row"
WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
AXE_OPTIONS = {"runOnly": {"type": "tag", "values": WCAG_AA}, "resultTypes": ["violations"]}
BUILD_MS = 60_000  # a fresh page builds its whole lab: several seconds on a busy machine
# The page is settled once assets/a11y.js has named its controls and nothing changed for this long.
QUIET_MS = 700
SETTLED_JS = f"""() => {{
  const names = window.labA11y;
  return !!names && names.state.sweeps > 0 && !names.state.pending
    && performance.now() - names.state.last > {QUIET_MS};
}}"""
HTML_EXCERPT = 140
# Labs that cover their headline figures while predict first is on.
PREDICTING = ("pool", "kv", "prefix")


@pytest.fixture(scope="module")
def a11y_url(tmp_path_factory):
    """A lab server with a presenter password (for the poll) and a state folder of its own."""
    state = tmp_path_factory.mktemp("a11y")
    port = free_port()
    env = {key: value for key, value in os.environ.items() if key != "LAB_REDIS_URL"}
    env |= {"LAB_PRESENTER_PASSWORD": PRESENTER, "LAB_STATE_DIR": str(state)}
    process = subprocess.Popen(
        lab_command(port),
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    with serving(process, port) as url:
        yield url


@pytest.fixture(scope="module")
def axe_page(browser):
    """One 1280x800 page for the whole file, and axe-core's runner."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    yield page, axe_api.Axe()
    context.close()


def settle(page) -> None:
    """Wait until the page is built, its controls named and nothing moved for QUIET_MS."""
    page.wait_for_function(SETTLED_JS, timeout=BUILD_MS, polling=100)


def violations(page, axe, where: str) -> list[str]:
    """One readable line per element axe finds breaking a WCAG A/AA rule on ``page``."""
    settle(page)
    found = axe.run(page, options=AXE_OPTIONS).response["violations"]
    if found:  # on a loaded machine a late part may be drawn after the quiet spell: look again
        page.wait_for_timeout(1_500)
        settle(page)
        found = axe.run(page, options=AXE_OPTIONS).response["violations"]
    lines = []
    for rule in found:
        for node in rule["nodes"]:
            # a target inside shadow roots is a list of selectors, one per root, from the page in
            parts = [
                " >> ".join(part) if isinstance(part, list) else part for part in node["target"]
            ]
            target = " | ".join(parts)
            html = " ".join(node["html"].split())[:HTML_EXCERPT]
            lines.append(f"{where}: {rule['id']} ({rule['impact']}) at {target}\n    {html}")
    return lines


def visit(page, axe, url: str, where: str) -> list[str]:
    page.goto(url)
    return violations(page, axe, where)


def tabs(page, axe, keys, state: str) -> list[str]:
    """Every lab in ``keys`` opened by its tab on the page already loaded, checked in turn."""
    found = []
    for key in keys:
        page.get_by_role("button", name=LABS[key][0], exact=True).click()
        page.wait_for_timeout(300)  # the switch reaches the server before the page settles
        found += violations(page, axe, f"/?lab={key} [{state}]")
    return found


def report(found: list[str]) -> str:
    return f"{len(found)} WCAG A/AA violations:\n" + "\n".join(found)


def test_every_route_at_its_defaults_has_no_violation(axe_page, a11y_url):
    """Each route (the whole lab, every embedded lab, the tour) in its default state passes axe."""
    page, axe = axe_page
    found = []
    for route in ["/", *(f"/{key}" for key in LABS), "/tour", *(f"/{key}" for key in PAGES)]:
        found += visit(page, axe, a11y_url + route, f"{route} [default]")
    assert not found, report(found)


def test_a_famous_failure_loaded_has_no_violation(axe_page, a11y_url):
    """The pool's and the KV lab's first famous failure (failing badges, stories) pass axe."""
    page, axe = axe_page
    found = visit(page, axe, f"{a11y_url}/pool?preset={POOL_PRESETS[0].key}", "/pool [preset]")
    found += visit(page, axe, f"{a11y_url}/kv?preset={KV_PRESETS[0].key}", "/kv [preset]")
    assert not found, report(found)


def test_predict_first_has_no_violation(axe_page, a11y_url):
    """With predict first on, every lab that covers its figures (guess boxes, reveal) passes axe."""
    page, axe = axe_page
    found = visit(page, axe, a11y_url + "/?predict=1", "/?lab=pool [predict first]")
    found += tabs(page, axe, PREDICTING[1:], "predict first")
    assert not found, report(found)


def test_presenter_mode_has_no_violation(axe_page, a11y_url):
    """Presenter mode (projector type and colours) on every lab and on the tour passes axe."""
    page, axe = axe_page
    found = visit(page, axe, a11y_url + "/?presenter=1", "/?lab=pool [presenter]")
    found += tabs(page, axe, [key for key in LABS if key != "pool"], "presenter")
    found += visit(page, axe, a11y_url + "/tour?presenter=true", "/tour [presenter]")
    assert not found, report(found)


def test_a_class_poll_has_no_violation(browser, axe_page, a11y_url):
    """The presenter's open poll and a student's poll page, before and after a vote, pass axe."""
    page, axe = axe_page
    page.goto(a11y_url + "/?lab=pool&presenter=1")
    page.get_by_placeholder("presenter password").fill(PRESENTER)
    page.get_by_role("button", name="Unlock").click()
    page.get_by_role("button", name="Open poll").click()
    code = page.locator(".poll-question .code").inner_text(timeout=BUILD_MS).strip()
    found = violations(page, axe, "/?lab=pool [presenter's open poll]")
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        student = context.new_page()
        student.goto(f"{a11y_url}/?lab=pool&poll={code}")
        found += violations(student, axe, f"/?lab=pool&poll={code} [student]")
        student.get_by_role("button", name="A", exact=True).click()
        student.get_by_role("button", name="Vote").click()
        expect(student.locator(".poll-status")).to_contain_text("Your answer A")
        found += violations(student, axe, f"/?lab=pool&poll={code} [student, voted]")
    finally:
        context.close()
    assert not found, report(found)


def test_panel_dark_theme_has_no_violation(axe_page, a11y_url):
    """Panel's dark theme (?theme=dark, a kept first page of its own) keeps every contrast AA."""
    page, axe = axe_page
    found = visit(page, axe, a11y_url + "/pool?theme=dark", "/pool [dark theme]")
    assert not found, report(found)


def test_the_opened_folds_have_no_violation(axe_page, a11y_url):
    """Every fold of the Reality check and the Frontier, opened, passes axe (the tables, the drop zone)."""
    page, axe = axe_page
    found = []
    for route in ("/reality", "/frontier"):
        page.goto(a11y_url + route)
        folds = page.locator(".lab-fold .bk-btn")
        folds.first.wait_for(timeout=30_000)
        for index in range(folds.count()):
            folds.nth(index).click()
        # the drop zone, opened; the folds build their tables on first opening, which can take
        # longer than expect's default limit while the whole suite loads both cores
        expect(page.locator("input[type=file]")).to_have_count(1, timeout=60_000)
        page.wait_for_timeout(800)
        found += violations(page, axe, f"{route} [every fold open]")
    assert not found, report(found)


def test_the_batching_labs_opened_folds_have_no_violation(axe_page, a11y_url):
    """/batching with its folds open (traffic and node knobs, the queue, the deeper views on
    the sweep and on the serving modes) passes axe."""
    page, axe = axe_page
    page.goto(a11y_url + "/batching")
    for fold in ("Traffic, request shape and node", "Requests waiting for a seat",
                 "Eight deeper views, one tab each"):  # fmt: skip
        page.get_by_role("button", name=fold).click(timeout=30_000)
    expect(page.locator(".bk-tab").first).to_be_visible(timeout=15_000)
    page.wait_for_timeout(800)
    found = violations(page, axe, "/batching [every fold open]")
    page.locator(".bk-tab").filter(has_text="Serving modes").click()
    expect(page.get_by_text("Load: one long prompt stalls everyone")).to_be_visible()
    page.wait_for_timeout(800)
    found += violations(page, axe, "/batching [serving modes]")
    assert not found, report(found)
