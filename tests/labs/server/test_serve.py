"""`python -m labs.server.serve`'s own defaults."""

from pathlib import Path

from labs.server.serve import default_cache_dir


def test_the_cache_folder_follows_xdg_else_the_home_cache(monkeypatch, tmp_path):
    """The published cases' predictions are kept under XDG_CACHE_HOME, else ~/.cache."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert default_cache_dir() == tmp_path / "llm-serving-lab"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_cache_dir() == Path(tmp_path / "home" / ".cache" / "llm-serving-lab")
