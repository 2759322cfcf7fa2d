"""What the lab's server refuses to do: import a module a URL names, or log raw request text.

Behaviours of the stack that a server on a campus network must not keep:

* Panel's ``/components/<module>/<class>/<attribute>/<file>`` route imports whatever installed
  module the URL names before checking anything (``/components/this/...`` prints the Zen of
  Python into the log, ``/components/app/...`` builds a whole lab). No page of the lab asks
  for a component resource, so the route answers 404 unless the module is one the server has
  already imported from Panel, Bokeh or the lab itself; nothing is imported on request.
* Log messages carry request text verbatim: Panel reports an unparsable query value with
  the query key unescaped (a key holding a newline writes a second, forged log line) and the
  value whole (tens of kilobytes). Every record is reduced to one line, control characters
  escaped, and cut to ``MAX_LOG_CHARS``.
* Panel decodes some query values as UTF-8 while building a session (``theme``, for its
  design and for the key of a kept first page), so ``?theme=%FF`` answered 500. A page
  request's query values that are not UTF-8 are replaced, before Panel reads them, by
  their readable form (U+FFFD for each bad byte); the lab then shows the page with its
  usual notice for a setting it does not read.
"""

from __future__ import annotations

import logging
import re
import sys
import time
from collections import OrderedDict

from panel.io import server as panel_server
from tornado.web import HTTPError

# Top-level packages whose already-imported modules may serve a listed component resource.
COMPONENT_PACKAGES = ("panel", "bokeh", "labs")

# Longest log message kept whole; a query problem needs far less to be diagnosed.
MAX_LOG_CHARS = 600

_CONTROL = re.compile(r"[\x00-\x1f\x7f\u0085\u2028\u2029]")

# Loggers whose warnings are refusals of a client (signed tokens, budgets, passwords, 4xx).
REFUSAL_LOGGERS = ("labs.server", "labs.server.login", "tornado.access")
REPEAT_S = 60.0  # one line per client and kind of refusal per this long
_TIMING = re.compile(r"\s[\d.]+ms$")  # tornado.access's request time: not part of the kind


class ImportedComponentsOnly(panel_server.ComponentResourceHandler):
    """Panel's component-resource route, limited to modules already imported by the lab."""

    def parse_url_path(self, path: str) -> str:
        module = path.split("/", 1)[0]
        if module.split(".", 1)[0] not in COMPONENT_PACKAGES or module not in sys.modules:
            raise HTTPError(404)
        return super().parse_url_path(path)


def close_component_imports() -> None:
    """Serve ``/components/...`` with :class:`ImportedComponentsOnly` in this process."""
    panel_server.ComponentResourceHandler = ImportedComponentsOnly


def one_line(text: str, limit: int = MAX_LOG_CHARS) -> str:
    """``text`` with control characters escaped (``\\n`` as ``\\x0a``), cut to ``limit`` characters."""
    escaped = _CONTROL.sub(lambda match: f"\\x{ord(match.group()):02x}", text)
    if len(escaped) <= limit:
        return escaped
    return f"{escaped[:limit]}... [cut: {len(escaped):,} characters in all]"


class OncePerMinute(logging.Filter):
    """Lets one warning of each text through per ``period_s``; counts the rest into the next.

    A refusal's line names its client, so this is once per client and kind of refusal: a
    client looping on refused websockets wrote thousands of lines in seconds. The first is
    written at once; repeats within the period are counted, and the first line after it
    says how many there were. At most ``max_kinds`` texts are remembered (oldest forgotten).
    """

    def __init__(self, period_s: float = REPEAT_S, clock=time.monotonic, max_kinds: int = 4096):
        super().__init__()
        self.period_s, self.clock, self.max_kinds = period_s, clock, max_kinds
        self.kinds: OrderedDict[str, list] = OrderedDict()  # text -> [last written, held back]

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING or record.exc_info:
            return True
        message = record.getMessage()
        kind = f"{record.name} {_TIMING.sub('', message)}"
        now = self.clock()
        seen = self.kinds.pop(kind, None)
        if seen is not None and now - seen[0] < self.period_s:
            seen[1] += 1
            self.kinds[kind] = seen
            return False
        held = seen[1] if seen is not None else 0
        self.kinds[kind] = [now, 0]
        while len(self.kinds) > self.max_kinds:
            self.kinds.popitem(last=False)
        if held:
            record.msg = f"{message} (and {held:,} more like it since the last such line)"
            record.args = None
        return True


def quiet_refusals() -> None:
    """Write each refusal warning of :data:`REFUSAL_LOGGERS` once per client and minute."""
    for name in REFUSAL_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(each, OncePerMinute) for each in logger.filters):
            logger.addFilter(OncePerMinute())


def safe_log_records() -> None:
    """Make every log record of this process one escaped, bounded line (see the module notes)."""
    make_record = logging.getLogRecordFactory()
    if getattr(make_record, "lab_safe", False):
        return

    def record(*args, **kwargs) -> logging.LogRecord:
        made = make_record(*args, **kwargs)
        try:
            message = made.getMessage()
        except Exception:  # a malformed call is logging's to report, as it would anyway
            return made
        made.msg, made.args = one_line(message), None
        return made

    record.lab_safe = True
    logging.setLogRecordFactory(record)


def readable_arguments(arguments: dict[str, list[bytes]]) -> None:
    """Replace, in place, every value of ``arguments`` that is not UTF-8 by its readable form."""
    for values in arguments.values():
        for index, value in enumerate(values):
            try:
                value.decode("utf-8")
            except UnicodeDecodeError:
                values[index] = value.decode("utf-8", "replace").encode("utf-8")


def readable_query_values() -> None:
    """Make page and autoload requests of this process carry only UTF-8 query values."""
    for handler in (panel_server.DocHandler, panel_server.AutoloadJsHandler):
        prepare = handler.prepare
        if getattr(prepare, "lab_readable", False):
            continue

        async def readable_prepare(self, _prepare=prepare):
            readable_arguments(self.request.query_arguments)
            readable_arguments(self.request.arguments)
            result = _prepare(self)
            if result is not None:
                await result

        readable_prepare.lab_readable = True
        handler.prepare = readable_prepare
