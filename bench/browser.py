"""Shared pieces of the browser benchmarks: a lab server to measure, and the in-page probe.

The probe times, inside the page with ``performance.now()``, the interval from a keyboard
step on a slider handle to the moment the lab's headline cards change in the DOM: the whole
round trip through the websocket, the server's recomputation and the browser's render.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.ui.conftest import CHROMIUM, CHROMIUM_FLAGS, free_port, wait_for_port  # noqa: E402

__all__ = ["CHROMIUM", "CHROMIUM_FLAGS", "PROBE_JS", "lab_server", "percentile", "rss_mb"]

# Steps the first slider of the page `count` times (right then left, so the value stays in
# range), waiting `pause_ms` between steps; returns the latency of each step in ms, or null
# for a step whose change never showed within `timeout_ms`.
PROBE_JS = r"""
async ([count, pause_ms, timeout_ms]) => {
  const deep = (root, selector) => {
    const hit = root.querySelector(selector);
    if (hit) return hit;
    for (const element of root.querySelectorAll('*')) {
      if (element.shadowRoot) {
        const found = deep(element.shadowRoot, selector);
        if (found) return found;
      }
    }
    return null;
  };
  const samples = [];
  for (let step = 0; step < count; step++) {
    const handle = deep(document, '.noUi-handle');
    const cards = deep(document, '.cards');
    const root = cards.getRootNode();
    const before = cards.innerHTML;
    const changed = new Promise((resolve) => {
      const observer = new MutationObserver(() => {
        const now = deep(root, '.cards');
        if (now && now.innerHTML !== before) { observer.disconnect(); resolve(performance.now()); }
      });
      observer.observe(root, {subtree: true, childList: true, characterData: true});
      setTimeout(() => { observer.disconnect(); resolve(null); }, timeout_ms);
    });
    const key = (step % 20) < 10 ? 'ArrowRight' : 'ArrowLeft';
    const start = performance.now();
    handle.dispatchEvent(new KeyboardEvent('keydown', {key, bubbles: true}));
    const end = await changed;
    samples.push(end === null ? null : end - start);
    await new Promise((resolve) => setTimeout(resolve, pause_ms));
  }
  return samples;
}
"""


def percentile(values: list[float], fraction: float) -> float:
    """The nearest-rank percentile of ``values``."""
    ordered = sorted(values)
    rank = max(1, round(fraction * len(ordered) + 0.5 - 1e-9))
    return ordered[min(rank, len(ordered)) - 1]


def rss_mb(pid: int) -> float:
    """Resident memory of process ``pid`` in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


@contextlib.contextmanager
def lab_server(*extra: str):
    """Run ``python -m labs.serve`` on a free port; yield (base URL, process)."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "labs.serve", "--port", str(port), *extra],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for_port(port, process)
        time.sleep(0.5)
        yield f"http://127.0.0.1:{port}", process
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
