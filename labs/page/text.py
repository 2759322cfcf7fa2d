"""An HTML pane for text that changes on every knob move.

Panel's HTML pane answers a change of its ``object`` by recomputing every property of its
model (stylesheets and design included, with a file-system check per stylesheet) and
sending them all. Only the text changes here, so only the text is set.
"""

from __future__ import annotations

import panel as pn


class LiveHTML(pn.pane.HTML):
    """``pn.pane.HTML`` whose updates send its text and nothing else.

    ``heading_html``, when set before the pane is drawn, is written above every text the pane
    shows: a section's heading shares its first text's pane (one Bokeh model fewer to build,
    about 1.5 ms of a session's first page each).
    """

    heading_html = ""

    def _transform_object(self, obj):
        if self.heading_html:
            obj = self.heading_html + ("" if obj is None else str(obj))
        return super()._transform_object(obj)

    def _update(self, ref, model) -> None:
        text = self._transform_object(self.object)["object"]
        if model.text != text:
            model.text = text
