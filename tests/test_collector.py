"""The lab server's garbage-collector settings."""

import gc

from labs.server import collector


def test_configure_freezes_imports_and_makes_full_collections_rarer():
    """After configure, imported objects are frozen and full collections need 100 young ones."""
    before = gc.get_threshold()
    try:
        collector.configure()
        assert gc.get_threshold() == collector.THRESHOLDS
        assert collector.THRESHOLDS[2] > before[2]
        assert gc.get_freeze_count() > 10_000
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
