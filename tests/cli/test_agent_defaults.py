"""The defaults `arena agents` and docs/agents.md show are the ones the agents use."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from arena.agents import load_agent
from arena.agents.registry import agent_class, agent_names
from arena.cli.main import main
from arena.core.errors import SpecError
from arena.core.limit import Limit
from arena.games import load_game

PAGE = Path(__file__).resolve().parents[2] / "docs" / "agents.md"


@pytest.mark.parametrize("name", agent_names())
def test_every_listed_default_is_the_one_in_use(name: str) -> None:
    agent = load_agent(name)
    for param in agent_class(name).params:
        if param.default is not None:
            assert agent.config[param.name] == param.default, param.name
            continue
        assert agent.config[param.name] is None
        if param.default_text is not None:
            # A text standing for "no value" must not read as a value the agent would use
            # (mcts showed rollouts=1000 and searched on time under a clock).
            with pytest.raises(SpecError):
                param.convert(name, param.default_text)


def test_mcts_says_it_searches_on_time_and_does(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["agents"]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.strip().startswith("rollouts="))
    assert line.strip().startswith("rollouts=none (int, 1..)")
    assert "as many as the move's time allows" in line and "1000 when neither" in line
    state = load_game("connect4").initial_state()
    mcts = load_agent("mcts")
    rollouts, seconds = mcts.budget(Limit(time=0.2), state)
    assert rollouts == math.inf and seconds == pytest.approx(0.2)
    assert mcts.budget(Limit(), state) == (1000, None)
    assert load_agent("mcts:rollouts=50").budget(Limit(time=0.2), state)[0] == 50


def agent_rows() -> list[tuple[str, str]]:
    """The agents page's table of specs: (spec, description) for the built-in names."""
    rows = []
    for line in PAGE.read_text().splitlines():
        found = re.match(r"\| `([a-z]+)(?::([^`]*))?` \| (.*) \|$", line)
        if found and found.group(1) in agent_names():
            rows.append((f"{found.group(1)}:{found.group(2) or ''}", found.group(3)))
    return rows


def test_the_agent_table_shows_true_defaults() -> None:
    rows = agent_rows()
    assert {spec.split(":")[0] for spec, _ in rows} >= {"minimax", "alphabeta", "ids", "mcts"}
    for spec, _ in rows:
        name, _, pairs = spec.partition(":")
        params = {p.name: p for p in agent_class(name).params}
        for pair in filter(None, pairs.split(",")):
            key, _, text = pair.partition("=")
            value = params[key].convert(name, text)
            default = params[key].default
            # Was mcts:rollouts=1000 (no default: it searches on time) and eval=utility.
            assert default is not None, f"docs/agents.md: {name}:{pair} has no default"
            if isinstance(default, float):
                assert value == pytest.approx(default, rel=1e-3), f"docs/agents.md: {name}:{pair}"
            else:
                assert value == default, f"docs/agents.md: {name}:{pair} (default {default})"
