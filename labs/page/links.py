"""Shareable links: the page's state lives in the URL query, and a link restores it exactly.

Query keys are parameter names (the Scenario's knobs keep their own names). Values from a
link are parsed by hand, never trusted: a bad value is ignored or clamped into range, and
each one is reported in a visible notice instead of raising.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from html import escape
from urllib.parse import parse_qsl, urlencode

import param
from param.parameterized import batch_call_watchers

from core.catalog.config_json import ConfigError
from core.foundation.validation import describe_range
from core.scenario.knobs import NamedChoice, Scenario, canonical_choice

MAX_VALUE_LENGTH = 64  # longer query values are never a knob value; they are dropped
MAX_CONFIG_LENGTH = 8000  # a pasted config.json, kept compact, is the one long value


@dataclass(frozen=True)
class Binding:
    """One query key and the parameter it stands for."""

    key: str
    owner: param.Parameterized
    name: str
    # A narrower range than the parameter's (the widget's range); a callable gives a range
    # that depends on other settings, read when the link is applied.
    bounds: tuple | Callable[[], tuple] | None = None
    max_length: int = 0  # the longest value read from a link; 0 means MAX_VALUE_LENGTH

    @property
    def spec(self) -> param.Parameter:
        return self.owner.param[self.name]

    @property
    def default(self):
        return self.spec.default

    @property
    def value(self):
        return getattr(self.owner, self.name)

    def limits(self) -> tuple:
        """The range a link's value is clamped to: the binding's own, else the parameter's."""
        bounds = self.bounds() if callable(self.bounds) else self.bounds
        return bounds or self.spec.bounds or (None, None)


def _short(text: str) -> str:
    return text if len(text) <= 24 else text[:21] + "\u2026"


_IGNORE = object()


def parse(binding: Binding, text: str):
    """``(value, notice)`` for a query value: the value to set (``_IGNORE`` to leave it) and what to report."""
    spec = binding.spec
    key = binding.key
    if len(text) > (binding.max_length or MAX_VALUE_LENGTH):
        return _IGNORE, f"{key}: ignored a {len(text):,}-character value"
    if isinstance(spec, param.Boolean):
        if text.lower() in ("1", "true", "yes", "on"):
            return True, ""
        if text.lower() in ("0", "false", "no", "off", ""):
            return False, ""
        return _IGNORE, f"{key}={_short(text)!r} is not on or off: ignored"
    if isinstance(spec, param.Selector):
        options = list(spec.objects)
        if isinstance(spec, NamedChoice):  # a choice as people write it: vLLM, TRT-LLM, TP+EP
            text = canonical_choice(text, options, spec.aliases)
        if text in ("", "none") and None in options:
            return None, ""
        if text in options:
            return text, ""
        shown = ", ".join(str(option) for option in options if option not in (None, ""))
        return _IGNORE, f"{key}={_short(text)!r} is not one of {shown}: ignored"
    if isinstance(spec, param.String):
        return text, ""
    if isinstance(spec, param.Number):
        try:
            number = float(text)
        except ValueError:
            return _IGNORE, f"{key}={_short(text)!r} is not a number: ignored"
        if not math.isfinite(number):
            return _IGNORE, f"{key}={_short(text)!r} is not a finite number: ignored"
        integer = isinstance(spec, param.Integer)
        rounding = ""
        if integer and number != round(number):
            rounding = f"{key}={_short(text)!r} is not a whole number: using {round(number):,}"
        if integer:
            number = round(number)
        low, high = binding.limits()
        clamped = number
        if low is not None and clamped < low:
            clamped = low
        if high is not None and clamped > high:
            clamped = high
        if not integer and spec.inclusive_bounds[0] is False and low is not None and clamped <= low:
            return _IGNORE, f"{key}={_short(text)!r} must be above {low}: ignored"
        clamped = int(clamped) if integer else float(clamped)
        if clamped != number:
            allowed = describe_range((low, high))
            return clamped, f"{key}={_short(text)!r} is outside {allowed}: using {clamped:,}"
        return clamped, rounding
    return _IGNORE, f"{key}: not a setting this page reads"


def serialise(value) -> str:
    """A parameter value as it appears in a link."""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def restore(bindings: Sequence[Binding], query: str) -> list[str]:
    """Apply a query string to the bindings, in their order; return the notices.

    Bindings earlier in the list are applied first, so a preset can load before the
    knobs that were moved after it.
    """
    values = dict(parse_qsl(query.lstrip("?"), keep_blank_values=True))
    by_key = {binding.key: binding for binding in bindings}
    notices = [
        f"{_short(key)}: not a setting this page reads" for key in values if key not in by_key
    ]
    applied = []
    with ExitStack() as stack:
        # The shared scenario, and a lab that asks for it (one that reruns an engine per
        # change), hear the link's knobs once, together, when it has been read. Other owners
        # hear each knob in turn: a preset loads before the knobs after it, a new problem
        # clears what was open before the link opens it again.
        for owner in {id(b.owner): b.owner for b in bindings}.values():
            if isinstance(owner, Scenario) or getattr(owner, "RESTORE_TOGETHER", False):
                stack.enter_context(batch_call_watchers(owner))
        for binding in bindings:
            if binding.key not in values:
                continue
            value, notice = parse(binding, values[binding.key])
            if notice:
                notices.append(notice)
            if value is _IGNORE:
                continue
            try:
                setattr(binding.owner, binding.name, value)
                applied.append((binding, value))
            except ConfigError as error:  # a pasted config.json: say what is wrong with it
                notices.append(f"{binding.key}: {error.message}. The link's model was not used")
            except ValueError:  # a last line of defence: report in the lab's words, never crash
                notices.append(
                    f"{binding.key}={_short(values[binding.key])!r} cannot be used here: ignored"
                )
    # A value its owner put back once the whole link was read (an engine release with another
    # engine, a custom model without its config) was not used: say so.
    notices += [
        f"{binding.key}={_short(values[binding.key])!r} does not fit the link's other settings: "
        "ignored"
        for binding, value in applied
        if getattr(binding.owner, binding.name) != value
    ]
    return notices


def query_for(bindings: Sequence[Binding]) -> str:
    """The query string of the bindings whose value differs from the default ('' when none)."""
    pairs = [
        (b.key, serialise(b.value))
        for b in bindings
        if b.value is not None and b.value != b.default
    ]
    return "?" + urlencode(pairs) if pairs else ""


def notice_html(notices: Sequence[str]) -> str:
    """The visible notice for ignored or clamped link values."""
    if not notices:
        return ""
    items = "".join(f"<li>{escape(text)}</li>" for text in notices)
    return (
        '<div class="lab"><div class="notice" data-url-notice><b>Some settings in this link were '
        f'adjusted.</b><ul class="facts">{items}</ul></div></div>'
    )
