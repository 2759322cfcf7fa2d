"""The practice lab: interview challenges drawn on the lab's models, answered and graded."""

from labs.practice.lab import PracticeLab

__all__ = ["PracticeLab"]
