"""The GTP server in-process: every command, error replies, and fuzzed input."""

from __future__ import annotations

import io
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import arena
from arena.agents import load_agent
from arena.core.agent import Agent, Resign
from arena.core.game import Game, State
from arena.core.limit import Limit
from arena.games import load_game
from arena.remote.gtp.server import GTPServer, serve

# Black passes at ply 8 of this Othello line: its only legal move is then 'pass'.
OTHELLO_TO_FORCED_PASS = ["D3", "C3", "E6", "D2", "D1", "E1", "B2", "C1"]
COMMANDS = [
    *("protocol_version", "name", "version", "known_command", "list_commands", "boardsize"),
    *("clear_board", "komi", "play", "genmove", "undo", "showboard", "time_settings"),
    *("time_left", "final_score", "final_status_list", "fixed_handicap", "place_free_handicap"),
    *("set_free_handicap", "loadsgf", "reg_genmove", "kgs-genmove_cleanup", "lz-analyze"),
    *("lz-genmove_analyze", "kata-genmove_analyze"),
    *(
        "kata-analyze",
        "gogui-analyze_commands",
        "arena-best_moves",
        "arena-pv",
        "arena-evaluation",
        "quit",
    ),
]


class Recorder(Agent):
    """Plays the first legal move (or what ``script`` says) and remembers what it was told."""

    name = "recorder"
    summary = "test double"

    def _setup(self, **values: Any) -> None:
        self.resets: list[Game | None] = []
        self.observed: list[tuple[State, int]] = []
        self.limits: list[Limit] = []
        self.script: list[Any] = []

    def reset(self, game: Game | None = None) -> None:
        self.resets.append(game)
        self.observed = []

    def observe(self, state: State, move: int) -> None:
        self.observed.append((state, move))

    def choose(self, state: State, limit: Limit) -> int:
        self.limits.append(limit)
        if self.script:
            action = self.script.pop(0)
            if isinstance(action, BaseException):
                raise action
            return action  # type: ignore[no-any-return]
        return state.legal_moves()[0]


def reply(server: GTPServer, line: str) -> str:
    text = server.handle(line)
    assert text is not None
    assert well_formed(text), text
    return text


def ok(server: GTPServer, line: str) -> str:
    """The text of a success reply (failing the test on a '?')."""
    text = reply(server, line)
    assert text.startswith("="), f"{line!r} -> {text!r}"
    return text[1:].lstrip("0123456789").removeprefix(" ").rstrip("\n")


def fails(server: GTPServer, line: str) -> str:
    text = reply(server, line)
    assert text.startswith("?"), f"{line!r} -> {text!r}"
    return text[1:].lstrip("0123456789").removeprefix(" ").rstrip("\n")


def well_formed(text: str) -> bool:
    body = text[:-2]
    return (
        text[:1] in ("=", "?")
        and text.endswith("\n\n")
        and "\n\n" not in body
        and not body.endswith("\n")
    )


def go5(agent: str | Agent = "random:seed=1") -> GTPServer:
    return GTPServer(load_game("go:size=5"), agent)


# --- administrative commands ----------------------------------------------------


def test_identity_commands() -> None:
    server = GTPServer(load_game("go"), load_agent("mcts:rollouts=10"))
    assert ok(server, "protocol_version") == "2"
    assert ok(server, "name") == "arena"
    assert ok(server, "version") == f"{arena.__version__} mcts:rollouts=10"
    assert (
        GTPServer(load_game("go"), load_agent("random"), name="bot").handle("name") == "= bot\n\n"
    )


def test_list_and_known_commands() -> None:
    server = go5()
    listed = ok(server, "list_commands").split("\n")
    assert sorted(listed) == sorted(COMMANDS)
    for name in listed:
        assert ok(server, f"known_command {name}") == "true"
    assert ok(server, "known_command fly") == "false"
    assert fails(server, "known_command").startswith("syntax error")


def test_ids_are_echoed_on_success_and_failure() -> None:
    server = go5()
    assert server.handle("17 name") == "=17 arena\n\n"
    assert server.handle("18 fly") == "?18 unknown command\n\n"
    assert server.handle("19 play black Z9").startswith("?19 syntax error")  # type: ignore[union-attr]
    assert server.handle("20") == "?20 command id 20 without a command\n\n"


