"""The prefix lab: what a shared preamble saves, and what an edit to it costs."""

from labs.prefix.lab import PrefixLab

__all__ = ["PrefixLab"]
