"""The contract every level keeps: the knobs of a scenario, how they resolve, and the Result.

``knobs`` declares :class:`Scenario` (every knob with its bounds and meaning), ``resolve``
turns a scenario into checked arrays a level can compute with, and ``result`` names every
figure a level returns. The whiteboard and the engine level both sit above this wing.
"""

from core.scenario.knobs import KNOBS, Scenario
from core.scenario.result import RESULT_FIELDS, Result

__all__ = ["KNOBS", "RESULT_FIELDS", "Result", "Scenario"]
