"""Famous failures: a broken configuration with its story, loaded in one click, checked live."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from html import escape

import panel as pn
import param

from core.cache.session_table import hit_rate_beyond_sessions
from core.catalog.custom import scenario_shape
from core.catalog.tier_match import tier_of
from labs.page import format as fmt
from labs.page.text import LiveHTML

NO_PRESET = ""


@dataclass(frozen=True)
class Keep:
    """One promise of a preset's goal: a knob or figure that must stay where the goal says."""

    name: str  # a knob, or a figure the lab reports beside its knobs (such as ``nodes``)
    value: object
    says: str  # the promise in words: "the 70B model", "one node"
    bound: str = "equal"  # "equal", "at least" or "at most"
    covers: tuple[str, ...] = ()  # the knobs this promise speaks for, when ``name`` is a figure

    @property
    def knobs(self) -> tuple[str, ...]:
        """The knobs the goal holds through this promise."""
        return self.covers or (self.name,)

    def holds(self, now: Mapping[str, object]) -> bool:
        """Whether the state ``now`` keeps this promise."""
        value = now.get(self.name)
        if self.bound == "at least":
            return value is not None and value >= self.value
        if self.bound == "at most":
            return value is not None and value <= self.value
        return value == self.value


@dataclass(frozen=True)
class Preset:
    """A configuration that fails in a way worth remembering, and one known way out."""

    key: str
    title: str
    story: str  # what went wrong in production; {placeholders} take the model's figures
    goal: str  # what the student should reach
    hint: str  # a nudge, not the answer
    knobs: Mapping[str, object]  # knob values the preset loads (all others at their defaults)
    fix: Mapping[str, object] = field(default_factory=dict)  # one documented fix: knobs to change
    keep: tuple[Keep, ...] = ()  # what the goal holds fixed: passing without these is no fix
    free: tuple[str, ...] = ()  # the knobs the goal leaves to the student: any value may fix it

    def broken(self, now: Mapping[str, object]) -> list[Keep]:
        """The promises of the goal that the state ``now`` breaks."""
        return [keep for keep in self.keep if not keep.holds(now)]


def promises(preset: Preset) -> str:
    """What the goal keeps, in words, each promise once."""
    return _and(list(dict.fromkeys(keep.says for keep in preset.keep)))


