"""The Reality check lab: both levels of the model against published measurements."""

from labs.reality.lab import RealityLab

__all__ = ["RealityLab"]
