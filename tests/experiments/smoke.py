"""What the experiments' smoke tests share: running one experiment and its one-line errors."""

from __future__ import annotations

import csv
from collections.abc import Callable
from pathlib import Path

import pytest

from arena.cli.main import main

PNG = b"\x89PNG\r\n\x1a\n"
"""The first bytes of every PNG file."""


def experiment(name: str) -> Callable[..., int]:
    """``run(out, *options)``: the exit status of ``arena experiment NAME --out OUT ...``."""

    def run(out: Path, *options: str) -> int:
        return main(["experiment", name, "--out", str(out), "--quiet", *options])

    return run


def one_line_error(status: int, capsys: pytest.CaptureFixture[str], message: str) -> None:
    """The command failed with status 2 and one line on stderr that says ``message``."""
    assert status == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def read_csv(path: Path) -> list[dict[str, str]]:
    """The rows of a CSV table the experiment wrote."""
    with path.open() as handle:
        return list(csv.DictReader(handle))
