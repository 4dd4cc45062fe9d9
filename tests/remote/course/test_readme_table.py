"""Every row of the "From the assignments" table (docs/matches.md) runs, in an assignment folder.

Each command runs as written from a copy of the course-style folders in this directory
(the Othello assignment's, a Colosseum Survival project, a Go final project and a
Connect Four MCTS lab), scaled down to stay
quick: fewer games and rounds, a short move time, a shallower depth limit, and a
random player standing in for the person at the keyboard.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from arena.cli.main import main

PAGE = Path(__file__).parents[3] / "docs" / "matches.md"

SCALE = {"--games": "2", "--rounds": "1", "--move-time": "0.2"}
"""Options whose values are scaled down (programs get a move time that a busy machine's
process scheduling cannot overrun; built-in agents less)."""


COURSE_KINDS = ("othello-ai:", "colosseum-agent:", "cs410-agent:", "mcts-lab:")


def table_commands() -> list[str]:
    text = PAGE.read_text()
    section = text[text.index("## From the assignments") :]
    section = section.split("\n#", 1)[0]
    commands = [
        found.group(1)
        for line in section.splitlines()
        if line.startswith("| ") and not line.startswith("| course command")
        for found in [re.search(r"\| `(arena [^`]+)`", line)]
        if found
    ]
    return commands


def scaled(command: str) -> list[str]:
    programs = any(kind in command for kind in COURSE_KINDS)
    scale = {**SCALE, "--move-time": SCALE["--move-time"] if programs else "0.05"}
    words = shlex.split(command)[1:]
    out: list[str] = []
    timed = False
    for i, word in enumerate(words):
        before = words[i - 1] if i else ""
        if before in scale:
            out.append(scale[before])
        elif word == "--time":
            out.append("--move-time")
            timed = True
        elif before == "--time":
            out.append(scale["--move-time"])
        elif word == "human":
            out.append("random:seed=1")
        else:
            out.append(re.sub(r"limit=\d+", "limit=2", word))
        timed = timed or word == "--move-time"
    if not timed:
        out += ["--move-time", scale["--move-time"]]
    if out[0] in ("match", "tournament"):
        # What a row does is tested here, not how close to its clock an agent answers on a
        # loaded test machine (a 50 ms move on two busy cores; `arena bench timing` measures
        # that): a generous grace keeps a scheduler's pause from forfeiting a game.
        out += ["--json", "--quiet", "--grace", "1000"]
    return out


def test_the_table_has_every_assignment() -> None:
    commands = table_commands()
    assert len(commands) >= 11
    assert sum("othello-ai:" in c for c in commands) >= 3
    assert sum("colosseum-agent:" in c for c in commands) >= 3
    assert sum("cs410-agent:" in c for c in commands) >= 4
    assert sum("mcts-lab:" in c for c in commands) >= 3
    assert sum("first:30" in c for c in commands) >= 2  # the Colosseum course's clock
    assert not any(" py:" in c for c in commands)  # course agents are not arena classes


@pytest.mark.slow  # about 30 s for the whole table on a busy machine
@pytest.mark.parametrize("command", table_commands())
def test_every_row_runs(
    command: str,
    othello_dir: Path,
    colosseum_dir: Path,
    cs410_dir: Path,
    lab_dir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    if "othello-ai:" in command:
        monkeypatch.chdir(othello_dir)
    elif "colosseum-agent:" in command:
        monkeypatch.chdir(colosseum_dir / "project")
    elif "cs410-agent:" in command:
        monkeypatch.chdir(cs410_dir)
    elif "mcts-lab:" in command:
        monkeypatch.chdir(lab_dir)
    else:
        monkeypatch.chdir(tmp_path)
    argv = scaled(command)
    assert main(argv) == 0
    out = capsys.readouterr().out
    if argv[0] == "play":
        assert "loses:" not in out, out  # no forfeit
    else:
        result = json.loads(out.splitlines()[-1])
        assert result["games"] >= 2
        assert all(not line["forfeits"] for line in result["agents"].values()), result
