"""The labs' routes: each lab's name, label and Viewer, and what each keeps in the shareable link."""

from __future__ import annotations

import importlib

from core import KNOBS, Scenario
from labs.page.links import (
    MAX_CONFIG_LENGTH,
    MAX_VALUE_LENGTH,
    Binding,
)
from labs.widgets.knobs import UI_RANGES

# Route name -> (navigation label, "module:Viewer"). Modules are imported when a lab is
# first opened, so a session pays only for the labs it visits.
LABS = {
    "pool": ("Pool", "labs.pool.lab:PoolLab"),
    "kv": ("KV cache", "labs.kv.lab:KvLab"),
    "prefix": ("Prefix", "labs.prefix.lab:PrefixLab"),
    "batching": ("Batching", "labs.batching:BatchingLab"),
    "frontier": ("Frontier", "labs.frontier.lab:FrontierLab"),
    "practice": ("Practice", "labs.practice.lab:PracticeLab"),
    "reality": ("Reality check", "labs.reality.lab:RealityLab"),
    "sources": ("Sources", "labs.sources.page:SourcesPage"),
}
# Pages with no knobs: nothing to pin or compare, so the pin bar stays hidden there.
PINLESS = frozenset({"sources"})
# Pages beside the labs, at their own route and outside the tabs (route -> what it is):
# no knobs and no link state. labs/server/serve.py builds them.
PAGES = {"teach": "lessons for the instructor"}


def lab_class(key: str):
    """The Viewer class of lab ``key``."""
    module, name = LABS[key][1].split(":")
    return getattr(importlib.import_module(module), name)


def lab_bindings(view, scenario: Scenario) -> list[Binding]:
    """What a lab keeps in the link: its preset first, then the shared knobs, then its own."""
    bindings = []
    presets = getattr(view, "presets", None)
    if presets is not None:
        bindings.append(Binding("preset", presets, "preset"))
    bindings += [
        Binding(knob, scenario, knob, UI_RANGES.get(knob),
                MAX_CONFIG_LENGTH if knob == "model_config" else MAX_VALUE_LENGTH)
        for knob in KNOBS
    ]  # fmt: skip
    keys = getattr(view, "URL_KEYS", {})  # a lab knob named like a shared one gets its own key
    lengths = getattr(view, "URL_MAX_LENGTHS", {})  # free text a lab bounds more tightly
    bindings += [
        Binding(keys.get(name, name), view, name, _link_bounds(view, name), lengths.get(name, 0))
        for name in getattr(view, "URL_PARAMS", ())
    ]
    for prefix, part in url_parts(view):
        bindings += [Binding(prefix + name, part, name) for name in part.URL_PARAMS]
    return bindings


def _link_bounds(view, name: str):
    """The range a lab allows ``name`` given its other settings, if it narrows the parameter's."""
    bounds = getattr(view, "link_bounds", None)
    return None if bounds is None else lambda: bounds(name)


def url_parts(view) -> list[tuple]:
    """(key prefix, part) for each part of a lab that keeps its own knobs in the link."""
    return [(prefix, getattr(view, name)) for prefix, name in getattr(view, "URL_PARTS", ())]
