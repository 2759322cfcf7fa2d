"""'Predict first' shows only on a lab that has figures to cover."""

from labs.frame.shell import EmbeddedLab, LabShell


def test_the_toggle_shows_on_predicting_labs_only():
    """Switching labs shows the toggle where the lab covers figures, and hides it elsewhere."""
    shell = LabShell()
    assert shell.predict_toggle.visible  # the pool, the default lab, covers its cards
    for key in ("reality", "kv", "batching", "prefix"):
        shell.lab = key
        assert shell.predict_toggle.visible == hasattr(shell.views[key], "predict"), key
    shell.lab = "batching"
    assert not shell.predict_toggle.visible


def test_an_embedded_lab_without_figures_to_cover_has_no_toggle():
    """The Reality check alone in an iframe shows no 'Predict first'; the KV lab alone does."""
    assert not EmbeddedLab("reality").predict_toggle.visible
    assert EmbeddedLab("kv").predict_toggle.visible
