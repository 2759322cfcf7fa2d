"""The batching lab: one Viewer per view of the step engine, sharing one session's runs.

``lab`` holds the knobs and dispatches changes; ``session`` the engine runs; ``headline``,
``timeline``, ``sweep``, ``waste``, ``gap``, ``speculative``, ``roofline`` and ``ceiling``
are the views, each with its chart builder beside it; ``controls`` the widgets and
``chart_kit`` what the charts share.
"""

from core.evidence.published_gap import (
    PUBLISHED_GPU,
    PUBLISHED_LAB,
    PUBLISHED_MODEL,
    PUBLISHED_NODE,
)
from labs.batching.lab import BatchingLab

__all__ = ["PUBLISHED_GPU", "PUBLISHED_LAB", "PUBLISHED_MODEL", "PUBLISHED_NODE", "BatchingLab"]
