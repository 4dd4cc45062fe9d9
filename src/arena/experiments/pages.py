"""The experiment pages in ``docs/``: rerun each from the command it prints, and keep
``docs/experiments.md`` (its run-time table and every number in its text) in step.

Each page ``docs/experiments/NAME/NAME.md`` starts with the command that wrote it, every
option spelt out. That command is the page's source: :func:`regenerate` reruns it
(nice'd, one page after another) into the page's folder, so the figure, the tables and
the run note come from the same run, then rewrites the parts of ``docs/experiments.md``
that quote the pages: the run-time table and the blocks between
``<!-- numbers NAME -->`` and ``<!-- /numbers -->``, made from the page's CSV by
:data:`NUMBERS`. ``scripts/experiment_pages.py`` is the command line::

    .venv/bin/python scripts/experiment_pages.py               # every page, then the text
    .venv/bin/python scripts/experiment_pages.py c-sweep       # one page
    .venv/bin/python scripts/experiment_pages.py --text-only   # the text from the CSVs

>>> page_command("```sh\\narena experiment c-sweep --out x --games 4\\n```\\n")
['arena', 'experiment', 'c-sweep', '--out', 'x', '--games', '4']

Tests: tests/experiments/test_pages.py
"""

from __future__ import annotations

import csv
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from arena.core.errors import ArenaError
from arena.experiments import experiment_names
from arena.experiments.report import RUN_NOTE, cell_text

_SH_BLOCK = re.compile(r"```sh\n(.*?)\n```", re.DOTALL)


def page_path(docs: Path, name: str) -> Path:
    """``docs/experiments/NAME/NAME.md``."""
    return docs / "experiments" / name / f"{name}.md"


def page_command(markdown: str) -> list[str]:
    """The command at the top of a page (its first ``sh`` block), as words."""
    found = _SH_BLOCK.search(markdown)
    if found is None:
        raise ArenaError("the page has no ```sh block with its command")
    words = shlex.split(found.group(1).replace("\\\n", " "))
    if words[:2] != ["arena", "experiment"] or len(words) < 3:
        raise ArenaError(f"the page's command is not 'arena experiment NAME ...': {words[:3]}")
    return words


def with_options(words: Sequence[str], changes: dict[str, str | list[str]]) -> list[str]:
    """``words`` with the values of some options replaced (each must be there already).

    >>> with_options(["a", "--games", "200", "--c", "1,2"], {"--games": "2"})
    ['a', '--games', '2', '--c', '1,2']
    >>> with_options(["a", "--games", "tictactoe", "go"], {"--games": ["tictactoe"]})
    ['a', '--games', 'tictactoe']
    """
    out = list(words)
    for option, value in changes.items():
        if option not in out:
            raise ArenaError(f"the command has no {option}")
        start = out.index(option) + 1
        end = start
        while end < len(out) and not out[end].startswith("--"):
            end += 1
        out[start:end] = [value] if isinstance(value, str) else list(value)
    return out


def run_page(docs: Path, name: str, python: str = sys.executable) -> None:
    """Rerun one page's command, nice'd, into its own folder."""
    words = page_command(page_path(docs, name).read_text())
    if words[2] != name:
        raise ArenaError(f"{page_path(docs, name)} runs experiment {words[2]!r}, not {name!r}")
    # Run from the folder above docs/, so the page prints --out docs/experiments/NAME.
    root = docs.resolve().parent
    out = page_path(docs, name).parent.resolve().relative_to(root)
    words = with_options(words, {"--out": str(out)})
    command = ["nice", "-n", "10", python, "-m", "arena", *words[1:]]
    print("$ " + shlex.join(command), file=sys.stderr, flush=True)
    # The arena that runs the page is this one, whatever the environment has installed.
    here = str(Path(__file__).resolve().parents[2])
    path = os.pathsep.join([here, *filter(None, [os.environ.get("PYTHONPATH")])])
    subprocess.run(command, check=True, cwd=root, env={**os.environ, "PYTHONPATH": path})


