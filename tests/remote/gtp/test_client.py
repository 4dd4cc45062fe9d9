"""gtp: agents: GNU Go, GRhino and arena's own GTP server as opponents, and engines that fail."""

from __future__ import annotations

import json
import shlex
import sys
import textwrap
from pathlib import Path

import pytest

from arena.agents import load_agent
from arena.compete.match import play_game
from arena.compete.timecontrol import TimeControl
from arena.games import load_game
from helpers import find_engine

PY = shlex.quote(sys.executable)
GO5 = load_game("go:size=5,komi=0.5")


def replayed(game_spec: str, moves: list[str]):  # type: ignore[no-untyped-def]
    game = load_game(game_spec)
    return game.play_moves(game.parse_moves(moves))


def test_gnugo_plays_go_through_the_client() -> None:
    gnugo = find_engine("gnugo")
    spec = f"gtp:{gnugo} --mode gtp --level 1 --chinese-rules --capture-all-dead"
    for agents in ([spec, "mcts:rollouts=50,seed=1"], ["mcts:rollouts=50,seed=2", spec]):
        record = play_game(GO5, agents, TimeControl.parse("move:10"), max_plies=120)
        assert record.reason in ("normal", "adjudication", "resign"), record.detail
        state = replayed(GO5.spec, record.moves)  # every move legal by arena's rules
        assert state.ply == len(record.moves)
        assert record.loser is None or record.reason != "normal" or state.is_terminal()


@pytest.mark.slow
def test_gnugo_beats_random_on_9x9() -> None:
    gnugo = find_engine("gnugo")
    spec = f"gtp:{gnugo} --mode gtp --level 1 --chinese-rules --capture-all-dead"
    record = play_game(
        load_game("go:size=9"), ["random:seed=4", spec], TimeControl.parse("move:20")
    )
    assert (record.reason, record.winner) == ("normal", 1), record.detail


def test_grhino_plays_othello_and_passes_are_handled() -> None:
    rhino = find_engine("gtp-rhino")
    othello = load_game("othello")
    seen_pass = False
    for seed in range(6):
        engine, rand = f"gtp:{rhino}", f"random:seed={seed}"
        for agents in ([engine, rand], [rand, engine]):
            record = play_game(othello, agents, TimeControl.parse("move:10"))
            assert record.reason == "normal", record.detail
            state = replayed(othello.spec, record.moves)
            assert state.is_terminal() and state.returns() == record.returns
            # GRhino at level 3 does not lose to random.
            assert record.winner == agents.index(engine)
            seen_pass = seen_pass or "pass" in record.moves
    assert seen_pass  # the forced passes were exercised


def test_grhino_refuses_other_board_sizes_and_loses_that_game() -> None:
    rhino = find_engine("gtp-rhino")
    record = play_game(load_game("othello:size=6"), ["random", f"gtp:{rhino}"], TimeControl())
    assert (record.reason, record.loser) == ("crash", 1)
    assert "boardsize 6" in record.detail and "unacceptable size" in record.detail


def test_our_client_against_our_server() -> None:
    server = f"gtp:{PY} -m arena gtp go:size=5,komi=0.5 mcts:rollouts=30,seed=3"
    record = play_game(GO5, [server, "random:seed=5"], TimeControl.parse("move:5"))
    assert record.reason == "normal", record.detail
    assert replayed(GO5.spec, record.moves).is_terminal()


def test_gnugo_against_our_server_both_through_the_client() -> None:
    gnugo = find_engine("gnugo")
    ours = f"gtp:{PY} -m arena gtp go:size=5,komi=0.5 mcts:rollouts=200,seed=7"
    theirs = f"gtp:{gnugo} --mode gtp --level 1 --chinese-rules --capture-all-dead"
    record = play_game(GO5, [theirs, ours], TimeControl.parse("move:10"), max_plies=100)
    assert record.reason in ("normal", "adjudication", "resign"), record.detail
    assert replayed(GO5.spec, record.moves).ply == len(record.moves)


FAKE = """
import sys
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "genmove":
        {genmove}
    elif words[0] == "quit":
        print("=\\n", flush=True)
        break
    else:
        print("=\\n", flush=True)
"""


