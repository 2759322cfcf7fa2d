"""In the browser: the student's results files on the Reality check and Frontier labs."""

from playwright.sync_api import expect

from tests.paths import FIXTURES_DIR

FIXTURES = FIXTURES_DIR / "benchmarks"
THREE = [FIXTURES / name for name in ("vllm_llama31_8b_c16_detailed.json",
         "guidellm_qwen25_7b_benchmarks.json", "aiperf_run1_profile_export_aiperf.json")]  # fmt: skip


def test_reality_reads_files_and_refuses_bad_ones(page, lab_url, tmp_path):
    """Three fixtures give twelve points in the table; a broken and a 30 MB file get messages."""
    page.goto(lab_url + "/reality?my_gpu=H200")
    drop = page.locator("input[type=file]").first
    expect(page.get_by_text("Your measurements").first).to_be_visible(timeout=30_000)
    drop.set_input_files([str(path) for path in THREE])
    rows = page.locator("[data-mine] tbody tr")
    expect(rows).to_have_count(12, timeout=20_000)
    expect(page.locator("[data-mine]")).to_contain_text("H200")
    drop.set_input_files([str(FIXTURES / "broken_truncated.json")])
    expect(page.locator("[data-file-notice]")).to_contain_text(
        "broken_truncated.json: not JSON", timeout=20_000
    )
    big = tmp_path / "huge.json"
    big.write_bytes(b"{" + b" " * (30 * 1024 * 1024) + b"}")
    drop.set_input_files([str(big)])
    expect(page.locator(".filepond--root")).to_contain_text("File is too large", timeout=20_000)
    expect(rows).to_have_count(12)
    assert page.console_log.errors == []


def test_frontier_draws_the_uploaded_runs(page, lab_url):
    """Dropping files on the Frontier lab redraws its chart with the runs on it."""
    page.goto(lab_url + "/frontier")
    page.get_by_role("button", name="Your measurements").click(timeout=30_000)
    chart = page.locator("canvas").first
    page.wait_for_timeout(500)
    before = chart.screenshot()
    page.locator("input[type=file]").first.set_input_files([str(path) for path in THREE])
    expect(page.locator("[data-file-tile=read]")).to_have_count(3, timeout=20_000)
    page.wait_for_timeout(1500)
    assert chart.screenshot() != before
    assert page.console_log.errors == []


def test_reality_takes_jsonl_files_and_tiles_say_why_one_was_refused(page, lab_url):
    """SGLang's and AIPerf's .jsonl files give points; a broken file's tile is red, with why."""
    page.goto(lab_url + "/reality?my_model=Llama-3-8B")
    expect(page.get_by_text("Your measurements").first).to_be_visible(timeout=30_000)
    names = ("sglang_random_1024_256.jsonl", "aiperf_run1_profile_export.jsonl")
    page.locator("input[type=file]").first.set_input_files([str(FIXTURES / n) for n in names])
    expect(page.locator("[data-mine] tbody tr")).to_have_count(9, timeout=20_000)
    expect(page.locator("[data-file-tile=read]")).to_have_count(2)
    page.locator("input[type=file]").first.set_input_files(
        [str(FIXTURES / "broken_truncated.json")]
    )
    refused = page.locator("[data-file-tile=refused]")
    expect(refused).to_contain_text("broken_truncated.json: not read: not JSON", timeout=20_000)
    background = "el => getComputedStyle(el).backgroundColor"
    assert refused.evaluate(background) != page.locator("[data-file-tile=read]").first.evaluate(
        background
    )  # red, not the green of a file read
    expect(page.locator(".filepond--item")).to_have_count(0, timeout=10_000)  # taken off once read
    page.get_by_role("button", name="Clear my files").click()
    expect(page.locator("[data-file-tile]")).to_have_count(0)
    assert page.console_log.errors == []