def run_seconds(markdown: str) -> int | None:
    """The wall-clock seconds a page's run note gives (None for a page without one)."""
    found = RUN_NOTE.search(markdown)
    return int(found.group(1).replace(",", "")) if found else None


def read_table(path: Path) -> list[dict[str, str]]:
    with path.open() as handle:
        return list(csv.DictReader(handle))


# --- the numbers docs/experiments.md quotes, one function per page ---------------------------


def _f(value: str | float, digits: int = 2) -> str:
    return f"{float(value):.{digits}f}"


def _visits_vs_c(folder: Path) -> str:
    rows = read_table(folder / "visits-vs-c.csv")
    cs = list(dict.fromkeys(r["c"] for r in rows))
    lines = []
    for c in cs:
        mine = [r for r in rows if r["c"] == c]
        top = max(mine, key=lambda r: float(r["share"]))
        shares = [float(r["share"]) for r in mine]
        widths = [float(r["share_high"]) - float(r["share_low"]) for r in mine]
        rates = [float(r["win_rate"]) for r in mine]
        lines.append(
            f"- C = {c}: move {top['move']} takes the most visits, "
            f"{100 * float(top['share']):.1f} %; the shares run from {100 * min(shares):.1f} % "
            f"to {100 * max(shares):.1f} %, their 95 % intervals over the seeds are up to "
            f"{100 * max(widths):.0f} points wide; win rates {min(rates):.2f}-{max(rates):.2f}."
        )
    return "\n".join(lines)


def _heatmap(folder: Path) -> str:
    rows = read_table(folder / "heatmap.csv")
    lines = []
    for game in dict.fromkeys(r["game"] for r in rows):
        mine = sorted((r for r in rows if r["game"] == game), key=lambda r: -float(r["visits"]))
        most, least = mine[0], mine[-1]
        rates = [float(r["win_rate"]) for r in mine]
        lines.append(
            f"- {game}: {len(mine)} cells; the most visited, {most['cell']}, got "
            f"{cell_text(float(most['visits']))} visits (win rate {_f(most['win_rate'])}), the "
            f"least visited, {least['cell']}, {cell_text(float(least['visits']))} "
            f"({_f(least['win_rate'])}); the win rates lie within {min(rates):.2f}-"
            f"{max(rates):.2f}."
        )
    return "\n".join(lines)


def _scores(rows: list[dict[str, str]], key: str, label: str) -> str:
    head = f"| {label} | " + " | ".join(r[key] for r in rows) + " |"
    rule = "|---|" + "---:|" * len(rows)
    score_key = "score" if "score" in rows[0] else "m_score"
    scores = "| score | " + " | ".join(_f(r[score_key]) for r in rows) + " |"
    bounds = (
        "| 95 % interval | " + " | ".join(f"{_f(r['low'])}-{_f(r['high'])}" for r in rows) + " |"
    )
    return "\n".join([head, rule, scores, bounds])


def _strength_vs_time(folder: Path) -> str:
    rows = read_table(folder / "strength-vs-time.csv")
    lines = [
        "| time per move | simulations bought | score | 95 % interval |",
        "|---|---:|---:|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['seconds']} s | {float(r['simulations_per_move']):,.0f} | {_f(r['score'])} "
            f"| [{_f(r['low'])}, {_f(r['high'])}] |"
        )
    roots = read_table(folder / "strength-vs-time-roots.csv")
    lines.append("")
    for seconds in dict.fromkeys(r["seconds"] for r in roots):
        mine = [r for r in roots if r["seconds"] == seconds]
        top = max(mine, key=lambda r: float(r["visits"]))
        best = max(mine, key=lambda r: float(r["win_rate"]))
        lines.append(
            f"- After {seconds} s ({float(top['simulations']):,.0f} simulations) the most "
            f"visited move is {top['move']} ({100 * float(top['share']):.0f} % of the visits, "
            f"win rate {_f(top['win_rate'])}); the best win rate is move {best['move']}'s, "
            f"{_f(best['win_rate'])} [{_f(best['low'])}, {_f(best['high'])}]."
        )
    return "\n".join(lines)


