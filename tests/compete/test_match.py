"""The referee: clocks, increments, grace, and every way to lose besides the rules."""

from __future__ import annotations

import time

import pytest

import arena
from arena.compete.match import play_game
from arena.compete.timecontrol import TimeControl
from arena.core.agent import Resign
from arena.formats.record import GameRecord
from arena.stats.standings import format_standings, standings


class Scripted:
    """Plays the first legal move after ``delay`` seconds, or misbehaves as told."""

    def __init__(
        self,
        delay: float = 0.0,
        move: object = ...,
        error: Exception | None = None,
        after: int = 0,
    ) -> None:
        self.delay, self.move, self.error, self.after = delay, move, error, after
        self.spec = "scripted"
        self.moves = 0

    def choose(self, state: arena.State, limit: arena.Limit) -> int:
        self.moves += 1
        time.sleep(self.delay)
        if self.moves > self.after:
            if self.error is not None:
                raise self.error
            if self.move is not ...:
                return self.move  # type: ignore[return-value]
        return state.legal_moves()[0]


C4 = arena.load_game("connect4")


def test_fischer_increment_keeps_a_steady_player_alive() -> None:
    # 0.05 s per move on a 0.2 s clock: without increment the clock runs out by move 5 at the
    # latest (a loaded machine only makes moves slower, so earlier); with 0.2 s back per move
    # the same player lasts the whole game unless one move takes over 0.4 s.
    lost = play_game(C4, [Scripted(delay=0.05), Scripted()], TimeControl.parse("0.2+0"), grace=0.0)
    assert lost.reason == "time" and lost.loser == 0 and lost.returns == (-1, 1)
    assert len(lost.moves) // 2 + 1 <= 5
    kept = play_game(
        C4, [Scripted(delay=0.05), Scripted()], TimeControl.parse("0.2+0.2"), grace=0.0
    )
    assert kept.reason == "normal"


def test_grace_forgives_a_small_overrun() -> None:
    # A move of 0.08 s on a 0.05 s move clock: lost without grace, forgiven with 0.5 s of it.
    over = TimeControl.parse("move:0.05")
    assert play_game(C4, [Scripted(delay=0.08), Scripted()], over, grace=0.0).reason == "time"
    assert play_game(C4, [Scripted(delay=0.08), Scripted()], over, grace=0.5).reason == "normal"


def test_budget_games_have_no_clock() -> None:
    record = play_game(
        C4, [Scripted(delay=0.02), Scripted()], TimeControl.parse("rollouts=10"), grace=0.0
    )
    assert record.reason == "normal"


@pytest.mark.parametrize(
    ("player", "reason", "detail"),
    [
        (Scripted(move=99), "illegal", "illegal move 99: no such column"),
        # Not an int: the type returned and how to read text, not the game's complaint.
        (
            Scripted(move="4"),
            "illegal",
            "must return one of state.legal_moves(), an int; it returned a str ('4'): "
            "use state.game.parse_move('4')",
        ),
        (Scripted(move=None), "illegal", "it returned a NoneType (None)"),
        (Scripted(move=3.0), "illegal", "it returned a float (3.0)"),
        (Scripted(move=True), "illegal", "it returned a bool (True)"),
        (Scripted(move=0), "illegal", "the column is full"),  # both fill column 1
        (
            Scripted(error=ZeroDivisionError("boom")),
            "crash",
            "ZeroDivisionError: boom at tests/compete/test_match.py:",
        ),
        (Scripted(error=Resign("resigned"), after=2), "resign", "resigned"),
    ],
)
def test_forfeits_lose_with_their_reason(player: Scripted, reason: str, detail: str) -> None:
    for seat in (0, 1):
        player.moves = 0
        agents = [player, Scripted()] if seat == 0 else [Scripted(), player]
        record = play_game(C4, agents, TimeControl.parse("rollouts=1"))
        assert (record.reason, record.loser) == (reason, seat)
        assert detail in record.detail
        assert record.returns[seat] == -1 and record.returns[1 - seat] == 1


