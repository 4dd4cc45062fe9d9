"""``Report``: what one experiment run writes — CSV tables, PNG figures and ``NAME.md``.

``NAME.md`` starts with the command line that produced it, then holds the
tables (as markdown, with their captions), the figures and any notes, in the
order the experiment wrote them; each table is also a CSV with every digit.

>>> import tempfile, pathlib
>>> out = pathlib.Path(tempfile.mkdtemp())
>>> report = Report(out, "demo", "arena experiment demo --seed 1")
>>> report.table([{"c": 0.5, "visits": 12}, {"c": 1.41, "visits": 30}], "Visits per C.")
>>> (out / "demo.csv").read_text()
'c,visits\\n0.5,12\\n1.41,30\\n'
>>> print((out / "demo.md").read_text())
```sh
arena experiment demo --seed 1
```
<BLANKLINE>
Visits per C.
<BLANKLINE>
|    c | visits |
| ---: | -----: |
|  0.5 |     12 |
| 1.41 |     30 |
<BLANKLINE>

Tests: tests/experiments/test_framework.py
"""

from __future__ import annotations

import csv
import datetime
import io
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from arena.core.errors import ArenaError
from arena.core.install import extra_command


def pyplot() -> Any:
    """matplotlib's pyplot on the Agg backend (files only, no display), imported on demand
    so commands that draw nothing stay fast and work without matplotlib."""
    try:
        import matplotlib
    except ImportError:
        raise ArenaError(
            f"experiments draw with matplotlib, which is not installed: {extra_command('plot')}"
        ) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


RUN_NOTE = re.compile(r"^This run took ([0-9,]+) s \(wall clock\)", re.MULTILINE)
"""How :func:`run_note` starts: the pages' run-time table reads it back."""


def run_note(seconds: float, load: float, cores: int, day: datetime.date) -> str:
    """The last line of every report: how long the run took, and on what.

    >>> print(run_note(188.6, 1.04, 2, datetime.date(2026, 11, 25)))
    This run took 189 s (wall clock) on 2 cores, load average 1.0 at the start, 2026-11-25.
    >>> RUN_NOTE.match(run_note(1234.0, 0.5, 8, datetime.date(2026, 1, 2))).group(1)
    '1,234'
    """
    return (
        f"This run took {seconds:,.0f} s (wall clock) on {cores} core{'s' if cores > 1 else ''}, "
        f"load average {load:.1f} at the start, {day.isoformat()}."
    )


def cell_text(value: Any) -> str:
    """A value as a markdown cell: floats to 4 significant digits, big ones with separators.

    >>> [cell_text(v) for v in (0.123456, 2, 12345.6, None, "a|b", True)]
    ['0.1235', '2', '12,346', '', 'a\\\\|b', 'yes']
    """
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.4g}"
    if isinstance(value, int):
        return f"{value:,}" if abs(value) >= 10000 else str(value)
    return str(value).replace("|", "\\|")


def markdown_table(rows: list[dict[str, Any]]) -> str:
    """Rows as a markdown table: numbers right-aligned, text left-aligned."""
    columns = _columns(rows)
    cells = [[cell_text(row.get(c)) for c in columns] for row in rows]
    numeric = [
        all(isinstance(row.get(c), int | float) or row.get(c) is None for row in rows)
        for c in columns
    ]
    widths = [max(3, len(c), *(len(r[j]) for r in cells)) for j, c in enumerate(columns)]

    def line(values: list[str]) -> str:
        padded = [v.rjust(w) if num else v.ljust(w) for v, w, num in zip(values, widths, numeric)]
        return "| " + " | ".join(padded) + " |"

    rule = ["-" * (w - 1) + ":" if num else "-" * w for w, num in zip(widths, numeric)]
    return "\n".join([line(columns), line(rule), *(line(r) for r in cells)])


def _columns(rows: list[dict[str, Any]]) -> list[str]:
    """Every key of the rows, in order of first appearance."""
    return list(dict.fromkeys(key for row in rows for key in row))


class Report:
    """The files of one run of experiment ``name`` in directory ``out``.

    Nothing is written until the first table, figure or text, so a run that
    fails on bad options leaves no half-made directory behind.
    """

    def __init__(self, out: Path, name: str, command: str, quiet: bool = False) -> None:
        self.out = Path(out)
        self.name = name
        self.command = command
        self.quiet = quiet
        self.files: list[Path] = []
        """Every file written, in order (``NAME.md`` first)."""
        self._parts: list[str] = [f"```sh\n{command}\n```"]
        self._stems: set[str] = set()

    @property
    def markdown(self) -> Path:
        return self.out / f"{self.name}.md"

    def table(self, rows: list[dict[str, Any]], caption: str, stem: str | None = None) -> None:
        """Write ``OUT/STEM.csv`` (default stem: the experiment's name) and the table,
        under its caption, into ``NAME.md``."""
        if not rows:
            raise ArenaError(f"no rows for the table {caption!r}")
        path = self._claim(stem or self.name, ".csv")
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, fieldnames=_columns(rows), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        path.write_text(buffer.getvalue())
        self._append(f"{caption}\n\n{markdown_table(rows)}")

    def figure(self, fig: Any, stem: str | None = None, caption: str = "") -> None:
        """Save a matplotlib figure as ``OUT/STEM.png`` (dpi 120), close it, and show it in
        ``NAME.md`` with the caption below."""
        path = self._claim(stem or self.name, ".png")
        plt = pyplot()
        try:
            fig.savefig(path, dpi=120, bbox_inches="tight")
        finally:
            plt.close(fig)
        self._append(f"![{path.stem}]({path.name})" + (f"\n\n{caption}" if caption else ""))

    def text(self, markdown: str) -> None:
        """A paragraph of markdown in ``NAME.md``."""
        self._append(markdown.strip())

    @contextmanager
    def progress(self, total: int, description: str) -> Iterator[Callable[[int], None]]:
        """A progress bar on stderr while the block runs; yields ``advance(n=1)``.

        Quiet with ``--quiet`` and when stderr is not a terminal (logs, tests).
        """
        if self.quiet or not sys.stderr.isatty():
            yield _ignore
            return
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        bar = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=Console(file=sys.stderr),
            transient=True,
        )
        task = bar.add_task(description, total=total)
        with bar:
            yield lambda n=1: bar.advance(task, n)

    def _claim(self, stem: str, suffix: str) -> Path:
        if stem + suffix in self._stems:
            raise ValueError(f"{stem}{suffix} was already written by this report")
        self._stems.add(stem + suffix)
        self.out.mkdir(parents=True, exist_ok=True)
        path = self.out / f"{stem}{suffix}"
        self._wrote(path)
        return path

    def _append(self, part: str) -> None:
        self._parts.append(part)
        self.out.mkdir(parents=True, exist_ok=True)
        self.markdown.write_text("\n\n".join(self._parts) + "\n")
        self._wrote(self.markdown)

    def _wrote(self, path: Path) -> None:
        if path not in self.files:
            if path == self.markdown:
                self.files.insert(0, path)
            else:
                self.files.append(path)


def _ignore(n: int = 1) -> None:
    """``advance`` when no bar is shown."""
