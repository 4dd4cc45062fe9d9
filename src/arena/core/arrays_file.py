"""Named arrays from an ``.npz`` file, or one line saying why the file is not one.

The engines' data files (the Othello pattern values, opening books) are ``.npz``
archives; a wrong file, a single ``.npy`` array or text must fail in one line that
names the file, never with numpy's traceback.

>>> import tempfile, numpy as np
>>> from pathlib import Path
>>> path = Path(tempfile.mkdtemp()) / "x.npz"
>>> np.savez(path, a=np.arange(3))
>>> read_arrays(path, "a test file")["a"].tolist()
[0, 1, 2]

Tests: tests/core/test_arrays_file.py
"""

from __future__ import annotations

from pathlib import Path
from zipfile import BadZipFile

import numpy as np

UNREADABLE = (OSError, ValueError, EOFError, BadZipFile)
"""What numpy raises for a file that is not an ``.npz`` archive, or a damaged one."""


def read_arrays(path: Path, what: str) -> dict[str, np.ndarray]:
    """Every array of the ``.npz`` file ``path``, by name, read whole (pickled objects
    refused); a file that cannot be read as one raises a one-line :class:`ValueError`:
    ``PATH: not WHAT (why)``."""
    try:
        data = np.load(path, allow_pickle=False)
    except UNREADABLE as exc:
        raise ValueError(f"{path}: not {what} ({exc})") from None
    if not hasattr(data, "files"):
        raise ValueError(f"{path}: not {what} (one array, no names)")
    try:
        with data:
            return {name: data[name] for name in data.files}
    except UNREADABLE as exc:  # a damaged member, or a pickled object
        raise ValueError(f"{path}: not {what} ({exc})") from None