def test_comments_and_empty_lines_get_no_reply() -> None:
    server = go5()
    for line in ("", "\n", "   ", "# just a comment", "\t# another\r\n"):
        assert server.handle(line) is None


# --- the board --------------------------------------------------------------------


def test_boardsize_rebuilds_the_game_and_clears_the_board() -> None:
    server = GTPServer(load_game("go:size=9,komi=6.5"), load_agent("random"))
    ok(server, "play black E5")
    assert ok(server, "boardsize 13") == ""
    assert server.game.spec == load_game("go:size=13,komi=6.5").spec
    assert server.state == server.game.initial_state()
    assert "N" in ok(server, "showboard")


def test_out_of_range_boardsize_keeps_the_old_board() -> None:
    server = go5()
    ok(server, "play black C3")
    before = server.state
    for size in ("4", "20", "0", "99999999999999999999"):
        assert fails(server, f"boardsize {size}") == "unacceptable size"
        assert server.state is before
    assert fails(server, "boardsize nine").startswith("syntax error")
    assert fails(server, "boardsize 9 9").startswith("syntax error")
    assert fails(server, "boardsize -9").startswith("syntax error")


@pytest.mark.parametrize(
    ("spec", "accepted", "refused"),
    [("tictactoe", "3", "4"), ("connect4", "7", "6"), ("othello", "6", "7")],
)
def test_boardsize_in_other_games(spec: str, accepted: str, refused: str) -> None:
    server = GTPServer(load_game(spec), load_agent("random"))
    assert ok(server, f"boardsize {accepted}") == ""
    assert fails(server, f"boardsize {refused}") == "unacceptable size"


def test_clear_board_starts_again_and_resets_the_agent() -> None:
    agent = Recorder()
    server = GTPServer(load_game("go:size=5"), agent)
    ok(server, "play black C3")
    ok(server, "genmove white")
    resets = len(agent.resets)
    assert ok(server, "clear_board") == ""
    assert server.state == server.game.initial_state()
    assert len(agent.resets) == resets + 1 and agent.observed == []


def test_komi_changes_go_scoring_and_keeps_the_moves() -> None:
    server = go5()
    ok(server, "play black C3")
    assert ok(server, "final_score") == "B+17.5"
    assert ok(server, "komi 0.5") == ""
    assert ok(server, "final_score") == "B+24.5"
    assert ok(server, "komi -3") == ""
    assert ok(server, "final_score") == "B+28"
    assert server.state.ply == 1
    assert fails(server, "komi lots").startswith("syntax error")
    assert fails(server, "komi nan").startswith("syntax error")
    assert fails(server, "komi 1000").startswith("syntax error")


def test_komi_is_accepted_and_ignored_outside_go() -> None:
    server = GTPServer(load_game("othello"), load_agent("random"))
    ok(server, "play black D3")
    assert ok(server, "komi 7.5") == ""
    assert server.game.spec == load_game("othello").spec and server.state.ply == 1


def test_showboard_is_a_multi_line_reply() -> None:
    server = go5()
    ok(server, "play black C3")
    text = ok(server, "showboard")
    assert text.splitlines()[0] == "White to move"
    assert "\n".join(text.splitlines()[1:]) in server.state.render()
    assert "X" in text


# --- play, genmove, undo -------------------------------------------------------------


def test_play_is_checked_by_the_rules() -> None:
    server = go5()
    assert ok(server, "play B c3") == ""
    assert fails(server, "play white C3") == "illegal move: the point is occupied"
    assert fails(server, "play red D3").startswith("syntax error: invalid color")
    assert fails(server, "play white I3").startswith("syntax error: invalid vertex 'I3'")
    assert fails(server, "play white").startswith("syntax error")
    assert fails(server, "play white D3 D4").startswith("syntax error")
    assert server.state.ply == 1
    assert ok(server, "play white pass") == ""
    assert ok(server, "play black pass") == ""
    assert server.state.is_terminal()
    assert fails(server, "play white D3").startswith("illegal move")


def test_play_tells_the_agent() -> None:
    agent = Recorder()
    server = GTPServer(load_game("go:size=5"), agent)
    ok(server, "play black C3")
    game = server.game
    assert agent.observed == [(game.initial_state(), game.parse_move("C3"))]


