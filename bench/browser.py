"""Shared pieces of the browser benchmarks: a lab server to measure, and the in-page probe.

The probe times, inside the page with ``performance.now()``, the interval from a change of
a slider's value in the browser (what a drag does) to the moment the lab's headline cards
change in the DOM: the whole round trip through the websocket, the server's recomputation
and the browser's update.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.ui.conftest import CHROMIUM, CHROMIUM_FLAGS, free_port, wait_for_port  # noqa: E402

__all__ = [
    "CHROMIUM",
    "CHROMIUM_FLAGS",
    "PROBED_SLIDER",
    "PROBE_JS",
    "cpu_seconds",
    "lab_server",
    "percentile",
    "probe_args",
    "processes_named",
    "rss_mb",
]

# The slider each route's probe moves: its title (or a tag, for a slider labelled elsewhere)
# and one step of its value.
PROBED_SLIDER = {
    "/": ("Batch size (seats)", 1),
    "/pool": ("Batch size (seats)", 1),
    "/kv": ("Sequence length (tokens)", 0.02),
}


def probe_args(path: str, count: int, pause_ms: int, timeout_ms: int) -> list:
    """Arguments of PROBE_JS for the lab at ``path``."""
    title, step = PROBED_SLIDER[path]
    return [title, step, count, pause_ms, timeout_ms]


# Moves the Bokeh model of the slider titled `title` by `step` (up ten times, then down ten
# times, so it stays in range) `count` times, waiting `pause_ms` between changes, the way a
# drag does; returns each change's latency in ms, or null for one never shown within
# `timeout_ms`.
PROBE_JS = r"""
async ([title, step, count, pause_ms, timeout_ms]) => {
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
  const models = [...Bokeh.documents[0].all_models];
  const named = (model) => model.title === title || (model.tags || []).includes(title);
  const slider = models.find((model) => 'value' in model && 'start' in model && named(model));
  if (!slider) throw new Error(`no slider titled ${title}`);
  const samples = [];
  for (let change = 0; change < count; change++) {
    const cards = deep(document, '.cards');
    const root = cards.getRootNode();
    const before = cards.innerHTML;
    const shown = new Promise((resolve) => {
      const observer = new MutationObserver(() => {
        const now = deep(root, '.cards');
        if (now && now.innerHTML !== before) { observer.disconnect(); resolve(performance.now()); }
      });
      observer.observe(root, {subtree: true, childList: true, characterData: true});
      setTimeout(() => { observer.disconnect(); resolve(null); }, timeout_ms);
    });
    const direction = (change % 20) < 10 ? 1 : -1;
    const start = performance.now();
    slider.value = slider.value + direction * step;
    const end = await shown;
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


def cpu_seconds(pids) -> float:
    """User plus system CPU seconds consumed so far by the processes ``pids``."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError):
            continue
        total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def processes_named(name: str) -> list[int]:
    """Process ids whose command name starts with ``name`` (e.g. the browser's renderers)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip().startswith(name):
                    pids.append(int(entry.name))
            except (FileNotFoundError, ProcessLookupError):
                continue
    return pids


def rss_mb(pid: int) -> float:
    """Resident memory of process ``pid`` in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


@contextlib.contextmanager
def lab_server(*extra: str):
    """Run ``python -m labs.server.serve`` on a free port; yield (base URL, process)."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "labs.server.serve", "--port", str(port), *extra],
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
