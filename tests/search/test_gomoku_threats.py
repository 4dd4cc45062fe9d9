"""Gomoku's threat-space search (VCF and VCT): wins found are wins, refutations seen.

Every win the compiled search reports is played out here against a full-width defender
(every legal reply, judged by the game's own rules): the attacker's next move is the
search's answer in the new position, and the line must end with the attacker's five.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

import arena
from arena.core.game import State
from arena.games.gomoku.heuristic import immediate_wins
from arena.search.alphabeta.engines.gomoku.threats import R_NEAR, ThreatSearch
from helpers import clustered_states


def position(text: str, spec: str = "gomoku") -> State:
    game = arena.load_game(spec)
    return game.play_moves(game.parse_moves(text))


def proves(state: State, threes: int, fours: int = 30) -> bool:
    """Whether the side to move wins against every defence, playing the search's move each
    time with what is left of its budget (a four spends a four, a three a three, a block
    of the defender's four nothing): the full-width check of a proof."""
    attacker = state.to_move
    search = ThreatSearch(state.game)

    def wins(state: State, threes: int, fours: int) -> bool:
        if threes < 0 or fours < 0:
            return False
        found = search.search(state, threes, None, fours=fours)
        if found is None:
            return False
        blocks = bool(immediate_wins(state, 1 - attacker))
        after = state.play(found.move)
        if after.is_terminal():
            return after.returns()[attacker] > 0
        if immediate_wins(after, attacker):
            fours -= 1
        elif not blocks:
            threes -= 1
        for reply in after.legal_moves():
            answered = after.play(reply)
            if answered.is_terminal():
                return False  # the defender's five (or a full board)
            if not wins(answered, threes, fours):
                return False
        return True

    return wins(state, threes, fours)


def found(text: str, threes: int, spec: str = "gomoku") -> tuple[str, str] | None:
    state = position(text, spec)
    result = ThreatSearch(state.game).search(state, threes, None)
    if result is None:
        return None
    return state.game.format_move(result.move), result.kind


# 11x11: Black's two twos D6-E6 and F7-F8 cross at F6 (a double three), White far away.
FORK = "D6 A1 E6 A3 F7 L11 F8 L9"


def test_a_win_by_continuous_fours_is_found_and_holds() -> None:
    # Black's closed threes H8-K8 (White G8) and L9-L11 (White L12): L8 is a double four.
    text = "H8 G8 J8 L12 K8 A1 L9 A3 L10 A5 L11 A15"
    assert found(text, 0) == ("L8", "vcf")
    assert proves(position(text), 0, 3)


def test_a_win_by_threes_needs_threes_and_holds() -> None:
    spec = "gomoku:size=11"
    assert found(FORK, 0, spec) is None  # no four to make: no VCF
    assert found(FORK, 1, spec) == ("F6", "vct")  # the double three
    assert proves(position(FORK, spec), 1)
    assert proves(position(FORK, "gomoku:size=11,overline=nowin"), 1)


def test_the_defenders_own_four_refutes_the_threes() -> None:
    # The same fork, but White's open three K2-K4 answers Black's three with an open
    # four (K5): a search that let the defender only block would call F6 a win.
    spec = "gomoku:size=11"
    text = "D6 K2 E6 K3 F7 K4 F8 A11"
    assert found(text, 3, spec) is None
    after = position(text + " F6", spec).play(arena.load_game(spec).parse_move("K5"))
    assert len(immediate_wins(after, 1)) == 2  # White's open four: Black cannot stop it
    # White's closed three B2-D2 (A2 Black's) makes only a four Black blocks: the fork
    # stands.
    text = "D6 B2 E6 C2 F7 D2 F8 A11 A2 L1"
    assert found(text, 1, spec) == ("F6", "vct")
    assert proves(position(text, spec), 1)


def test_no_win_gives_none() -> None:
    assert found("H8 H9", 4) is None
    assert found("H8 J9 G9 J8 J10 K8", 4) is None


def test_exactly_five_is_respected() -> None:
    text = "C8 A1 D8 P1 E8 A15 G8 P15 H8 H1"  # F8 makes six in a row
    assert found(text, 2) == ("F8", "five")
    assert found(text, 4, "gomoku:overline=nowin") is None


def test_two_threads_play_a_win_the_threat_thread_proves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The fork on 15x15: the main search deepens, the threat thread proves the win by
    # threes, stops it, and its move is played (reported as proven). The main search's
    # answers to a three are off here: with them it proves this short fork itself, first.
    from arena.search.alphabeta.engines.gomoku import engine as gomoku
    from arena.search.alphabeta.engines.gomoku.engine import GomokuEngine
    from arena.search.values import is_proven

    monkeypatch.setattr(gomoku, "ANSWER", 0)
    text = "F8 A1 G8 A3 H9 P15 H10 P13"
    state = position(text)
    engine = GomokuEngine(state.game, threads=2)
    move, info = engine.choose(state, 5.0, 64, arena.load_agent("ids"))
    helper = engine.smp.helpers[0]  # type: ignore[union-attr]
    assert helper.threat_found is not None and move == helper.threat_found.move
    assert info.method == "vct" and info.value is not None and is_proven(info.value)
    assert proves(state, 3)


def test_one_thread_may_search_threats_at_the_root(monkeypatch: pytest.MonkeyPatch) -> None:
    # Off by default (ROOT_THREES = 0: the root VCF, as measured): the engine does not see
    # the win by threes at the root; set, the one-thread engine plays it at once.
    from arena.search.alphabeta.engines.gomoku import engine as gomoku

    state = position("F8 A1 G8 A3 H9 P15 H10 P13")
    engine = gomoku.GomokuEngine(state.game)
    assert engine.root_threes == 0
    _, info = engine.choose(state, 0.3, 64, arena.load_agent("ids"))
    assert info.method != "vct"
    monkeypatch.setattr(gomoku, "ROOT_THREES", 1)
    engine = gomoku.GomokuEngine(state.game)
    move, info = engine.choose(state, 5.0, 64, arena.load_agent("ids"))
    assert (state.game.format_move(move), info.method) == ("H8", "vct")


def near_stones(state: State) -> list[int]:
    size = state.game.rows  # type: ignore[attr-defined]
    stones = [y for y in range(size * size) if state.stone(y) is not None]  # type: ignore[attr-defined]
    return [
        y
        for y in state.legal_moves()
        if any(abs(y // size - s // size) <= 2 and abs(y % size - s % size) <= 2 for s in stones)
    ]


def defended(text: str, spec: str = "gomoku", threads: int = 1) -> tuple[list[str], str]:
    """The root moves the engine keeps against the opponent's threat, and its move."""
    from arena.search.alphabeta.engines.gomoku.engine import GomokuEngine

    state = position(text, spec)
    engine = GomokuEngine(state.game, threads=threads)
    engine.defend_threes = 1  # off by default (DEFEND_THREES: measured no stronger)
    engine.search.set_root(state)
    kept = engine.defend(state, 30.0) or []
    move, _ = engine.choose(state, 0.5, 64, arena.load_agent("ids"))
    game = state.game
    return sorted(game.format_move(y) for y in kept), game.format_move(move)


def test_the_root_keeps_only_the_moves_that_stop_the_opponents_vcf() -> None:
    # White to move; Black's L8 makes a double four (the VCF above). White stops it at
    # L8, at L7 or M8 (L8 then makes one four), or first makes a four of its own (A2 or
    # A4, the fives A1-A5 would make: Black must block, and White still has the move).
    text = "H8 G8 J8 L12 K8 A1 L9 A3 L10 A5 L11"
    state = position(text)
    kept, move = defended(text)
    assert kept == ["A2", "A4", "L7", "L8", "M8"]
    assert move in kept
    _, move = defended(text, threads=2)
    assert move in kept
    # Every other move near the stones loses to Black's fours, whatever White answers.
    for y in near_stones(state):
        if state.game.format_move(y) not in kept:
            assert proves(state.play(y), 0), state.game.format_move(y)


def test_the_root_keeps_only_the_moves_that_stop_the_opponents_vct() -> None:
    # White to move against the double three at F6 (no VCF): the fork's cell, or an end
    # of either two (the three it would make then has one open end).
    spec = "gomoku:size=11"
    text = "D6 A1 E6 A3 F7 L11 F8"
    kept, move = defended(text, spec)
    assert kept == ["C6", "F5", "F6", "F9", "G6"]
    assert move in kept
    # A move beside a two's end but off the line of its four does not stop it: played
    # out against every defence.
    state = position(text, spec)
    assert proves(state.play(state.game.parse_move("H6")), 1)


def test_without_a_threat_or_with_the_look_off_the_root_is_whole() -> None:
    from arena.search.alphabeta.engines.gomoku.engine import GomokuEngine

    state = position("H8 H9 J8")  # nothing forced yet
    engine = GomokuEngine(state.game)
    engine.defend_threes = 1
    engine.search.set_root(state)
    assert engine.defend(state, 30.0) is None and engine.search.allow.all()
    state = position("H8 G8 J8 L12 K8 A1 L9 A3 L10 A5 L11")
    engine.defend_threes = -1
    engine.choose(state, 0.2, 64, arena.load_agent("ids"))
    assert engine.defended is None and engine.search.allow.all()
    engine.defend_threes = 0  # a second a move: the look has a fifth of it, even under load
    engine.choose(state, 1.0, 64, arena.load_agent("ids"))
    assert engine.defended == (5, 5)  # kept 5 of 5 looked at (the proof's cells, A2/A4)
    assert engine.search.allow.sum() == 5


def test_the_variant_script_sets_the_engines_settings() -> None:
    from pathlib import Path

    variant = arena.load_agent(
        f"py:{Path(__file__).parents[2] / 'scripts' / 'gomoku_variant.py'}:Variant:"
        "defend=1,root_threes=2,threads=1,answer=0,w2=50,tempo=2,threat=7,fork=30,"
        "fork_other=4,line1=-9,line2=-3,edge=0.5,beam=9,leaf=2,lmr=5"
    )
    game = arena.load_game("gomoku")
    variant.reset(game)
    built = variant.engine(game)  # type: ignore[attr-defined]
    assert (built.defend_threes, built.root_threes) == (1, 2)
    from arena.search.alphabeta.engines.gomoku import engine as gomoku

    assert built.search.geo[0][gomoku.G_ANSWER] == 0
    assert (built.search.geo[0][gomoku.G_BEAM], built.search.leaf_vcf) == (9, 2)
    assert built.search.geo[0][gomoku.G_LMR] == 5
    assert gomoku.GomokuSearch(game).geo[0][gomoku.G_BEAM] == gomoku.BEAM  # its own row
    value = built.search.value
    k, cells = 5, 225
    assert (value[2], value[k + 1], value[k + 2]) == (50.0, 2.0, 7.0)
    assert (value[k + 3], value[k + 4]) == (30.0, 4.0)  # the fork terms
    start = k + gomoku.V_CELLS
    assert (value[start], value[start + 16], value[start + 112]) == (-9.0, -3.0, 0.0)
    assert (value[start + cells], value[start + cells + 2]) == (0.5, 1.0)  # along the edge
    assert value[3] == gomoku.WINDOW[2]  # the others as the engine has them


@pytest.mark.parametrize("spec", ["gomoku", "gomoku:overline=nowin"])
def test_the_scans_near_the_stones_search_what_the_whole_boards_do(spec: str) -> None:
    """The search scans only the cells near the stones of the side it looks for (and, after
    a three, only the lines through it); the whole board's scans are the reference: the
    same result, the same proof and the same number of nodes, position after position."""
    game = arena.load_game(spec)
    near, whole = ThreatSearch(game), ThreatSearch(game)
    assert near.rule[R_NEAR] == 1  # the default
    whole.rule[R_NEAR] = 0
    wins = 0
    for state in clustered_states(game, 40, seed=29):
        for threes, attacker in ((0, None), (3, None), (2, 1 - state.to_move)):
            a = near.search(state, threes, None, attacker=attacker, nodes=3000)
            b = whole.search(state, threes, None, attacker=attacker, nodes=3000)
            assert (a is None) == (b is None)
            if a is not None and b is not None:
                assert (a.move, a.kind) == (b.move, b.kind)
            assert near.nodes == whole.nodes
            assert sorted(near.proof_cells()) == sorted(whole.proof_cells())
            wins += a is not None
    assert wins >= 10  # positions with something to prove


def test_a_search_out_of_time_stops_within_sixteen_nodes() -> None:
    """The clock (and a stop from another thread) is read every 16 nodes: in a crowded
    position a node takes up to 300 microseconds, and 64 of them overran 20 ms moves."""
    game = arena.load_game("gomoku")
    search = ThreatSearch(game)
    for state in clustered_states(game, 40, seed=3):
        search.search(state, 3, None, nodes=3000)
        if search.nodes > 64 and search.search(state, 3, None, nodes=3000) is None:
            break
    else:
        pytest.fail("no position searched more than 64 nodes")
    untimed = search.nodes
    assert search.search(state, 3, 1e-9) is None
    assert 0 < search.nodes <= 16 < untimed
    search.stop()  # a stop before the search ends it at its first look
    assert search.search(state, 3, None) is None
    assert search.nodes <= 16


def test_the_compiled_search_is_loaded_before_the_first_move() -> None:
    """Making the search loads its compiled code (10-15 ms, once a process, from numba's
    cache), so no move's clock pays for it: in a fresh process, every compiled function
    the search calls from Python has been loaded once a ThreatSearch exists."""
    code = (
        "import arena\n"
        "from arena.search.alphabeta.engines.gomoku import threats as t\n"
        "called = (t.is_five, t.place, t.threat)\n"
        "before = [bool(f.overloads) for f in called]\n"
        "t.ThreatSearch(arena.load_game('gomoku'))\n"
        "print(before, [bool(f.overloads) for f in called])\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=300
    ).stdout.split("\n")[0]
    assert out == "[False, False, True] [True, True, True]"