def test_genmove_plays_the_agents_move() -> None:
    server = GTPServer(load_game("go:size=5"), load_agent("mcts:rollouts=20,seed=3"))
    vertex = ok(server, "genmove black")
    assert server.state.ply == 1
    assert server.game.format_move(server.line[-1].move) == vertex
    assert fails(server, "genmove").startswith("syntax error")
    assert fails(server, "genmove purple").startswith("syntax error: invalid color")


def test_genmove_at_the_end_of_the_game() -> None:
    go = go5()
    ok(go, "play black pass")
    ok(go, "play white pass")
    assert ok(go, "genmove black") == "pass"
    ttt = GTPServer(load_game("tictactoe"), load_agent("random"))
    for colour, vertex in zip("bwbwb", ["a1", "a2", "b1", "b2", "c1"], strict=True):
        ok(ttt, f"play {colour} {vertex}")
    assert fails(ttt, "genmove w") == "game is over"
    assert fails(GTPServer(load_game("tictactoe"), load_agent("random")), "genmove w") == (
        "it is black's turn"  # a game without a pass: one colour after the other
    )
    assert ok(ttt, "final_score") == "B+"


def test_genmove_resign_illegal_and_crashing_agents() -> None:
    agent = Recorder()
    server = GTPServer(load_game("go:size=5"), agent)
    agent.script = [Resign("gives up"), 999, RuntimeError("boom")]
    assert ok(server, "genmove black") == "resign"
    assert fails(server, "genmove black").startswith("the agent chose an illegal move 999")
    assert fails(server, "genmove black") == "internal error: boom"
    assert server.state.ply == 0
    assert ok(server, "genmove black") == "A5"  # and the engine goes on


def test_othello_inserts_the_pass_of_a_player_without_moves() -> None:
    server = GTPServer(load_game("othello"), load_agent("random"))
    for i, vertex in enumerate(OTHELLO_TO_FORCED_PASS):
        ok(server, f"play {'bw'[i % 2]} {vertex}")
    assert server.game.format_move(server.state.legal_moves()[0]) == "pass"
    # White moves as GRhino's controller would say it: no pass for black is sent.
    assert fails(server, "play white A1").startswith("illegal move")
    assert server.state.ply == 8  # the inserted pass went back with the illegal move
    assert ok(server, "play white D6") == ""
    assert server.state.ply == 10 and server.line[-2].forced
    assert ok(server, "undo") == ""
    assert server.state.ply == 8 and server.state.to_move == 0  # the pass went with it


def test_othello_explicit_pass_and_genmove_for_the_other_colour() -> None:
    server = GTPServer(load_game("othello"), load_agent("random:seed=2"))
    for i, vertex in enumerate(OTHELLO_TO_FORCED_PASS):
        ok(server, f"play {'bw'[i % 2]} {vertex}")
    assert fails(server, "play black D6").startswith("illegal move")
    assert ok(server, "genmove white") != "pass"
    assert server.state.ply == 10
    ok(server, "undo")
    assert ok(server, "play black pass") == ""
    assert ok(server, "genmove white") != "pass"
    assert server.state.ply == 10 and not server.line[-2].forced


def test_undo_takes_back_moves_and_replays_them_to_the_agent() -> None:
    agent = Recorder()
    server = GTPServer(load_game("go:size=5"), agent)
    assert fails(server, "undo") == "cannot undo"
    ok(server, "play black C3")
    ok(server, "play white D3")
    ok(server, "play black D4")
    assert ok(server, "undo") == ""
    assert server.state.ply == 2 and server.state.to_move == 0
    assert [m for _, m in agent.observed] == [server.game.parse_move(v) for v in ("C3", "D3")]
    ok(server, "undo")
    ok(server, "undo")
    assert server.state == server.game.initial_state()
    assert fails(server, "undo") == "cannot undo"


# --- time ---------------------------------------------------------------------------


