"""othello-ai: Othello assignment programs over the course manager's protocol: whole games,
the header, forced passes, FINAL, and a forfeit with the right reason for each bad program."""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path

import pytest

from arena.agents import load_agent
from arena.cli.main import main
from arena.compete.match import play_game
from arena.compete.timecontrol import TimeControl
from arena.core.errors import SpecError
from arena.formats.record import GameRecord
from arena.games import load_game
from arena.remote.othello_ai import board_literal

NOMOVE = "othello:size=6,rule=nomove-ends"


def both_colours(game: str, spec: str, other: str, control: str = "move:2") -> list[GameRecord]:
    g = load_game(game)
    return [
        play_game(g, pair, TimeControl.parse(control)) for pair in ([spec, other], [other, spec])
    ]


def replay(record: GameRecord) -> list:  # type: ignore[type-arg]
    """The (state, move) pairs of a record."""
    game = load_game(record.game)
    state, out = game.initial_state(record.seed), []
    for text in record.moves:
        move = game.parse_move(text)
        out.append((state, move))
        state = state.play(move)
    return out


def test_first_legal_program_plays_whole_games_with_the_assignments_conventions(
    othello_dir: Path,
) -> None:
    # The program plays the first legal move it finds scanning rows from the top: arena's
    # lowest legal cell. Any slip in colours, rows/columns or the board literal shows.
    spec = f"othello-ai:limit=3,caching=1:{othello_dir}/first_legal.py"
    for seat in (0, 1):
        pair = [spec, "random:seed=3"] if seat == 0 else ["random:seed=3", spec]
        record = play_game(load_game(NOMOVE), pair, TimeControl.parse("move:2"))
        assert record.reason == "normal", record.detail
        assert record.names is not None and record.names[seat] == "First Legal"
        mine = [(s, m) for s, m in replay(record) if s.to_move == seat]
        assert len(mine) >= 5
        assert all(move == state.legal_moves()[0] for state, move in mine)
        # FINAL reached the program, which wrote it in its own folder (its working directory).
        header, score = (othello_dir / "final.txt").read_text().strip().split(" | ")
        assert header == f"{seat + 1},3,0,1,0"
        final = replay(record)[-1][0].play(replay(record)[-1][1])
        assert score == "{} {}".format(*final.discs())


def test_the_old_header_is_the_colour_alone(othello_dir: Path) -> None:
    spec = f"othello-ai:header=color:{othello_dir}/old_header.py"
    for seat, record in enumerate(both_colours(NOMOVE, spec, "greedy")):
        assert record.reason == "normal", record.detail
        mine = [(s, m) for s, m in replay(record) if s.to_move == seat]
        assert all(move == state.legal_moves()[-1] for state, move in mine)
    # The same program given the full header cannot read its colour: a crash at once.
    record = both_colours(NOMOVE, f"othello-ai:{othello_dir}/old_header.py", "greedy")[0]
    assert record.reason == "crash" and "invalid literal for int()" in record.detail


def test_forced_passes_under_the_standard_rule_are_played_for_the_program(
    othello_dir: Path,
) -> None:
    # Found by search: on 4x4 this game has the program pass at ply 13, then the game goes on.
    game = load_game("othello:size=4")
    spec = f"othello-ai:{othello_dir}/first_legal.py"
    record = play_game(game, [spec, "random:seed=0"], TimeControl.parse("move:2"))
    assert record.reason == "normal", record.detail
    passes = [i for i, (s, m) in enumerate(replay(record)) if s.to_move == 0 and m == game.PASS]
    assert passes and passes[0] < len(record.moves) - 1


def test_the_alpha_beta_program_beats_random(othello_dir: Path) -> None:
    # A depth-3 search on the disc difference against random: 8 games, seeded.
    spec = f"othello-ai:limit=3,ordering=1,caching=1:{othello_dir}/agent.py"
    wins = 0
    for seed in range(4):
        records = both_colours(NOMOVE, spec, f"random:seed={seed}")
        assert [r.reason for r in records] == ["normal", "normal"]
        wins += (records[0].winner == 0) + (records[1].winner == 1)
    assert wins >= 6


@pytest.mark.parametrize(
    ("program", "reason", "words"),
    [
        ("crash.py", "crash", "RuntimeError: my search blew up"),
        ("garbage.py", "illegal", "answered 'I think e4 is nice', not 'column row'"),
        ("hang.py", "time", "no move within"),
    ],
)
def test_bad_programs_forfeit_with_the_reason(
    othello_dir: Path, program: str, reason: str, words: str
) -> None:
    spec = f"othello-ai:{othello_dir}/{program}"
    for seat, record in enumerate(both_colours(NOMOVE, spec, "greedy", "move:0.2")):
        assert (record.reason, record.loser) == (reason, seat)
        assert words in record.detail


