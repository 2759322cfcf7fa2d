"""What every test run shares: Hypothesis's profiles, and the order pytest-xdist hands out files.

Hypothesis: the default profile ``lab`` tries 50 examples per property (the tests that set
their own ``max_examples`` keep it); ``HYPOTHESIS_PROFILE=thorough`` tries 500.

pytest-xdist (``-n 3 --dist loadfile`` in pyproject.toml) runs each test file whole on one
worker, so a file's module-scoped servers start once and its tests keep their order. The
files are handed out in the order set here: every browser-free file before every browser
file (a worker's Playwright keeps an event loop running in its main thread, which the
browser-free tests never ran beside), and within each kind the slowest files first, so
that no long file starts last while the other worker has nothing left to do.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("lab", max_examples=50, deadline=None)
settings.register_profile("thorough", max_examples=500, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "lab"))

# Files that took the longest (on 2 cores, 6 December 2026, --junitxml totals), slowest first;
# the rest follow in pytest's own order. A file missing here only starts later.
SLOW_FILES = (
    "core/evidence/test_fidelity.py",
    "labs/batching/test_folds.py",
    "labs/page/test_shown.py",
    "labs/page/test_cleanup.py",
    "labs/batching/test_lab.py",
    "labs/frontier/test_lab.py",
    "labs/widgets/test_measurements.py",
    "labs/pool/test_lab.py",
    "labs/server/test_collector.py",
    "labs/reality/test_lab.py",
    "core/test_properties.py",
    "labs/batching/test_modes.py",
    "labs/poll/test_stall.py",
    "ui/test_accessibility.py",
    "ui/test_server_bounds.py",
    "ui/test_poll.py",
    "ui/test_phone.py",
    "ui/test_batching_classroom.py",
    "ui/test_predict_first.py",
    "ui/test_classroom.py",
    "ui/test_server_hygiene.py",
    "ui/test_deploy.py",
    "ui/test_hostile_links.py",
    "ui/test_tour.py",
    "ui/test_keyboard.py",
    "ui/test_links.py",
    "ui/test_login.py",
    "ui/test_serving.py",
    "ui/test_controls.py",
    "ui/test_measurements.py",
    "ui/test_models.py",
    "ui/test_sidebars.py",
    "ui/test_honest_text.py",
    "ui/test_pool.py",
    "ui/test_teach.py",
    "ui/test_shell.py",
    "ui/test_reality.py",
    "ui/test_pins.py",
    "ui/test_report.py",
    "ui/test_frontier.py",
    "ui/test_exports.py",
    "ui/test_practice.py",
)


def _file_order(item) -> tuple[bool, int]:
    path = item.nodeid.split("::", 1)[0].removeprefix("tests/")
    rank = SLOW_FILES.index(path) if path in SLOW_FILES else len(SLOW_FILES)
    return path.startswith("ui/"), rank


def pytest_collection_modifyitems(config, items):
    """Under xdist, order the files as the module docstring says (a stable sort: tests
    inside a file keep their order); a run without xdist keeps pytest's order."""
    if hasattr(config, "workerinput"):
        items.sort(key=_file_order)