def _and(words: Sequence[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


def changed_knobs(now: Mapping[str, object], loaded: Mapping[str, object]) -> list[str]:
    """Knobs whose value differs from the one the preset loaded."""
    return [name for name in loaded if now.get(name) != loaded[name]]


def judged_state(scenario, result, **knobs) -> dict:
    """Every knob of ``scenario`` (``knobs`` override, for a lab's own) and the figures goals keep.

    ``nodes`` and ``node_cards`` are the pool's node count and cards per node; ``model_class``
    is the walkthrough tier the model is (the exact Llama-3-70B is the 70B tier's model);
    ``hit_rate_beyond_sessions`` is how far the hit-rate knob claims more than multi-turn
    sessions' caches keep (0 without sessions).
    """
    return {
        **scenario.knobs(),
        **knobs,
        "nodes": result.nodes,
        "node_cards": result.cards,
        "model_class": tier_of(scenario_shape(scenario)),
        "hit_rate_beyond_sessions": hit_rate_beyond_sessions(scenario, result),
    }


class PresetPicker(pn.viewable.Viewer):
    """A picker for famous failures, the loaded story, and whether the student has fixed it.

    The lab gives ``apply(knobs)``, which loads knob values; ``reset()``, which returns to
    the defaults; ``describe(knob, value)``, which renders a value for the page; the
    ``defaults`` of the knobs it watches (a preset loads onto them); and optionally
    ``figures(knobs)``, the model's figures for a preset's ``{placeholders}``, and
    ``label(knob)``, the name a student reads for a knob.
    Setting ``preset`` (from the picker, a link or a test) loads it.
    """

    preset = param.Selector(
        default=NO_PRESET, objects=[NO_PRESET], doc="Key of the loaded preset; '' for none."
    )

    def __init__(
        self,
        presets: Sequence[Preset],
        apply: Callable[[Mapping[str, object]], None],
        reset: Callable[[], None],
        describe: Callable[[str, object], str],
        defaults: Mapping[str, object],
        figures: Callable[[Mapping[str, object]], Mapping[str, str]] | None = None,
        label: Callable[[str], str] | None = None,
        **params,
    ):
        super().__init__(**params)
        self.presets = {preset.key: preset for preset in presets}
        self.param.preset.objects = [NO_PRESET, *self.presets]
        self._apply, self._reset, self._describe = apply, reset, describe
        self._label = label or (lambda knob: knob.replace("_", " "))
        self._defaults = dict(defaults)
        self._figures = figures or (lambda knobs: {})
        self._loaded: dict = {}
        self._story_text = ""
        self.fixed = False
        options = {"Choose a famous failure\u2026": NO_PRESET}
        options.update({preset.title: preset.key for preset in presets})
        self.select = pn.widgets.Select.from_param(
            self.param.preset,
            options=options,
            label="",
            description=None,
            sizing_mode="stretch_width",
            margin=(4, 0),
        )
        self.reset_button = pn.widgets.Button(
            label="Reset to defaults", sizing_mode="stretch_width", margin=(4, 0)
        )
        self.reset_button.on_click(self._reset_clicked)
        self.story = LiveHTML("", sizing_mode="stretch_width", margin=(4, 0), visible=False)

    @param.depends("preset", watch=True)
    def _preset_changed(self) -> None:
        if not self.preset:
            self._loaded = {}
            self.story.visible = False
            return
        preset = self.presets[self.preset]
        self._loaded = {**self._defaults, **preset.knobs}
        self._story_text = preset.story.format(**self._figures(preset.knobs))
        self._apply(preset.knobs)

    def load(self, key: str) -> None:
        """Load the preset ``key`` ('' clears the story and leaves the knobs)."""
        self.preset = key

    def _reset_clicked(self, _event) -> None:
        self.preset = NO_PRESET
        self._reset()

    def update(self, passes: bool, failing: Sequence[str], knobs_now: Mapping[str, object]) -> None:
        """Refresh the story box for the current result.

        ``knobs_now`` holds the knobs, and any figure a preset's ``keep`` names.
        """
        if not self.preset:
            self.fixed = False
            return
        preset = self.presets[self.preset]
        broken = preset.broken(knobs_now)
        self.fixed = bool(passes) and not broken
        moved = changed_knobs(knobs_now, self._loaded)
        if moved:
            steps = "; ".join(
                f"{self._label(name)} {self._describe(name, self._loaded[name])} \u2192 "
                f"{self._describe(name, knobs_now.get(name))}"
                for name in moved
            )
            distance = f"You moved {fmt.plural(len(moved), 'knob')} from the preset: {steps}."
        else:
            distance = "You have not moved a knob from the preset yet."
        if self.fixed:
            status = f"<b>Fixed.</b> Every check passes. {escape(distance)}"
        elif passes:
            given_up = _and(list(dict.fromkeys(keep.says for keep in broken)))
            status = (
                f"<b>Passing, but not fixed:</b> every check passes only by giving up "
                f"{escape(given_up)}, which the goal keeps. {escape(distance)}"
            )
        else:
            status = f"<b>Still failing:</b> {escape(', '.join(failing))}. {escape(distance)}"
        state = "fixed" if self.fixed else "gave-up" if passes else "failing"
        self.story.object = (
            f'<div class="lab"><div class="story{" fixed" if self.fixed else ""}" data-preset="{preset.key}" '
            f'data-fixed="{str(self.fixed).lower()}" data-state="{state}">'
            f'<div class="title">{escape(preset.title)}</div><div>{escape(self._story_text)}</div>'
            f'<div class="goal">Goal: {escape(preset.goal)}</div>{self._terms_html(preset)}'
            f'<div class="small muted">Hint: {escape(preset.hint)}</div>'
            f'<div style="margin-top:6px">{status}</div></div></div>'
        )
        self.story.visible = True

    def _terms_html(self, preset: Preset) -> str:
        """The goal both ways: what it keeps, and the knobs on this page it leaves open."""
        free = [self._label(name) for name in self._defaults if name in preset.free]
        keeps = f"Keeps {escape(promises(preset))}." if preset.keep else ""
        opens = f" Yours to change: {escape(_and(free))}." if free else ""
        return f'<div class="small terms" data-terms>{keeps}{opens}</div>'

    def __panel__(self):
        return pn.Column(self.select, self.reset_button, margin=0, sizing_mode="stretch_width")
