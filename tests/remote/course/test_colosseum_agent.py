"""colosseum-agent: Colosseum Survival student agents in the project layout and as lone files,
the simulator's board representation, forfeits with reasons, on_error=random, one instance
per game, tournaments (the same agent twice, --jobs) and setup=course."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from arena.agents import load_agent
from arena.cli.main import main
from arena.compete.match import play_game
from arena.compete.timecontrol import TimeControl
from arena.core.errors import SpecError
from arena.formats.record import GameRecord
from arena.games import load_game
from arena.remote.colosseum_agent import parse_step, random_walk, step_line
from arena.remote.colosseum_host import walls_array
from arena.remote.command import isolated
from helpers import random_states

SMALL = "colosseum:size=6"


def both_colours(
    game: str, spec: str, other: str = "random:seed=1", control: str = "move:2", seed: int = 1
) -> list[GameRecord]:
    g = load_game(game)
    return [
        play_game(g, pair, TimeControl.parse(control), seed=seed)
        for pair in ([spec, other], [other, spec])
    ]


def test_the_project_agent_plays_inside_its_project(colosseum_dir: Path) -> None:
    # agents/__init__.py imports student_agent and store refuses a second registration:
    # importing the file a second time (by path) would crash the agent.
    spec = f"colosseum-agent:{colosseum_dir}/project/agents/student_agent.py"
    for seed in (1, 2):
        for seat, record in enumerate(both_colours("colosseum", spec, seed=seed)):
            assert record.reason == "normal", record.detail
            assert record.names is not None and record.names[seat] == "Chaser"


def test_the_same_file_alone_gets_the_frameworks_stand_ins(
    colosseum_dir: Path, tmp_path: Path
) -> None:
    lone = tmp_path / "submission"
    lone.mkdir()
    shutil.copy(colosseum_dir / "project/agents/student_agent.py", lone)
    spec = f"colosseum-agent:{lone}/student_agent.py"
    for record in both_colours(SMALL, spec):
        assert record.reason == "normal", record.detail


def test_step_gets_the_simulators_arguments(colosseum_dir: Path) -> None:
    spec = f"colosseum-agent:{colosseum_dir}/lone/probe.py"
    for game in ("colosseum", "colosseum:size=7,walls=8", "colosseum:setup=course"):
        for record in both_colours(game, spec, seed=4):
            assert record.reason == "normal", record.detail


def test_the_walls_array_is_the_boards_walls() -> None:
    for state in random_states(load_game("colosseum"), 40, seed=3):
        words = step_line(state).split()
        size, steps = int(words[1]), int(words[2])
        mine, theirs = (int(words[3]), int(words[4])), (int(words[5]), int(words[6]))
        assert (size, steps) == (state.size, state.max_steps)
        assert (mine, theirs) == (
            state.positions[state.to_move],
            state.positions[1 - state.to_move],
        )
        board = walls_array(size, words[7])
        for r in range(size):
            for c in range(size):
                assert board[r, c].tolist() == [state.has_wall(r, c, d) for d in range(4)]


def test_random_walks_are_legal_and_varied() -> None:
    rng = random.Random(2)
    for state in random_states(load_game("colosseum"), 30, seed=5):
        if state.is_terminal():
            continue
        moves = {random_walk(state, rng) for _ in range(20)}
        assert moves <= set(state.legal_moves())
        assert len(moves) > 1 or len(state.legal_moves()) == 1


@pytest.mark.parametrize(
    ("answer", "words"),
    [
        ("0 0", "step returned '0 0'"),
        ("0 0 4", "a side is 0..3"),
        ("9 0 1", "off the 6x6 board"),
        ("-1 0 1", "off the 6x6 board"),
    ],
)
def test_answers_that_are_no_move(answer: str, words: str) -> None:
    state = load_game(SMALL).initial_state(1)
    move, why = parse_step(state, answer)
    assert move == -1 and words in why


@pytest.mark.parametrize(
    ("file", "reason", "words"),
    [
        ("raising.py", "crash", "step raised ValueError: no idea what to do"),
        ("unreachable.py", "illegal", "cannot be reached from"),
        ("shapeless.py", "illegal", "'u'), not ((row, col), dir)"),
        ("sleeping.py", "time", "no move within"),
    ],
)
def test_bad_agents_forfeit_with_the_reason(
    colosseum_dir: Path, file: str, reason: str, words: str
) -> None:
    spec = f"colosseum-agent:{colosseum_dir}/lone/{file}"
    for seat, record in enumerate(both_colours(SMALL, spec, control="move:0.2")):
        assert (record.reason, record.loser) == (reason, seat), record.detail
        assert words in record.detail


def test_a_wall_on_the_border_is_illegal(colosseum_dir: Path) -> None:
    game = load_game(SMALL)
    seed = next(
        s for s in range(100) if {0, 5} & set(game.initial_state(s).positions[0])
    )  # A starts on the border
    spec = f"colosseum-agent:{colosseum_dir}/lone/walled.py"
    record = play_game(game, [spec, "random"], TimeControl.parse("move:2"), seed=seed)
    assert (record.reason, record.loser) == ("illegal", 0)
    assert "is the edge of the board" in record.detail


def test_on_error_random_replays_the_simulator_and_the_record_says_so(colosseum_dir: Path) -> None:
    spec = f"colosseum-agent:on_error=random:{colosseum_dir}/lone/raising.py"
    for seat, record in enumerate(both_colours(SMALL, spec)):
        assert record.reason == "normal", record.detail
        (note,) = record.notes  # the second step raised, the others played
        assert note.startswith(f"{'AB'[seat]} ply {3 + seat}: step raised ValueError")
        assert "random walk" in note and "on_error=random" in note
    spec = f"colosseum-agent:on_error=random:{colosseum_dir}/lone/unreachable.py"
    record = both_colours(SMALL, spec)[0]
    assert record.reason == "normal" and len(record.notes) == (len(record.moves) + 1) // 2


def test_a_class_is_chosen_by_name_or_registered_name(colosseum_dir: Path) -> None:
    several = f"{colosseum_dir}/lone/several.py"
    record = both_colours(SMALL, f"colosseum-agent:{several}")[0]
    assert record.reason == "crash" and "2 classes with step (UpAgent, DownAgent)" in record.detail
    assert "class=NAME" in record.detail
    game = load_game(SMALL)
    for choice, sides in (("DownAgent", "dlur"), ("up_agent", "urdl")):
        record = play_game(
            game,
            [f"colosseum-agent:class={choice}:{several}", "random"],
            TimeControl.parse("move:2"),
            seed=1,
        )
        assert record.reason == "normal", record.detail
        first = game.parse_move(record.moves[0])
        state = game.initial_state(1)
        r, c = state.positions[0]
        assert first == next(
            (r * game.stride + c) * 4 + "urdl".index(s)
            for s in sides
            if not state.has_wall(r, c, s)
        )
    record = both_colours(SMALL, f"colosseum-agent:class=Nobody:{several}")[0]
    assert record.reason == "crash" and "no agent class 'Nobody'" in record.detail


def test_the_same_stateful_agent_twice_in_a_tournament(
    colosseum_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # One instance per game, state kept between its moves: the agent checks both.
    stateful = f"colosseum-agent:{colosseum_dir}/lone/stateful.py"
    argv = ["tournament", "colosseum:size=6,walls=0", stateful, stateful, "random"]
    assert main([*argv, "--rounds", "2", "--move-time", "2", "--quiet", "--json"]) == 0
    result = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert result["games"] == 12
    assert set(result["agents"]) == {stateful, f"{stateful}#2", "random"}
    assert all(not line["forfeits"] for line in result["agents"].values())
    assert result["programs"] == {stateful: "Memory", f"{stateful}#2": "Memory"}


def test_a_tournament_with_jobs(
    colosseum_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(colosseum_dir / "project")
    spec = "colosseum-agent:agents/student_agent.py"
    argv = ["tournament", SMALL, spec, "colosseum-agent:agents/wall_hugger.py", "random"]
    assert (
        main([*argv, "--rounds", "1", "--move-time", "2", "--jobs", "2", "--quiet", "--json"]) == 0
    )
    result = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert result["games"] == 6
    assert all(not line["forfeits"] for line in result["agents"].values())
    assert result["programs"][spec] == "Chaser"


def test_a_broken_import_is_a_crash_with_the_error(colosseum_dir: Path) -> None:
    broken = colosseum_dir / "lone" / "broken.py"
    broken.write_text("import numpy\nimport no_such_helper_module\n")
    record = both_colours(SMALL, f"colosseum-agent:{broken}")[0]
    assert record.reason == "crash"
    assert (
        "loading broken.py: ModuleNotFoundError: No module named 'no_such_helper_module'"
        in record.detail
    )


def test_prints_in_step_go_to_the_log_not_the_protocol(colosseum_dir: Path) -> None:
    chatty = colosseum_dir / "lone" / "chatty.py"
    source = (colosseum_dir / "lone" / "probe.py").read_text()
    chatty.write_text(
        source.replace(
            "        r, c = my_pos\n", "        print('thinking...')\n        r, c = my_pos\n"
        )
    )
    for record in both_colours(SMALL, f"colosseum-agent:{chatty}"):
        assert record.reason == "normal", record.detail


def test_another_game_is_a_forfeit(colosseum_dir: Path) -> None:
    record = both_colours(
        "othello:size=6", f"colosseum-agent:{colosseum_dir}/lone/probe.py", "greedy"
    )[0]
    assert record.reason == "crash" and "cannot play othello" in record.detail


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("colosseum-agent:missing/student_agent.py", "no such file 'missing/student_agent.py'"),
        ("colosseum-agent:on_error=retry:{dir}/lone/probe.py", "on_error=retry is not one of"),
        ("colosseum-agent:speed=3:{dir}/lone/probe.py", "unknown parameter 'speed'"),
    ],
)
def test_bad_specs(colosseum_dir: Path, spec: str, words: str) -> None:
    with pytest.raises(SpecError, match=words):
        load_agent(spec.format(dir=colosseum_dir))


def test_setup_course_draws_the_simulators_boards() -> None:
    game = load_game("colosseum:setup=course")
    sizes = set()
    for seed in range(300):
        state = game.initial_state(seed)
        size = state.size
        sizes.add(size)
        inner = (
            sum(state.has_wall(r, c, d) for r in range(size) for c in range(size) for d in (1, 2))
            - 2 * size
        )  # right and down sides: each inner wall once, plus the border's
        pairs = (size + 1) // 2
        assert pairs <= inner <= 2 * pairs
    assert sizes == set(range(6, 12))
    arena = load_game("colosseum").initial_state(0)
    assert arena.size in range(6, 13)
    with pytest.raises(SpecError, match=r"setup=simulator is not one of arena\|course"):
        load_game("colosseum:setup=simulator")


def test_the_cmd_limits_hold(colosseum_dir: Path) -> None:
    spinning = colosseum_dir / "lone" / "spinning.py"
    spinning.write_text(
        (colosseum_dir / "lone" / "probe.py")
        .read_text()
        .replace("        r, c = my_pos\n", "        while True:\n            pass\n", 1)
    )
    spec = f"colosseum-agent:cpu=1:{spinning}"
    record = both_colours(SMALL, spec, control="move:20")[0]
    assert record.reason == "crash" and "over its 1 s CPU limit" in record.detail


def test_course_agents_are_programs_already(colosseum_dir: Path) -> None:
    for spec in ("othello-ai:x/agent.py", f"colosseum-agent:{colosseum_dir}/lone/probe.py"):
        assert isolated(spec) == spec


def test_arena_agents_lists_both_kinds(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["agents"]) == 0
    out = capsys.readouterr().out
    for words in (
        "othello-ai:[OPTIONS:]PATH/agent.py",
        "header=full (full|color)",
        "colosseum-agent:[OPTIONS:]PATH/student_agent.py",
        "on_error=forfeit (forfeit|random)",
        "python=arena's python",
    ):
        assert words in out


def test_class_names_a_class_of_the_file_not_another_registered_agent(colosseum_dir: Path) -> None:
    spec = f"colosseum-agent:class=wall_hugger:{colosseum_dir}/project/agents/student_agent.py"
    record = both_colours(SMALL, spec)[0]
    assert record.reason == "crash"
    assert (
        "no agent class 'wall_hugger' in agents.student_agent; found: StudentAgent" in record.detail
    )
    spec = f"colosseum-agent:class=wall_hugger:{colosseum_dir}/project/agents/wall_hugger.py"
    assert both_colours(SMALL, spec)[0].reason == "normal"


def test_the_course_clock_gives_the_first_move_its_allowance(
    colosseum_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The course allows 30 s for an agent's first move and 2 s for the others (scaled
    down: first:3 and 0.5 s): an agent written for it plays whole games, and loses its
    first move on a plain move time."""
    spec = f"colosseum-agent:{colosseum_dir}/lone/first_slow.py"
    for record in both_colours(SMALL, spec, control="move:0.5,first:3"):
        assert record.reason == "normal", record.detail
    record = both_colours(SMALL, spec, control="move:0.5")[0]
    assert (record.reason, record.loser, len(record.moves)) == ("time", 0, 0), record.detail
    # A Fischer clock with the allowance: the first move is off the clock.
    record = play_game(load_game(SMALL), [spec, "random"], TimeControl.parse("1+0.1,first:3"))
    assert record.reason == "normal", record.detail
    argv = ["match", SMALL, spec, "random", "--games", "1", "--time", "move:0.5,first:3"]
    assert main([*argv, "--json", "--quiet"]) == 0
    result = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert all(not line["forfeits"] for line in result["agents"].values()), result
    # arena play holds the agent to the same clock against a person (here: random).
    assert main(["play", SMALL, "random:seed=1", spec, "--time", "move:0.5,first:3"]) == 0
    assert "loses:" not in capsys.readouterr().out