def _c_sweep(folder: Path) -> str:
    rows = read_table(folder / "c-sweep.csv")
    best = max(rows, key=lambda r: float(r["score"]))
    worst = min(rows, key=lambda r: float(r["score"]))
    return (
        _scores(rows, "c", "C") + f"\n\nThe best C here is {best['c']} ({_f(best['score'])}, "
        f"{best['wins']}-{best['draws']}-{best['losses']}); the worst {worst['c']} "
        f"({_f(worst['score'])}, {worst['wins']}-{worst['draws']}-{worst['losses']})."
    )


def _rollouts_ratio(folder: Path) -> str:
    rows = read_table(folder / "rollouts-ratio.csv")
    pairs = list(dict.fromkeys(f"{r['n']} vs {r['m']}" for r in rows))
    lines = ["| board | " + " | ".join(pairs) + " |", "|---|" + "---:|" * len(pairs)]
    for board in dict.fromkeys(r["board"] for r in rows):
        mine = [r for r in rows if r["board"] == board]
        lines.append(
            f"| {board} | "
            + " | ".join(
                f"{float(r['m_score']):.3f} [{_f(r['low'])}, {_f(r['high'])}]" for r in mine
            )
            + " |"
        )
    draws = ", ".join(f"{r['draws']} at {r['n']} vs {r['m']} on {r['board']}" for r in rows)
    return "\n".join(lines) + f"\n\nDraws (of {rows[0]['games']} games per pair): {draws}."


def _iterations_vs_time(folder: Path) -> str:
    rows = read_table(folder / "iterations-vs-time.csv")
    lines = [
        "| game | µs per iteration at the most iterations | time for them |",
        "|---|---:|---:|",
    ]
    for game in dict.fromkeys(r["game"] for r in rows):
        last = [r for r in rows if r["game"] == game][-1]
        lines.append(
            f"| {game} ({cell_text(int(last['iterations']))}) "
            f"| {float(last['us_per_iteration']):.1f} | {float(last['seconds']):.2f} s |"
        )
    return "\n".join(lines)


def _depth_vs_time(folder: Path) -> str:
    rows = read_table(folder / "depth-vs-time.csv")
    lines = []
    for size in dict.fromkeys(r["size"] for r in rows):
        mine = [r for r in rows if r["size"] == size]
        start = [r for r in mine if r["plies"] == "0"]
        openings = [int(r["deepest"]) for r in mine if r["plies"] != "0"]
        solved = [r for r in mine if r["stopped"] == "solved"]
        text = f"- {size}x{size}: from the start {start[0]['deepest']} plies" if start else ""
        if openings:
            span = (
                f"{min(openings)}"
                if min(openings) == max(openings)
                else (f"{min(openings)}-{max(openings)}")
            )
            text += f", from the openings {span}"
        if solved:
            text += f" ({len(solved)} of {len(mine)} positions solved)"
        lines.append(text + ".")
    return "\n".join(lines)


def _heuristic_duel(folder: Path) -> str:
    rows = read_table(folder / "heuristic-duel.csv")
    both = [r for r in rows if r["side"] == "both"]
    lines = [
        "| depth | " + " | ".join(r["depth"] for r in both) + " |",
        "|---|" + "---:|" * len(both),
        "| score | " + " | ".join(_f(r["score"]) for r in both) + " |",
        "| 95 % interval | " + " | ".join(f"{_f(r['low'])}-{_f(r['high'])}" for r in both) + " |",
        "| mean margin (discs) | "
        + " | ".join(f"{float(r['margin']):+.1f}" if r["margin"] else "" for r in both)
        + " |",
    ]
    for side in ("first", "second"):
        mine = [r for r in rows if r["side"] == side]
        lines.append(
            f"| moving {side} (points) | "
            + " | ".join(f"{float(r['points']):g}/{r['games']}" for r in mine)
            + " |"
        )
    return "\n".join(lines)


