"""The published cases' predictions kept on disk between server starts (core/evidence/stored.py)."""

import os

import numpy as np
import pytest
from numpy.testing import assert_array_equal

from core.evidence import stored as stored_module
from core.evidence.check_cases_2026 import CHECK_TRT_1X
from core.evidence.fidelity import _check_score, score
from core.evidence.stored import CACHE_DIR_ENV, source_key, stored

TABLE = np.array([[1.5, 2.0], [3.25, 4.0]])


class Counted:
    """A table's computation that counts its calls."""

    def __init__(self, table=TABLE):
        self.table, self.calls = table, 0

    def __call__(self):
        self.calls += 1
        return self.table


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv(CACHE_DIR_ENV, str(folder))
    return folder


def kept_file(folder, name="table"):
    return folder / f"{name}-{source_key()}.npy"


def test_without_a_folder_nothing_is_read_or_written(tmp_path, monkeypatch):
    """Without LAB_CACHE_DIR every call computes and no file appears."""
    monkeypatch.delenv(CACHE_DIR_ENV, raising=False)
    compute = Counted()
    monkeypatch.chdir(tmp_path)
    for _ in range(2):
        assert_array_equal(stored("table", TABLE.shape, compute), TABLE)
    assert compute.calls == 2
    assert list(tmp_path.iterdir()) == []


def test_a_kept_table_is_read_back_bit_for_bit_and_read_only(cache_dir):
    """The second call reads the first one's file: the same bits, no computation, not writable."""
    compute = Counted(np.array([[0.1 + 0.2, np.pi], [1e-300, 7.0]]))
    first = stored("table", (2, 2), compute)
    again = stored("table", (2, 2), compute)
    assert compute.calls == 1
    assert again.tobytes() == first.tobytes()
    assert not again.flags.writeable
    assert kept_file(cache_dir).exists()


@pytest.mark.parametrize(
    "planted",
    [
        b"not a numpy file at all",
        b"",
        "wrong shape",
        "not finite",
        "objects",
    ],
)
def test_a_damaged_or_planted_file_is_ignored_and_replaced(cache_dir, planted):
    """A file that is not a finite float table of the expected shape is computed over."""
    cache_dir.mkdir()
    path = kept_file(cache_dir)
    if isinstance(planted, bytes):
        path.write_bytes(planted)
    elif planted == "wrong shape":
        np.save(path, np.ones(3))
    elif planted == "not finite":
        np.save(path, np.array([[1.0, np.nan], [1.0, 1.0]]))
    else:
        np.save(path, np.array([[{"a": 1}, None], [1, 2]], dtype=object), allow_pickle=True)
    compute = Counted()
    assert_array_equal(stored("table", TABLE.shape, compute), TABLE)
    assert compute.calls == 1
    assert_array_equal(np.load(path, allow_pickle=False), TABLE)


def test_a_planted_pipe_or_huge_file_is_never_read(cache_dir):
    """A named pipe (which would block a read) or a file far larger than the table is skipped."""
    cache_dir.mkdir()
    path = kept_file(cache_dir)
    os.mkfifo(path)
    compute = Counted()
    assert_array_equal(stored("table", TABLE.shape, compute), TABLE)  # returns: no blocking read
    huge = np.zeros((4000, 2))
    np.save(path, huge)  # the right dtype and finite, but not the table's size
    assert_array_equal(stored("table", TABLE.shape, Counted()), TABLE)
    assert compute.calls == 1


def test_a_table_with_a_non_finite_entry_is_returned_but_not_kept(cache_dir):
    """A NaN reaches the caller (who reports it) but never the disk."""
    table = np.array([[1.0, np.inf], [2.0, 3.0]])
    assert_array_equal(stored("table", table.shape, Counted(table)), table)
    assert not kept_file(cache_dir).exists()


def test_an_unwritable_folder_still_gives_the_table(tmp_path, monkeypatch):
    """A folder that cannot be made (a file in its place) costs the start-up, not an error."""
    blocker = tmp_path / "blocker"
    blocker.write_text("a file, not a folder")
    monkeypatch.setenv(CACHE_DIR_ENV, str(blocker / "cache"))
    compute = Counted()
    assert_array_equal(stored("table", TABLE.shape, compute), TABLE)
    assert compute.calls == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["blocker"]


def test_writing_removes_the_same_table_from_older_code_only(cache_dir):
    """A new version's file replaces the old version's of the same name, not other tables."""
    cache_dir.mkdir()
    older, other = cache_dir / "table-0123456789abcdef0123.npy", cache_dir / "other-0123.npy"
    np.save(older, TABLE)
    np.save(other, TABLE)
    stored("table", TABLE.shape, Counted())
    assert sorted(p.name for p in cache_dir.iterdir()) == sorted(
        [kept_file(cache_dir).name, other.name]
    )


def test_the_key_changes_with_any_file_under_core(tmp_path, monkeypatch):
    """Editing, adding or renaming a file under core/ gives another key."""
    (tmp_path / "catalog").mkdir()
    table = tmp_path / "catalog" / "table.csv"
    table.write_text("tokens,seconds\n1,0.5\n")
    monkeypatch.setattr(stored_module, "CORE", tmp_path)
    keys = [source_key.__wrapped__()]
    table.write_text("tokens,seconds\n1,0.6\n")
    keys.append(source_key.__wrapped__())
    (tmp_path / "new.py").write_text("")
    keys.append(source_key.__wrapped__())
    table.rename(tmp_path / "catalog" / "renamed.csv")
    keys.append(source_key.__wrapped__())
    assert len(set(keys)) == 4


def test_a_check_set_scores_the_same_kept_or_computed(cache_dir):
    """A check set's score read from the cache is the one computed without it."""
    computed = score(CHECK_TRT_1X, "engine")
    for _ in range(2):  # written, then read back
        kept = _check_score("trt1x", CHECK_TRT_1X, "engine")
        assert kept.geometric_mean_error == computed.geometric_mean_error
        assert_array_equal(kept.ratios, computed.ratios)
    assert kept_file(cache_dir, "trt1x_engine").exists()
