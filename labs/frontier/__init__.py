"""The frontier lab: throughput per card against interactivity over batch, node and precision."""

from labs.frontier.lab import FrontierLab

__all__ = ["FrontierLab"]
