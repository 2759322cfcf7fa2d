"""A closed session's page, labs and Scenario can be freed by the server."""

import gc
import weakref

import pytest
from panel.links import Callback

from labs.frame.shell import LABS, EmbeddedLab, LabShell, _weak_handler
from labs.page.cleanup import panel_objects, release_js_callbacks


def _released_refs(page):
    for key in LABS:
        page.view(key)
    refs = [weakref.ref(page), weakref.ref(page.scenario)]
    refs += [weakref.ref(view) for view in page.views.values()]
    page.release()
    return refs


def test_released_shell_with_every_lab_is_freed():
    """Once released, a shell that opened every lab leaves nothing alive behind it."""
    refs = _released_refs(LabShell())
    gc.collect()
    assert [ref() for ref in refs] == [None] * len(refs)


@pytest.mark.parametrize("key", ["kv", "prefix", "batching"])
def test_released_embedded_lab_with_editable_sliders_is_freed(key):
    """Labs whose editable sliders register JS callbacks are freed after release."""
    refs = _released_refs(EmbeddedLab(key))
    gc.collect()
    assert [ref() for ref in refs] == [None] * len(refs)


def test_unreleased_lab_is_pinned_by_panels_callback_registry():
    """Without release, Panel's registry keeps the lab alive (why release exists)."""
    page = EmbeddedLab("kv")
    ref = weakref.ref(page.views["kv"])
    objects = panel_objects(page.root)
    assert any(obj in Callback.registry for obj in objects)
    copy_control = panel_objects(page.copy_control)
    del page, objects
    gc.collect()
    assert ref() is not None
    # tidy up so the pinned lab does not outlive this test
    assert release_js_callbacks([*panel_objects(ref()), *copy_control]) >= 1
    del copy_control
    gc.collect()
    assert ref() is None


def test_the_error_handler_panel_keeps_per_session_holds_its_page_weakly():
    """Panel keeps a session's error handler per document and never clears it: it must not hold the page.

    A handler holding the page holds the page's document too, through its models, and the
    entry Panel keys weakly by that document then never goes: every closed session stayed in
    the server's memory (measured: 6 of 6 closed sessions' pages alive, 3 MB each).
    """
    page = EmbeddedLab("pool")
    handler = _weak_handler(page)
    handler(RuntimeError("a test's error"))  # while the page is open: its apology
    assert page.notice.visible
    ref = weakref.ref(page)
    page.release()
    del page
    gc.collect()
    assert ref() is None
    handler(RuntimeError("after the page went"))  # logged, nothing raised