def test_adjudication_at_the_ply_cap_uses_the_score() -> None:
    game = arena.load_game("othello:size=6")
    record = play_game(
        game, ["greedy:seed=1", "random:seed=2"], TimeControl.parse("depth=1"), max_plies=10
    )
    state = game.play_moves(game.parse_moves(" ".join(record.moves)))
    assert record.reason == "adjudication" and len(record.moves) == 10
    assert record.score == state.score()
    assert record.returns[0] == (1 if state.score() > 0 else -1 if state.score() < 0 else 0)


def test_openings_are_played_off_the_clock_and_recorded() -> None:
    opening = C4.parse_moves("4453")
    record = play_game(
        C4, ["random:seed=1", "random:seed=2"], TimeControl.parse("move:1"), opening=opening
    )
    assert record.moves[:4] == ["4", "4", "5", "3"] and record.seconds[:4] == [0, 0, 0, 0]
    assert record.opening_plies == 4


def test_allotment_never_exceeds_the_clock() -> None:
    control = TimeControl.parse("15+1")
    assert control.allotment(15.0).time == pytest.approx(15 / 30 + 0.8)
    assert control.allotment(0.5).time < 0.5
    assert TimeControl.parse("move:10").allotment(None).time == 10


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("15", "time control '15': expected INITIAL+INCREMENT (e.g. 15+1), move:SECONDS"),
        ("a+b", "time control 'a+b': expected INITIAL+INCREMENT"),
        ("move:0", "time control 'move:0': a move's time must be > 0, not 0"),
        ("move:x", "time control 'move:x': expected move:SECONDS"),
        # Each error says what is wrong with the form the user wrote, not the generic usage.
        ("rollouts=x", "budget 'rollouts=x': rollouts must be a whole number > 0, not x"),
        ("rollouts=0", "budget 'rollouts=0': rollouts must be a whole number > 0, not 0"),
        ("depth=-2", "budget 'depth=-2': depth must be a whole number > 0, not -2"),
        ("time=1", "budget 'time=1': unknown parameter 'time'"),
        ("time=1", "for seconds per move use move:SECONDS"),
        ("-1+1", "time control '-1+1': the initial time must be > 0, not -1"),
        ("15+-1", "time control '15+-1': the increment must be >= 0, not -1"),
    ],
)
def test_bad_time_controls(text: str, message: str) -> None:
    with pytest.raises(arena.SpecError) as info:
        TimeControl.parse(text)
    assert message in str(info.value)


def test_a_budget_is_described_in_its_own_notation() -> None:
    assert TimeControl.parse("rollouts=200").describe() == "budget rollouts=200"
    assert TimeControl.parse("depth=2,nodes=50").describe() == "budget depth=2,nodes=50"


@pytest.mark.parametrize(
    "text",
    [
        "15+1",
        "2.5+0.1",
        "0.2+0",
        "move:10",
        "move:0.05",
        "rollouts=100",
        "depth=2,nodes=50",
        "move:2,first:30",
        "15+1,first:30.5",
    ],
)
def test_a_time_control_reads_back_from_its_canonical_text(text: str) -> None:
    control = TimeControl.parse(text)
    assert str(control) == text and TimeControl.parse(str(control)) == control


def test_equal_time_controls_written_differently_have_one_text() -> None:
    assert str(TimeControl.parse(" 2.50+0.10 ")) == str(TimeControl.parse("2.5+0.1")) == "2.5+0.1"
    assert str(TimeControl.parse("NODES=5,depth=2")) == "depth=2,nodes=5"
    assert TimeControl.moving(10) == TimeControl.parse("move:10") and str(TimeControl()) == "15+1"


def test_a_budget_error_names_the_key_at_fault() -> None:
    with pytest.raises(arena.SpecError, match="unknown parameter 'speed'"):
        TimeControl.parse("speed=3")


