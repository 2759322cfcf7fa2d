"""What the frame runs in the browser, and what it sends the browser again once it is ready."""

from __future__ import annotations

import math

import panel as pn
from bokeh.models import (
    ColumnDataSource,
    DataRange1d,
    FactorRange,
    Label,
    Plot,
    Range1d,
    Span,
)

# The copy runs when the server's answer to the click arrives: the server writes the state on
# screen into the address and sends the same link here ("?query:count", the count making each
# answer new), so the copy never races a slow server. The answer comes well inside the
# browser's few-second allowance for clipboard writes after a click.
COPY_LINK_JS = """
const answer = source.text;  // a hidden StaticText: a div, not a text box
if (!answer) { return; }
const query = answer.slice(0, answer.lastIndexOf(':'));
const url = window.location.origin + window.location.pathname + query;
const done = () => {
  const label = button.label;
  button.label = 'Link copied';
  setTimeout(() => { button.label = label; }, 1500);
};
if (navigator.clipboard && window.isSecureContext) {
  navigator.clipboard.writeText(url).then(done);
} else {
  const area = document.createElement('textarea');
  area.value = url; document.body.appendChild(area); area.select();
  document.execCommand('copy'); document.body.removeChild(area); done();
}
"""


# Panel writes the address with history.pushState, one entry per write. The lab's writes come
# only once the knobs have rested (LINK_DELAY_MS), so each is a state the student chose: a
# preset, a lab switch, a pin, a slider let go. Each new address is an entry, so Back and
# Forward step through them; a write naming the state already shown, and writes in the page's
# first moments (the link read back), replace instead. Back reloads the page at the address it
# lands on, and the lab restores itself from that link. Installed once per window, before
# Panel's first write (which waits for the document to be idle, after this event).
HISTORY_JS = """
if (!window.labKeepsHistory) {
  window.labKeepsHistory = true;
  const push = window.history.pushState.bind(window.history);
  const replace = window.history.replaceState.bind(window.history);
  const opened = performance.now();
  const named = (href) => {
    const address = new URL(href, window.location.href);
    const pairs = [...address.searchParams.entries()].map((pair) => pair.join('=')).sort();
    return address.pathname + '?' + pairs.join('&');
  };
  window.history.pushState = (state, title, url) => {
    const same = named(url) === named(window.location.href);
    const reading = performance.now() - opened < 1500;  // the link read back as the page opens
    (same || reading ? replace : push)(state, title, url);
  };
  window.addEventListener('popstate', () => window.location.reload());
}
"""


# The numeric properties a lab sets per configuration, sent again by nudging them and back.
_NUDGED = (
    (Range1d, ("start", "end")),
    (DataRange1d, ("start", "end")),
    (Span, ("location",)),
    (Label, ("x", "y")),
    (Plot, ("height",)),
)


def resend_charts(doc) -> None:
    """Send every chart's data and categories again, once the browser has drawn its page.

    The first page comes from a kept session at the route's defaults; the session built for
    the browser then applies the link, and Panel syncs the two by their differences. Chart
    data set while the browser was still drawing the kept page was lost on the way (a shared
    link's second visitor saw the default model's memory ledger), so it is sent again here,
    emptied and refilled (ranges nudged and put back) so that Bokeh sees a change.
    """
    with pn.io.hold(doc):
        for model in list(doc.models):
            if isinstance(model, ColumnDataSource):
                data = dict(model.data)
                model.data = {name: [] for name in data}
                model.data = data
            elif isinstance(model, FactorRange):
                factors = list(model.factors)
                model.factors = []
                model.factors = factors
            else:  # ranges, marker lines and chart heights set for the link (the ledger's)
                names = [
                    name for kind, names in _NUDGED if isinstance(model, kind) for name in names
                ]
                for name in names:
                    value = getattr(model, name)
                    if isinstance(value, int | float) and math.isfinite(value):
                        setattr(model, name, value + 1)
                        setattr(model, name, value)
