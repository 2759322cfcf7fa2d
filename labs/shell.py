"""The page around the labs: a header, navigation, and one shared Scenario per session."""

from __future__ import annotations

import importlib

import panel as pn
import param

from core import Scenario
from labs import theme

# Route name -> (navigation label, "module:Viewer"). Modules are imported when a lab is
# first opened, so a session pays only for the labs it visits.
LABS = {
    "pool": ("Pool", "labs.pool:PoolLab"),
    "kv": ("KV cache", "labs.kv:KvLab"),
    "prefix": ("Prefix", "labs.prefix:PrefixLab"),
    "batching": ("Batching", "labs.batching:BatchingLab"),
    "practice": ("Practice", "labs.practice:PracticeLab"),
    "sources": ("Sources", "labs.sources:SourcesPage"),
}


def lab_class(key: str):
    """The Viewer class of lab ``key``."""
    module, name = LABS[key][1].split(":")
    return getattr(importlib.import_module(module), name)


class LabShell(pn.viewable.Viewer):
    """Navigation between the labs; each lab is built the first time it is opened."""

    lab = param.Selector(default="pool", objects=list(LABS), doc="The lab on screen.")

    def __init__(self, scenario: Scenario | None = None, **params):
        super().__init__(**params)
        self.scenario = scenario or Scenario()
        self.views: dict[str, pn.viewable.Viewer] = {}
        self.nav = pn.widgets.RadioButtonGroup.from_param(
            self.param.lab,
            options={label: key for key, (label, _view) in LABS.items()},
            color="light",
            margin=(0, 0),
            label="",
        )
        self.main = pn.Column(self.view(self.lab), sizing_mode="stretch_width", margin=0)
        self.header = pn.Row(
            pn.pane.HTML(
                '<div class="lab header"><span class="brand">LLM Serving Lab</span>'
                '<span class="tagline">run the arithmetic of serving, not just read it</span></div>',
                margin=(6, 12, 0, 0),
            ),
            pn.layout.HSpacer(),
            self.nav,
            styles={"background": "#1f2a52", "padding": "10px 24px", "align-items": "center"},
            sizing_mode="stretch_width",
            margin=0,
        )

    def view(self, key: str):
        """The lab ``key``, built on first use and kept for the session."""
        if key not in self.views:
            self.views[key] = lab_class(key)(scenario=self.scenario)
        return self.views[key]

    @param.depends("lab", watch=True)
    def _switch(self):
        self.main.objects = [self.view(self.lab)]

    def __panel__(self):
        return pn.Column(
            self.header,
            pn.Column(
                self.main, styles={"padding": "16px 24px"}, sizing_mode="stretch_width", margin=0
            ),
            sizing_mode="stretch_width",
            margin=0,
        )


def create_app() -> LabShell:
    """A fresh shell and Scenario for one browser session."""
    theme.extension()
    return LabShell()


def create_embedded(key: str):
    """One lab alone, without the header, for an iframe in a course page."""
    theme.extension()
    return lab_class(key)(scenario=Scenario()).__panel__().clone(styles={"padding": "12px 16px"})
