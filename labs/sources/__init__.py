"""The sources page: where every constant of the model comes from."""

from labs.sources.page import SourcesPage

__all__ = ["SourcesPage"]