def fake_engine(tmp_path: Path, genmove: str) -> str:
    path = tmp_path / "engine.py"
    path.write_text(FAKE.replace("{genmove}", textwrap.dedent(genmove).strip()))
    return f"gtp:{PY} {shlex.quote(str(path))}"


@pytest.mark.parametrize(
    ("genmove", "reason", "words"),
    [
        ('print("= resign\\n", flush=True)', "resign", "resigned"),
        (
            'print("? cannot think\\n", flush=True)',
            "crash",
            "refused 'genmove black': cannot think",
        ),
        ('print("= Z99\\n", flush=True)', "illegal", "invalid vertex 'Z99'"),
        ('print("my move: C3\\n", flush=True)', "illegal", "not a GTP reply"),
        ('sys.stderr.write("segfault, sort of\\n"); sys.exit(11)', "crash", "segfault, sort of"),
        ("import time; time.sleep(60)", "time", "no reply to 'genmove black'"),
    ],
)
def test_engine_failures_lose_the_game(
    tmp_path: Path, genmove: str, reason: str, words: str
) -> None:
    agent = load_agent(fake_engine(tmp_path, genmove))
    record = play_game(GO5, [agent, "random:seed=1"], TimeControl.parse("move:0.5"))
    assert (record.reason, record.loser) == (reason, 0), record.detail
    assert words in record.detail
    assert agent.process is None


def test_gtp_agents_only_play_gtp_games(tmp_path: Path) -> None:
    spec = fake_engine(tmp_path, 'print("= 4\\n", flush=True)')
    record = play_game(load_game("connect4"), [spec, "random"], TimeControl())
    assert (record.reason, record.loser) == ("crash", 0)
    assert "GTP engines play go and othello, not connect4" in record.detail


def test_bench_engines_reports_a_score_and_interval(capsys: pytest.CaptureFixture[str]) -> None:
    find_engine("gtp-rhino")
    from arena.cli.main import main

    args = ["bench", "engines", "--cases", "othello", "--games", "2", "--move-time", "0.05"]
    assert main([*args, "--json"]) == 0
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    (case,) = result["cases"]
    assert case["engine"].startswith("gtp:gtp-rhino") and case["games"] == 2
    assert case["wins"] + case["draws"] + case["losses"] == 2
    assert 0 <= case["low"] <= case["score"] <= case["high"] <= 1


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--cases", "chess"], "unknown case 'chess'"),
        (["--games", "0"], "--games must be >= 1"),
        (["--go", "mcts:c=-1"], "c=-1"),
    ],
)
def test_bench_engines_bad_input(
    args: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from arena.cli.main import main

    assert main(["bench", "engines", *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0]


def test_a_handicap_game_sends_the_stones_and_white_moves_first(tmp_path: Path) -> None:
    log = tmp_path / "commands.txt"
    engine = tmp_path / "engine.py"
    engine.write_text(
        textwrap.dedent(f"""
            import sys
            with open({str(log)!r}, "a") as log:
                for line in sys.stdin:
                    log.write(line)
                    log.flush()
                    name = line.split()[0] if line.split() else ""
                    print("= pass" if name == "genmove" else "=", end="\\n\\n", flush=True)
                    if name == "quit":
                        break
        """)
    )
    game = load_game("go:size=9,handicap=2,komi=0.5")
    record = play_game(
        game, ["random:seed=1", f"gtp:{PY} {engine}"], TimeControl.parse("move:10"), max_plies=4
    )
    assert record.reason in ("normal", "adjudication"), record.detail
    sent = log.read_text().splitlines()
    assert sent.index("set_free_handicap G7 C3") > sent.index("clear_board")
    # The engine plays White, who moves first: genmove white comes before any play.
    first_play = next(line for line in sent if line.startswith(("play", "genmove")))
    assert first_play.split()[1] == "white"


def test_gnugo_plays_a_handicap_game() -> None:
    gnugo = find_engine("gnugo")
    spec = f"gtp:{gnugo} --mode gtp --level 1 --chinese-rules --capture-all-dead"
    game = load_game("go:size=7,handicap=2,komi=0.5")
    record = play_game(game, [spec, "random:seed=2"], TimeControl.parse("move:10"), max_plies=12)
    assert record.reason in ("normal", "adjudication", "resign"), record.detail
    assert replayed(game.spec, record.moves).ply == len(record.moves) + 1  # ply 1: the stones
