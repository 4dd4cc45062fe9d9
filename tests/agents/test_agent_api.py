"""Loading agents by spec, users' own classes, the human prompt and Limit."""

from __future__ import annotations

import io
import textwrap
from pathlib import Path

import pytest

import arena
from arena.agents.human import HumanAgent
from arena.core.agent import Resign, Undo
from arena.core.errors import SpecError


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("chess-engine", "unknown agent 'chess-engine'; valid: random, greedy, human, minimax"),
        ("mcts:c=-1", "c=-1 is out of range"),
        ("mcts:tree=greedy", "tree=greedy is not one of uct|egreedy"),
        ("alphabeta:depth=x", "depth=x is not an int"),
        ("alphabeta:cache=maybe", "cache=maybe is not a boolean"),
        ("ids:speed=3", "unknown parameter 'speed'; valid: time=1"),
        ("py:nowhere.py:Agent", "no such file nowhere.py"),
        ("py:agent", "expected py:path/to/file.py:ClassName"),
    ],
)
def test_bad_agent_specs(spec: str, message: str) -> None:
    with pytest.raises(SpecError) as info:
        arena.load_agent(spec)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_every_documented_spec_loads() -> None:
    for spec in [
        "mcts:c=0.5,rollouts=100",
        "alphabeta:depth=5,cache=1,order=1,eval=heuristic",
        "minimax:depth=3,eval=utility",
        "ids",
        "greedy",
        "random",
        "human",
        "mcts:tree=egreedy,eps=0.2,expand=all,rollout=heuristic,final=max,reuse=1,solver=1",
    ]:
        agent = arena.load_agent(spec)
        assert arena.load_agent(agent.spec).spec == agent.spec


def test_a_users_class_from_a_file(tmp_path: Path) -> None:
    source = tmp_path / "mine.py"
    source.write_text(
        textwrap.dedent("""
        import arena
        from arena.core.spec import Param

        class LastMove:
            def choose(self, state, limit):
                return state.legal_moves()[-1]

        class Deep(arena.Agent):
            name = "deep"
            summary = "first legal move, with a parameter"
            params = (Param("depth", int, 1, "unused"),)
            def choose(self, state, limit):
                return state.legal_moves()[0]
    """)
    )
    game = arena.load_game("connect4")
    last = arena.load_agent(f"py:{source}:LastMove")
    assert last.choose(game.initial_state(), arena.Limit()) == 6
    deep = arena.load_agent(f"py:{source}:Deep:depth=3")
    assert deep.config == {"depth": 3}
    with pytest.raises(SpecError, match="no class 'Nope'"):
        arena.load_agent(f"py:{source}:Nope")
    with pytest.raises(SpecError, match="unknown parameter 'x'; valid: none"):
        arena.load_agent(f"py:{source}:LastMove:x=1")
    broken = tmp_path / "broken.py"
    broken.write_text("import nonexistent_module_xyz\n")
    with pytest.raises(SpecError, match=r"importing .* failed: ModuleNotFoundError"):
        arena.load_agent(f"py:{broken}:Any")


def human(lines: str) -> tuple[HumanAgent, io.StringIO]:
    out = io.StringIO()
    return HumanAgent(stdin=io.StringIO(lines), stdout=out), out


def test_human_reprompts_on_bad_input_and_plays_a_legal_move() -> None:
    game = arena.load_game("tictactoe")
    state = game.initial_state().play(4)
    agent, out = human("\nhelp\nzz\nb2\nmoves\nc3\n")
    move = agent.choose(state, arena.Limit())
    text = out.getvalue()
    assert game.format_move(move) == "c3"
    assert "not a move" in text and "b2 is not legal here" in text and "undo" in text
    assert text.count("your move>") == 6


@pytest.mark.parametrize("lines", ["quit\n", ""])
def test_human_quits(lines: str) -> None:
    agent, _ = human(lines)
    with pytest.raises(Resign):
        agent.choose(arena.load_game("connect4").initial_state(), arena.Limit())


def test_human_undo_takes_back_only_what_they_played() -> None:
    game = arena.load_game("connect4")
    agent, out = human("undo\n4\nundo\n")
    state = game.initial_state()
    assert agent.choose(state, arena.Limit()) == 3  # undo before any move of theirs: refused
    assert "nothing to undo" in out.getvalue()
    with pytest.raises(Undo):  # after their move and a reply, undo goes to the match
        agent.choose(state.play(3).play(0), arena.Limit())


def test_human_help_explains_the_notation_of_the_game_at_hand() -> None:
    for spec, example in [("connect4", "4"), ("go:size=9", "F5"), ("othello", "f5")]:
        game = arena.load_game(spec)
        agent, out = human("help\nquit\n")
        with pytest.raises(Resign):
            agent.choose(game.initial_state(), arena.Limit())
        text = out.getvalue()
        assert game.notation in text and f"for example {example}" in text


def test_human_hears_the_rules_reason_for_an_illegal_move() -> None:
    game = arena.load_game("connect4")
    state = game.play_moves(game.parse_moves("1 1 1 1 1 1"))
    agent, out = human("1\n2\n")
    assert agent.choose(state, arena.Limit()) == 1
    assert "1 is not legal here: " + str(_illegal(state, 0)) in out.getvalue()


