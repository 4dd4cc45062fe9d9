"""``read_arrays``: the arrays of an ``.npz`` file, and one line for any other file."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from arena.core.arrays_file import read_arrays


def test_it_reads_every_named_array(tmp_path: Path) -> None:
    path = tmp_path / "Some File.npz"
    np.savez_compressed(path, a=np.arange(4), b=np.int64(7))
    arrays = read_arrays(path, "a test file")
    assert sorted(arrays) == ["a", "b"] and arrays["a"].tolist() == [0, 1, 2, 3]
    assert int(arrays["b"]) == 7


def test_other_files_fail_in_one_line_naming_the_file(tmp_path: Path) -> None:
    text = tmp_path / "text.npz"
    text.write_text("hello")
    single = tmp_path / "single.npy"
    np.save(single, np.zeros(3))
    pickled = tmp_path / "pickled.npz"
    np.savez(pickled, a=np.array([{"x": 1}], dtype=object))
    cut = tmp_path / "cut.npz"
    np.savez(cut, a=np.arange(1000))
    cut.write_bytes(cut.read_bytes()[:300])
    for path, why in (
        (text, "not a test file ("),
        (single, "one array, no names"),
        (pickled, "not a test file ("),
        (cut, "not a test file ("),
        (tmp_path / "missing.npz", "No such file"),
    ):
        with pytest.raises(ValueError, match=r"^[^\n]*$") as caught:
            read_arrays(path, "a test file")
        assert str(caught.value).startswith(f"{path}: not a test file") and why in str(caught.value)
