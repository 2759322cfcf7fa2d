"""Screenshots of every lab at its defaults, presets and extremes, for a person to look at.

Not a test: run ``python tests/ui/screenshots.py [base-url] [out-dir]`` against a running
``make serve`` (default http://127.0.0.1:5006, shots/) and open the PNGs.
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from labs.kv.presets import KV_PRESETS  # noqa: E402
from labs.pool.presets import POOL_PRESETS  # noqa: E402
from tests.ui.conftest import CHROMIUM, CHROMIUM_FLAGS  # noqa: E402

SIZES = {"laptop": (1280, 800), "projector": (1920, 1080)}


def pages() -> dict[str, str]:
    """Shot name -> path and query."""
    shots = {"pool": "/?lab=pool"}
    shots.update({f"pool-{p.key}": f"/?lab=pool&preset={p.key}" for p in POOL_PRESETS})
    shots["kv"] = "/?lab=kv"
    shots.update({f"kv-{p.key}": f"/?lab=kv&preset={p.key}" for p in KV_PRESETS})
    shots["kv-extreme"] = "/?lab=kv&sequence_tokens=1000000&requests=1024"
    shots["kv-deepseek"] = "/?lab=kv&model=DeepSeek-V3&gpu=H200&cards=8&weight_dtype=fp8"
    shots["kv-presenter"] = "/?lab=kv&presenter=1"
    shots["prefix"] = "/?lab=prefix"
    shots["prefix-edit-top"] = "/?lab=prefix&state=edited&edit_position=0"
    shots["prefix-edit-last"] = "/?lab=prefix&state=edited&edit_position=1199"
    shots["prefix-large"] = (
        "/?lab=prefix&tier=large&preamble_tokens=32000&state=edited&edit_position=20000"
    )
    shots["batching"] = "/?lab=batching"
    shots["frontier"] = "/?lab=frontier"
    shots["frontier-large-ttft"] = "/?lab=frontier&tier=large&x_axis=ttft&y_axis=cost"
    shots["frontier-held"] = "/?lab=frontier&sweep_cards=0&sweep_cache=0&realism=engine"
    shots["frontier-presenter"] = "/?lab=frontier&presenter=1"
    shots["practice"] = "/?lab=practice"
    shots["reality"] = "/?lab=reality"
    shots["reality-n3"] = "/?lab=reality&case=N3"
    shots["reality-presenter"] = "/?lab=reality&case=T10&presenter=1"
    shots["pool-deepseek-dep"] = (
        "/?lab=pool&model=DeepSeek-R1&gpu=H200&cards=8&weight_dtype=fp8&realism=engine"
        "&layout=dep&engine=sglang"
    )
    shots["pool-gptoss"] = (
        "/?lab=pool&model=gpt-oss-120b&gpu=H100+SXM&cards=1&weight_dtype=mxfp4&realism=engine"
    )
    shots["reality-d21"] = "/?lab=reality&case=D21"
    shots["sources"] = "/?lab=sources"
    shots["presenter"] = "/?lab=pool&presenter=1"
    shots["embed-pool"] = "/pool"
    return shots


def main() -> None:
    base = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:5006"
    out = Path(sys.argv[2] if len(sys.argv) > 2 else ROOT / "shots")
    out.mkdir(parents=True, exist_ok=True)
    only = set(sys.argv[3].split(",")) if len(sys.argv) > 3 else None
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        for size, (width, height) in SIZES.items():
            page = browser.new_page(viewport={"width": width, "height": height})
            errors: list[str] = []

            def record(message, errors=errors):
                if message.type == "error":
                    errors.append(message.text)

            page.on("console", record)
            for name, path in pages().items():
                if only and name not in only:
                    continue
                page.goto(base + path)
                page.wait_for_timeout(2500)
                page.mouse.move(1, 1)
                target = out / f"{name}-{size}.png"
                page.screenshot(path=str(target), full_page=True)
                print(target, "console errors:" if errors else "", *errors)
                errors.clear()
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
