"""The batching lab's mixture-of-experts view: weight bytes a step reads against the batch."""

from __future__ import annotations

from core.catalog.custom import scenario_shape
from labs.batching.view import NODE_KNOBS, BatchingView
from labs.widgets.moe_chart import FoldedMoeChart


class MoeView(BatchingView):
    """The read curve of the node's model, marked at the lab's batch size (one line if dense)."""

    WATCHES = frozenset({*NODE_KNOBS, "batch_size"})
    NEEDS_RUNS = False

    def __init__(self, lab, **params):
        super().__init__(lab, **params)
        # A dense model's curve is one flat line: the chart is built once a mixture is shown.
        self.chart = FoldedMoeChart(
            "What a decode step reads: dense against mixture of experts",
            "A mixture of experts holds every expert in memory but reads only those its "
            "batch routes to, so batching costs it more reads than it costs a dense model.",
            margin=(16, 0, 0, 0),
        )
        self.panel = self.chart.__panel__()

    def refresh(self) -> None:
        s = self.scenario
        result = self.lab.result
        self.chart.update(
            scenario_shape(s), s.weight_dtype, result.weight_bytes_per_number,
            self.lab.batch_size, result.cards, result.card_memory_bytes,
        )  # fmt: skip