def test_limits_come_from_the_time_settings() -> None:
    agent = Recorder()
    server = GTPServer(load_game("go:size=5"), agent)
    ok(server, "genmove b")
    assert agent.limits[-1] == Limit()
    assert ok(server, "time_settings 100 0 0") == ""
    ok(server, "genmove w")
    absolute = agent.limits[-1]
    assert absolute.time is not None and 0 < absolute.time <= 10
    assert absolute.clock is not None and 99 < absolute.clock <= 100
    ok(server, "time_left black 5 0")
    ok(server, "genmove b")
    assert agent.limits[-1].time is not None and 0 < agent.limits[-1].time <= 0.5
    assert agent.limits[-1].clock == pytest.approx(5)
    ok(server, "time_left white 3 2")  # byo-yomi: 3 s for 2 moves
    ok(server, "genmove w")
    assert agent.limits[-1].time == pytest.approx(1.2)
    assert agent.limits[-1].clock == pytest.approx(3)
    ok(server, "time_settings 0 1 0")  # no time limits
    ok(server, "genmove b")
    assert agent.limits[-1] == Limit()


def test_move_time_is_the_default_limit() -> None:
    agent = Recorder()
    server = GTPServer(load_game("go:size=5"), agent, move_time=0.25)
    ok(server, "genmove b")
    assert agent.limits[-1] == Limit(time=0.25)


def test_time_commands_check_their_arguments() -> None:
    server = go5()
    for line in (
        "time_settings 10 0",
        "time_settings ten 0 0",
        "time_settings 10 0 1.5",
        "time_settings -1 0 0",
        "time_left black 10",
        "time_left green 10 0",
        "time_left black 10 x",
    ):
        assert fails(server, line).startswith("syntax error"), line


# --- scores and the end -------------------------------------------------------------


def test_final_score_formats() -> None:
    server = go5()
    assert ok(server, "final_score") == "W+7.5"
    ok(server, "komi 0")
    assert ok(server, "final_score") == "0"
    othello = GTPServer(load_game("othello"), load_agent("random"))
    ok(othello, "play b D3")
    assert ok(othello, "final_score") == "B+3"
    assert ok(GTPServer(load_game("connect4"), load_agent("random")), "final_score") == "0"


def test_quit_finishes() -> None:
    server = go5()
    assert server.handle("9 quit") == "=9\n\n"
    assert server.finished


def test_serve_answers_until_quit_and_keeps_stdout_clean(
    capsys: pytest.CaptureFixture[str],
) -> None:
    class Chatty(Recorder):
        def choose(self, state: State, limit: Limit) -> int:
            print("thinking out loud")
            return super().choose(state, limit)

    stdin = io.StringIO("1 name\n# comment\n\n2 genmove b\n3 fly\n4 quit\n5 name\n")
    stdout = io.StringIO()
    assert serve(load_game("go:size=5"), Chatty(), stdin, stdout) == 0  # type: ignore[arg-type]
    assert stdout.getvalue() == "=1 arena\n\n=2 A5\n\n?3 unknown command\n\n=4\n\n"
    assert "thinking out loud" in capsys.readouterr().err


def test_serve_ends_cleanly_at_end_of_input() -> None:
    stdout = io.StringIO()
    assert serve(load_game("othello"), load_agent("random"), io.StringIO("genmove b"), stdout) == 0
    assert stdout.getvalue().startswith("= ")


# --- fuzzing ------------------------------------------------------------------------

_WORDS = st.sampled_from(
    [
        *COMMANDS[:-1],
        *("b", "w", "black", "white", "pass", "D4", "c3", "A1", "J9", "Z99"),
        *("0", "5", "7.5", "-1", "1e999", "nan", "#", "\t", "\x00", "é", "99999999999999999999"),
    ]
)
_LINES = st.one_of(
    st.text(max_size=40),
    st.lists(_WORDS, min_size=1, max_size=4).map(" ".join),
    st.builds(lambda i, rest: f"{i} {rest}", st.integers(0, 10**9), st.text(max_size=20)),
)


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(["go:size=5", "othello:size=6", "tictactoe", "colosseum:size=6"]),
    st.lists(_LINES, max_size=12),
)
def test_fuzzed_lines_get_well_formed_replies_and_never_crash(spec: str, lines: list[str]) -> None:
    server = GTPServer(load_game(spec), load_agent("random:seed=1"))
    for line in lines:
        text = server.handle(line)
        if text is None:
            continue
        assert well_formed(text), (line, text)
        assert "internal error" not in text, (line, text)
        if server.finished:
            break