class Closing(Scripted):
    """Counts what the referee tells it: games started (with their context) and ended."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.context: list[dict[str, object]] = []
        self.closed = 0

    def reset(self, game: arena.Game, **context: object) -> None:
        self.context.append(context)

    def close(self) -> None:
        self.closed += 1


@pytest.mark.parametrize("error", [None, RuntimeError("boom")])
def test_the_referee_ends_each_game_and_tells_the_grace(error: Exception | None) -> None:
    agents = [Closing(error=error), Closing()]
    record = play_game(C4, agents, TimeControl.parse("move:1"), grace=0.25, seed=None)
    assert record.reason == ("normal" if error is None else "crash")
    for seat, agent in enumerate(agents):
        assert agent.closed == 1
        assert agent.context == [{"player": seat, "seed": None, "grace": 0.25}]


def test_a_crash_names_the_line_of_the_users_file(tmp_path, monkeypatch, caplog) -> None:
    (tmp_path / "mine.py").write_text(
        "def helper():\n"
        "    raise ValueError('oops')\n"
        "\n"
        "class Mine:\n"
        "    def choose(self, state, limit):\n"
        "        return helper()\n"
    )
    monkeypatch.chdir(tmp_path)
    with caplog.at_level("DEBUG", logger="arena"):
        record = play_game(C4, ["py:mine.py:Mine", "random"], TimeControl.parse("rollouts=1"))
    # The innermost frame of the user's file, in one line; arena's frames are not shown.
    assert (record.reason, record.detail) == ("crash", "ValueError: oops at mine.py:2 in helper")
    # The whole traceback is logged for `arena --debug`.
    assert "Traceback" in caplog.text and 'mine.py", line 6, in choose' in caplog.text
    # The traceback is in the record too, for the player's report.
    assert 'mine.py", line 2, in helper' in record.stderr and "ValueError: oops" in record.stderr


@pytest.mark.parametrize("method", ["reset", "observe"])
def test_a_users_reset_or_observe_that_raises_is_a_crash_not_a_traceback(
    tmp_path, monkeypatch, method: str
) -> None:
    (tmp_path / "mine.py").write_text(
        "class Mine:\n"
        f"    def {method}(self, *args):\n"
        "        raise KeyError('table')\n"
        "\n"
        "    def choose(self, state, limit):\n"
        "        return state.legal_moves()[0]\n"
    )
    monkeypatch.chdir(tmp_path)
    for seat in (0, 1):
        agents = ["py:mine.py:Mine", "random"] if seat == 0 else ["random", "py:mine.py:Mine"]
        record = play_game(C4, agents, TimeControl.parse("rollouts=1"))
        assert (record.reason, record.loser) == ("crash", seat)
        assert record.detail == f"KeyError: 'table' at mine.py:3 in {method}"


def test_a_spec_that_cannot_play_the_game_stops_the_match_with_its_error() -> None:
    # RAVE needs a kernel that lists a simulation's moves; Othello's has none. Every game
    # would end the same way, so the error reaches the user instead of a crash forfeit.
    with pytest.raises(arena.SpecError, match="rave= needs a game"):
        play_game(
            arena.load_game("othello"), ["mcts:rave=100", "random"], TimeControl.parse("rollouts=1")
        )


class _FirstSlow:
    """Thinks ``first`` seconds on its first move of a game, ``then`` seconds after."""

    spec = "first-slow"

    def __init__(self, first: float, then: float) -> None:
        self.first, self.then, self.moves = first, then, 0
        self.limits: list[object] = []

    def reset(self, game=None) -> None:  # type: ignore[no-untyped-def]
        self.moves = 0

    def choose(self, state, limit):  # type: ignore[no-untyped-def]
        self.limits.append(limit)
        time.sleep(self.first if self.moves == 0 else self.then)
        self.moves += 1
        return state.legal_moves()[0]


@pytest.mark.parametrize("control", ["move:0.2,first:1", "0.5+0.1,first:1"])
def test_a_first_move_allowance_lets_a_long_first_move_through(control: str) -> None:
    agent = _FirstSlow(0.4, 0.02)
    game = arena.load_game("tictactoe")
    record = play_game(game, [agent, "random:seed=1"], TimeControl.parse(control))
    assert record.reason == "normal", record.detail
    # The first move is told its allowance; the later ones the move time or the clock.
    assert agent.limits[0].time == 1.0 and agent.limits[0].clock is None
    assert agent.limits[1].time < 1.0


def test_without_the_allowance_the_long_first_move_loses_on_time() -> None:
    for control, detail in (("move:0.2", "s for a 0.2 s move"), ("0.3+0.1", "on the clock")):
        record = play_game(
            arena.load_game("tictactoe"),
            [_FirstSlow(0.4, 0.02), "random"],
            TimeControl.parse(control),
        )
        assert (record.reason, record.loser) == ("time", 0) and detail in record.detail
    record = play_game(
        arena.load_game("tictactoe"),
        [_FirstSlow(0.4, 0.4), "random"],
        TimeControl.parse("move:0.2,first:1"),
    )
    assert (record.reason, len(record.moves)) == ("time", 2)  # its second move is a 0.2 s move


def test_the_move_that_forfeits_counts_in_every_time_column() -> None:
    """Issue 30, item 4: a move lost on time was left out of the times (an agent that slept
    3 s showed `max s 0.00`): its time is in the record, the standings and the JSON."""
    slow = Scripted(delay=0.3, after=1)
    slow.spec = "slow"
    record = play_game(C4, [slow, Scripted()], TimeControl.parse("move:0.05"), grace=0.0)
    assert (record.reason, record.loser, len(record.moves)) == ("time", 0, 0)
    assert record.last_seconds is not None and record.last_seconds >= 0.3
    assert GameRecord.from_json(record.to_json()) == record
    line = standings([record], ["slow", "scripted"]).agents["slow"].as_json()
    assert line["max_move_seconds"] >= 0.3 and line["mean_move_seconds"] >= 0.3
    table = format_standings(standings([record], ["slow", "scripted"])).splitlines()
    row = next(line for line in table if line.startswith("slow"))
    assert f" {record.last_seconds:.2f} " in row  # max s
    # A crash and an illegal answer count the time they took too; a game won by the
    # rules has no last answer apart from its moves.
    crash = Scripted(delay=0.01, error=ZeroDivisionError("boom"))
    crashed = play_game(C4, [Scripted(), crash], TimeControl.parse("move:1"))
    assert crashed.reason == "crash" and crashed.last_seconds >= 0.01  # type: ignore[operator]
    assert [seat for seat, _ in crashed.timed_moves()] == [0, 1]
    normal = play_game(C4, [Scripted(), Scripted()], TimeControl.parse("rollouts=1"))
    assert normal.last_seconds is None and "last_seconds" not in normal.to_json()


ESCAPES = "\x1b[2J\x1b]52;c;cm0gLXJmIH4K\x07\x1b[1A\r"
"""Clear the screen, put `rm -rf ~` in the clipboard, move up a line: what a hostile agent
writes to redraw the standings on the terminal of whoever runs the match."""


def test_an_agents_words_reach_the_record_as_text_not_terminal_control(tmp_path) -> None:
    program = tmp_path / "loud.py"
    program.write_text(f"import sys\nsys.stderr.write({ESCAPES!r} + 'gone\\n')\nsys.exit(1)\n")
    for hostile in (Scripted(error=RuntimeError(ESCAPES + "boom")), f"cmd:python {program}"):
        record = play_game(C4, [hostile, Scripted()], TimeControl.parse("move:5"))
        assert record.reason == "crash" and "\\x1b]52;c;" in record.detail + record.stderr
        shown = record.detail + record.stderr + record.to_json()
        assert not any(c in shown for c in "\x1b\x07\r"), record.detail


def test_the_default_share_of_a_go_clock_lasts_the_game() -> None:
    """An agent that reads only ``Limit.time`` is told a share the game can live on: a
    19x19 board's empty points make 180 moves to come, not the general 30 (20 s of a
    10-minute clock on the first move, and three quarters of it gone by move 40)."""
    for spec, moves in (("go:size=19", 180), ("connect4", 30)):
        agent = _FirstSlow(0.0, 0.0)
        play_game(arena.load_game(spec), [agent, "random:seed=1"], TimeControl.parse("600+0"),
                  max_plies=4)  # fmt: skip
        first = agent.limits[0]
        assert first.clock == 600.0 and first.time == pytest.approx(600.0 / moves, abs=1e-5)
