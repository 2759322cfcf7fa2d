"""The engine's release: a picker beside the engine's buttons, at the engine level only."""

from __future__ import annotations

import panel as pn

from core.catalog.engine_versions import ENGINE_VERSIONS, newest_version
from labs.page.text import LiveHTML

NEWEST = "newest"  # the picker's word for engine_version=None


def release_options(engine: str) -> dict:
    """The picker's labels for ``engine``'s releases, newest first; the first means None."""
    entries = ENGINE_VERSIONS[engine]
    options = {f"newest ({newest_version(engine)} \u00b7 {entries[-1].runtime})": NEWEST}
    options.update({f"{entry.version} \u00b7 {entry.runtime}": entry.version
                    for entry in reversed(entries)})  # fmt: skip
    return options


def release_picker(scenario):
    """A picker of the chosen engine's releases, kept in step with ``engine_version``."""
    picker = pn.widgets.Select(label="Engine release", sizing_mode="stretch_width")
    note = LiveHTML(
        '<div class="lab small muted">The release behind the figures: its defaults (the most '
        "requests it runs at once, chunked prefill, CUDA graphs) and its scheduler, each from its "
        "release notes or code (core/catalog/engine_versions.py).</div>",
        sizing_mode="stretch_width", margin=(0, 10),
    )  # fmt: skip

    def from_scenario(*_events):
        picker.options = release_options(scenario.engine)
        picker.value = NEWEST if scenario.engine_version is None else scenario.engine_version

    def to_scenario(event):
        chosen = None if event.new in (NEWEST, None) else event.new
        if chosen != scenario.engine_version:
            scenario.engine_version = chosen

    from_scenario()
    scenario.param.watch(from_scenario, ["engine", "engine_version"])
    picker.param.watch(to_scenario, "value")
    return pn.Column(picker, note, sizing_mode="stretch_width", margin=0)