def _learned_eval(folder: Path) -> str:
    rows = read_table(folder / "learned-eval.csv")
    heads = [
        f"depth {r['value']}" if r["budget"] == "depth" else f"{float(r['value']):g} s a move"
        for r in rows
    ]
    reached = [
        f"{float(r['depth_net']):g} vs {float(r['depth_heuristic']):g}"
        if r.get("depth_net")
        else ""
        for r in rows
    ]
    return "\n".join(
        [
            "| | " + " | ".join(heads) + " |",
            "|---|" + "---:|" * len(rows),
            "| network's score | " + " | ".join(_f(r["score"]) for r in rows) + " |",
            "| 95 % interval | "
            + " | ".join(f"{_f(r['low'])}-{_f(r['high'])}" for r in rows)
            + " |",
            "| wins-draws-losses | "
            + " | ".join(f"{r['wins']}-{r['draws']}-{r['losses']}" for r in rows)
            + " |",
            "| depth reached (network vs heuristic) | " + " | ".join(reached) + " |",
        ]
    )


NUMBERS: dict[str, Callable[[Path], str]] = {
    "visits-vs-c": _visits_vs_c,
    "heatmap": _heatmap,
    "strength-vs-time": _strength_vs_time,
    "c-sweep": _c_sweep,
    "rollouts-ratio": _rollouts_ratio,
    "iterations-vs-time": _iterations_vs_time,
    "depth-vs-time": _depth_vs_time,
    "heuristic-duel": _heuristic_duel,
    "learned-eval": _learned_eval,
}
"""Per page: the markdown of the numbers ``docs/experiments.md`` quotes, from its CSVs."""


def numbers_block(name: str, folder: Path) -> str:
    """The marked block of ``docs/experiments.md`` for page ``name``: the page's command,
    its figure and the numbers the text quotes."""
    page = folder / f"{name}.md"
    command = shlex.join(page_command(page.read_text()))
    seconds = run_seconds(page.read_text())
    took = "" if seconds is None else f" ({seconds:,} s here)"
    figure = f"experiments/{name}/{name}.png"
    if not (folder / f"{name}.png").exists():  # heatmap: one figure per game
        figure = f"experiments/{name}/{name}-connect4.png"
    return (
        f"<!-- numbers {name} -->\n```sh\n{command}\n```\n\n"
        f"![{name}]({figure})\n\n"
        f"From [the page](experiments/{name}/{name}.md){took}:\n\n"
        f"{NUMBERS[name](folder)}\n<!-- /numbers -->"
    )


def overview(text: str, docs: Path) -> str:
    """``docs/experiments.md`` with its run-time column and numbers blocks made anew."""
    for name in experiment_names():
        block = re.compile(rf"<!-- numbers {re.escape(name)} -->\n.*?<!-- /numbers -->", re.S)
        if not block.search(text):
            raise ArenaError(f"docs/experiments.md has no numbers block for {name}")
        fresh = numbers_block(name, page_path(docs, name).parent)
        text = block.sub(lambda _, fresh=fresh: fresh, text)
        seconds = run_seconds(page_path(docs, name).read_text())
        title = re.escape(f"| [{name}](#{name}) |")
        row = re.compile(rf"^({title}.*\| )[^|]*\|$", re.M)
        if not row.search(text):
            raise ArenaError(f"docs/experiments.md's run-time table has no row for {name}")
        shown = "?" if seconds is None else f"{seconds:,} s"
        text = row.sub(lambda m, shown=shown: f"{m.group(1)}{shown} |", text)
    return text


def regenerate(docs: Path, names: Sequence[str], text_only: bool = False) -> None:
    """Rerun the pages ``names`` (unless ``text_only``), then rewrite the overview."""
    for name in names:
        if name not in experiment_names():
            raise ArenaError(f"unknown experiment {name!r}; valid: {', '.join(experiment_names())}")
        if not text_only:
            run_page(docs, name)
    path = docs / "experiments.md"
    path.write_text(overview(path.read_text(), docs))