def _illegal(state: arena.State, move: int) -> Exception:
    with pytest.raises(arena.IllegalMove) as caught:
        state.play(move)
    return caught.value


def test_human_prompt_counts_long_move_lists_instead_of_printing_them() -> None:
    agent, out = human("quit\n")
    with pytest.raises(Resign):
        agent.choose(arena.load_game("go:size=9").initial_state(), arena.Limit())
    text = out.getvalue()
    assert (
        "82 legal moves (type moves to list them)" in text and "J9" not in text.split("to move")[1]
    )


def test_limit_is_a_small_immutable_value() -> None:
    limit = arena.Limit(time=0.5, depth=3)
    assert (limit.time, limit.depth, limit.rollouts, limit.nodes) == (0.5, 3, None, None)
    with pytest.raises(AttributeError):
        limit.time = 1  # type: ignore[misc]
    assert arena.Limit().unbounded and not limit.unbounded
    with pytest.raises(SpecError, match="depth must be > 0"):
        arena.Limit(depth=0)


@pytest.mark.parametrize(("engine", "reports"), [("python", 50), ("fast", 4)])
def test_the_listener_sees_mcts_grow_and_can_stop_it(engine: str, reports: int) -> None:
    """The reference reports after every iteration, the compiled engine after every batch
    (a few hundred simulations): both grow, and both stop when asked."""
    agent = arena.load_agent(f"mcts:rollouts=3000,seed=4,engine={engine}")
    agent.progress_every = 0.0  # every unit of work, so the test does not depend on speed
    seen: list[int] = []
    agent.listener = lambda info: seen.append(info.nodes) or len(seen) == reports
    agent.choose(arena.load_game("connect4").initial_state(), arena.Limit())
    assert seen == sorted(seen) and len(seen) == reports and seen[-1] < 3000
    assert agent.last_search is not None and agent.last_search.engine == engine
    assert agent.last_search is not None and agent.last_search.nodes == seen[-1]
    agent.listener = None  # nobody listens: the whole budget
    agent.choose(arena.load_game("connect4").initial_state(), arena.Limit())
    assert agent.last_search is not None and agent.last_search.nodes == 3000


@pytest.mark.parametrize("game_spec", ["connect4", "gomoku:size=9", "tictactoe"])
def test_ids_reports_every_depth_and_stop_ends_the_depth_under_way(game_spec: str) -> None:
    """Compiled engines (Connect Four, Gomoku) and the Python search alike."""
    game = arena.load_game(game_spec)
    agent = arena.load_agent("ids:maxdepth=4,cache=0")
    depths: list[int | None] = []
    agent.listener = lambda info: depths.append(info.depth) or False
    agent.choose(game.initial_state(), arena.Limit())
    assert depths == [1, 2, 3, 4]
    # stop() from the listener, which lets the search go on: depth 2 starts, and ends at
    # its first node, so the answer is depth 1's.
    depths.clear()
    agent.listener = lambda info: depths.append(info.depth) or agent.stop() or False
    agent.choose(game.initial_state(), arena.Limit())
    assert depths == [1] and agent.last_search is not None and agent.last_search.depth == 1


FINISHED_SPECS = ["random", "greedy", "minimax", "alphabeta", "ids", "mcts", "solver", "best"]


@pytest.mark.parametrize("spec", FINISHED_SPECS)
def test_every_agent_refuses_a_finished_game_in_one_line(spec: str) -> None:
    # Asked for a move after the game ended, each search used to fail inside itself
    # (mcts: "max() arg is an empty sequence"; ids: "tuple index out of range").
    from arena.core.errors import GameOver

    state = arena.load_game("tictactoe").initial_state()
    for move in (0, 3, 1, 4, 2):  # X's row a1-c1
        state = state.play(move)
    agent = arena.load_agent(spec)
    with pytest.raises(GameOver) as info:
        agent.choose(state, arena.Limit(time=0.2))
    message = str(info.value)
    assert message == f"{spec}: no move: the game is over (X wins)"
    assert "\n" not in message


def test_a_users_agent_subclass_refuses_a_finished_game_and_plays_the_rest() -> None:
    from arena.core.errors import GameOver

    class First(arena.Agent):
        """The first legal move."""

        def choose(self, state: arena.State, limit: arena.Limit) -> int:
            return state.legal_moves()[0]

    class Checked(First):
        def choose(self, state: arena.State, limit: arena.Limit) -> int:
            return super().choose(state, limit)  # First's own check runs again: harmless

    game = arena.load_game("go:size=5")
    state = game.initial_state()
    for cls in (First, Checked):
        assert cls().choose(state, arena.Limit()) == state.legal_moves()[0]
        over = state.play(game.pass_move).play(game.pass_move)
        with pytest.raises(
            GameOver,
            match=r"^First: no move: the game is over "
            r"\(White wins by 7\.5: B 0, W 0 \+ 7\.5 komi\)$",
        ):
            cls().choose(over, arena.Limit())
    # What the referee reads of a user's choose is still the user's own signature.
    import inspect

    assert list(inspect.signature(First.choose).parameters) == ["self", "state", "limit"]
