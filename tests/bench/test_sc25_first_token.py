"""Tests for bench/sc25_first_token.py: the artifact's first tokens read and split."""

import numpy as np
from numpy.testing import assert_allclose

from bench.sc25_first_token import first_tokens, split
from bench.sc25_rows import RUNS


def test_split_recovers_a_known_curve():
    """A curve made of a fixed, a per-token and a quadratic part is split back into them."""
    prompts = np.array([100, 400, 1600, 3200, 6400, 12800], dtype=float)
    seconds = 0.14 + 35e-6 * prompts + 6e-9 * np.square(prompts)
    assert_allclose(split(prompts, seconds), [0.14, 35e-6, 6e-9], rtol=1e-6)


def test_first_tokens_take_the_median_of_one_user_runs(tmp_path):
    """Only one-user runs are read, each by its median first token, and the runs of one prompt
    length give their median, in seconds."""
    folder = tmp_path / RUNS / "MI300X_750W" / "exec"
    folder.mkdir(parents=True)
    for answer, median in ((100, 150.0), (200, 160.0), (400, 170.0)):
        (folder / f"run_800-{answer}-1.out").write_text(f"Median TTFT (ms):   {median}\n")
    for users in (4, 16):  # runs of more users queue behind each other: not read
        (folder / f"run_800-100-{users}.out").write_text("Median TTFT (ms):   999.0\n")
    assert first_tokens(tmp_path, "MI300X_750W") == {800: 0.160}
