"""The base of every view of the batching lab: the session it reads, and when it redraws."""

from __future__ import annotations

import panel as pn

from core.simulator.batching import decode_context_tokens
from core.simulator.steps import step_costs
from labs.page.text import LiveHTML

NODE_KNOBS = ("tier", "model", "gpu", "cards", "weight_dtype", "kv_dtype")
WORKLOAD_KNOBS = (
    "batch_size",
    "wait_cap_s",
    "arrival",
    "arrival_rate",
    "prompt_tokens",
    "answer",
    "answer_mean",
    "answer_cap",
    "requests",
    "seed",
)
VIEW_KNOBS = ("policy", "kv_layout")
SPECULATIVE_KNOBS = ("draft_tokens", "acceptance", "draft_cost")
ENGINE_KNOBS = frozenset((*NODE_KNOBS, *WORKLOAD_KNOBS, *VIEW_KNOBS))
RUNS = "runs"  # stands in a view's WATCHES for "the engine ran again"
TAB_MARGIN = (8, 0, 0, 0)  # a view's panel inside the lab's tabs
CHART_HEIGHT = 300  # px of a full-width chart in a tab: room for a long y-axis title


def html_pane(margin=(4, 0)) -> LiveHTML:
    """An empty stretch-wide HTML pane a view fills on refresh."""
    return LiveHTML("", sizing_mode="stretch_width", margin=margin)


class BatchingView(pn.viewable.Viewer):
    """One view of the batching lab: it reads the lab's knobs and engine runs, and redraws itself.

    ``WATCHES`` names the knobs (and :data:`RUNS`) whose change calls :meth:`refresh`;
    the lab dispatches every change once, after the engines have run. A view with
    ``NEEDS_RUNS`` hides while the engine cannot run.
    """

    WATCHES: frozenset = frozenset()
    NEEDS_RUNS = True

    def __init__(self, lab, **params):
        super().__init__(**params)
        self.lab = lab
        self.panel = None  # the view's layout, set by the subclass

    @property
    def scenario(self):
        """The session's shared scenario."""
        return self.lab.scenario

    @property
    def runs(self) -> dict | None:
        """The four engines of the current knobs (None while they cannot run)."""
        return self.lab.engine.runs

    def step_terms(self):
        """``(costs, context)``: the node's step costs and the cache a decoding seat holds on
        average; None when the node cannot hold the model (the headline says why)."""
        try:
            costs = step_costs(self.scenario, self.lab.result)
        except ValueError:
            return None
        return costs, decode_context_tokens(self.lab.prompt_tokens, self.lab.answer_mean)

    def wants(self, changed: set) -> bool:
        """True when a change of ``changed`` (knob names, :data:`RUNS`) concerns this view."""
        return bool(self.WATCHES & changed)

    def refresh(self) -> None:
        """Redraw from the lab's knobs and runs."""
        raise NotImplementedError

    def __panel__(self):
        return self.panel