def test_an_illegal_cell_is_the_programs_loss(othello_dir: Path) -> None:
    (othello_dir / "corner.py").write_text(
        "print('Corner')\ninput()\nwhile True:\n    input()\n    input()\n    print('0 0')\n"
    )
    record = both_colours(NOMOVE, f"othello-ai:{othello_dir}/corner.py", "greedy")[0]
    assert (record.reason, record.loser) == ("illegal", 0)
    assert record.detail == "illegal move 0: it flips no discs"  # a1: column 0, row 0


def test_a_program_that_floods_stderr_plays_on_and_its_log_keeps_it(
    othello_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ARENA_LOGS", str(tmp_path / "logs"))
    agent = load_agent(f"othello-ai:{othello_dir}/noisy.py")
    record = play_game(load_game(NOMOVE), [agent, "greedy"], TimeControl.parse("move:2"))
    assert record.reason == "normal", record.detail
    (log,) = (tmp_path / "logs").iterdir()
    assert log.stat().st_size > 1 << 18  # four pipe buffers and more, and no pipe filled up


def test_the_program_is_gone_after_the_game(othello_dir: Path) -> None:
    agent = load_agent(f"othello-ai:{othello_dir}/hang.py")
    play_game(load_game(NOMOVE), [agent, "greedy"], TimeControl.parse("move:0.1"))
    assert agent.process is None
    agent.reset(load_game(NOMOVE), player=0)
    pid = agent.process.pid  # type: ignore[union-attr]
    agent.close()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_another_game_is_a_forfeit_not_a_hang(othello_dir: Path) -> None:
    records = both_colours("connect4", f"othello-ai:{othello_dir}/first_legal.py", "greedy")
    assert records[0].reason == "crash" and "cannot play connect4" in records[0].detail


def test_board_literal_is_what_programs_eval(othello_dir: Path) -> None:
    state = load_game("othello:size=6").initial_state().play(8)
    board = eval(board_literal(state))
    assert isinstance(board, tuple) and all(isinstance(row, tuple) for row in board)
    assert board[1][2] == 1 and board[2][2] == 1 and board[2][3] == 1  # c2 placed, c3 flipped
    assert sum(row.count(2) for row in board) == 1


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("othello-ai:", "no file given"),
        ("othello-ai:nowhere/agent.py", "no such file 'nowhere/agent.py'"),
        ("othello-ai:limit=x:{dir}/agent.py", "limit=x is not an int"),
        ("othello-ai:header=both:{dir}/agent.py", "header=both is not one of full|color"),
        ("othello-ai:python=no-such-python:{dir}/agent.py", "'no-such-python' not found"),
        ("othello-ai:{dir}/othello_shared.pyc", "no such file"),
    ],
)
def test_bad_specs_say_what_is_wrong(othello_dir: Path, spec: str, words: str) -> None:
    with pytest.raises(SpecError, match=words.replace("(", r"\(").replace("|", r"\|")):
        load_agent(spec.format(dir=othello_dir))


def test_python_option_runs_another_interpreter(othello_dir: Path) -> None:
    spec = f"othello-ai:python={sys.executable}:{othello_dir}/first_legal.py"
    record = both_colours(NOMOVE, spec, "greedy")[0]
    assert record.reason == "normal", record.detail


def test_match_on_the_command_line_names_the_program(
    othello_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(othello_dir)
    argv = ["match", NOMOVE, "othello-ai:limit=1:agent.py", "othello-ai:randy_ai.py"]
    assert main([*argv, "--games", "2", "--move-time", "2", "--quiet", "--json"]) == 0
    result = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert result["programs"] == {argv[2]: "Alpha Beta Student", argv[3]: "Randy"}
    assert all(not line["forfeits"] for line in result["agents"].values())


def test_a_person_plays_their_program_and_takes_a_move_back(
    othello_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The person (dark) plays the first legal move too, so the whole game is known here;
    # one 'undo' on the way restarts the program, which must follow the new line.
    game = load_game(NOMOVE)
    state, typed = game.initial_state(), []
    while not state.is_terminal():
        move = state.legal_moves()[0]
        if state.to_move == 0:
            typed.append(game.format_move(move))
        state = state.play(move)
    typed[2:2] = ["undo", typed[1]]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(typed) + "\n"))
    argv = ["play", NOMOVE, "human", f"othello-ai:{othello_dir}/first_legal.py"]
    assert main([*argv, "--move-time", "2"]) == 0
    out = capsys.readouterr().out
    assert "loses" not in out and state.result_text() in out
