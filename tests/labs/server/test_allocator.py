"""The lab server starts itself on the system's malloc, whose free pages go back after a class."""

from __future__ import annotations

import sys

import pytest

from labs.server import allocator, collector, workers


class Relaunched(Exception):
    """Stands for the process being replaced: what ``os.execve`` was asked to run."""


@pytest.fixture
def execve(monkeypatch):
    """``os.execve`` that raises with its arguments instead of replacing the test's process."""

    def replace(path, args, environment):
        raise Relaunched(path, args, environment)

    monkeypatch.setattr(allocator.os, "execve", replace)
    monkeypatch.setattr(collector, "can_return_free_memory", lambda: True)


def test_a_server_on_pymalloc_starts_again_on_malloc_with_its_own_command(execve, monkeypatch):
    """Without PYTHONMALLOC, the same interpreter and command start again with PYTHONMALLOC=malloc."""
    monkeypatch.delenv(allocator.ALLOCATOR_ENV, raising=False)
    monkeypatch.setattr(sys, "orig_argv", ["python", "-m", "labs.server.serve", "--port", "5"])
    with pytest.raises(Relaunched) as started:
        allocator.relaunch_on_system_malloc()
    path, args, environment = started.value.args
    assert path == sys.executable
    assert args == [sys.executable, "-m", "labs.server.serve", "--port", "5"]
    assert environment[allocator.ALLOCATOR_ENV] == allocator.SYSTEM_MALLOC


@pytest.mark.parametrize("chosen", ["malloc", "pymalloc"])
def test_an_allocator_chosen_in_the_environment_is_kept(execve, monkeypatch, chosen):
    """With PYTHONMALLOC set (by the relaunch itself, or by hand) the server goes on as it is."""
    monkeypatch.setenv(allocator.ALLOCATOR_ENV, chosen)
    allocator.relaunch_on_system_malloc()
    assert allocator.chosen() == chosen


def test_without_malloc_trim_the_server_keeps_pymalloc(execve, monkeypatch):
    """Where the C library cannot hand pages back (macOS, musl), nothing is gained: no relaunch."""
    monkeypatch.delenv(allocator.ALLOCATOR_ENV, raising=False)
    monkeypatch.setattr(collector, "can_return_free_memory", lambda: False)
    allocator.relaunch_on_system_malloc()
    assert allocator.chosen() == "pymalloc"


def test_the_worker_line_names_its_allocator(monkeypatch):
    """The line each worker prints as it starts says which allocator it runs on."""
    monkeypatch.setenv(allocator.ALLOCATOR_ENV, "malloc")
    assert workers.settings_line().endswith("allocator malloc")
