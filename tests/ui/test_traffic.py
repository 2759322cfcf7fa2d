"""In the browser: a link's Azure code hour shows its replay, its peak minute, its goodput, and
the latency badge judging the replay."""

from playwright.sync_api import expect

from core import Scenario, evaluate
from core.traffic.replay import latency_check, replay
from labs.page import format as fmt


def test_a_link_to_the_code_hour_shows_the_replay_beside_the_closed_form(page, lab_url):
    """?traffic=azure-code opens the hour's section with core's replayed p95, goodput and chart."""
    hour = replay(Scenario(traffic="azure-code"))
    page.goto(lab_url + "/pool?traffic=azure-code")
    replayed = page.locator("[data-replayed]")
    expect(replayed).to_be_visible(timeout=30_000)
    expect(replayed).to_have_text(fmt.duration(hour.ttft_p95_s), timeout=30_000)
    expect(page.locator("[data-goodput]")).to_have_text(fmt.percent(hour.goodput, 1))
    expect(page.get_by_text("the busiest second")).to_be_visible()
    # The closed form passes this hour; the latency badge judges the replay, and says so.
    check = latency_check(evaluate(Scenario(traffic="azure-code")), hour)
    badge = page.locator('[data-badge="latency"]')
    expect(badge).to_have_attribute("data-state", "pass" if check.ok else "fail")
    expect(badge).to_contain_text("the replayed hour: p95 first token")
    assert page.console_log.errors == []
