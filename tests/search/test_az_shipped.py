"""The networks shipped in the package, and ``az`` without ``net=`` playing them."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import arena
from arena.core.errors import SpecError
from arena.search.az import shipped
from arena.search.az.network import load, random_network
from arena.web.catalog import agents_json, check_agent

MAX_BYTES = 5 * 1024 * 1024
"""Issue 28: each shipped network under 5 MB."""


@pytest.mark.parametrize("path", sorted(shipped.DIRECTORY.glob("*")), ids=lambda p: p.name)
def test_every_shipped_file_is_a_network_that_fits_its_game_and_is_small(path):
    assert path.suffix == ".npz", f"{path.name}: only networks belong in nets/"
    assert path.stat().st_size < MAX_BYTES
    net = load(path)
    net.check(arena.load_game(net.game))
    assert shipped.available()[net.game] == path


@pytest.fixture
def nets(tmp_path, monkeypatch):
    """A package directory holding a random Tic-tac-toe network (and a stray file)."""
    game = arena.load_game("tictactoe")
    random_network(game, filters=4, blocks=0, seed=3).save(tmp_path / "tictactoe.npz")
    (tmp_path / "notes.npz").write_bytes(b"not a zip")
    monkeypatch.setattr(shipped, "DIRECTORY", tmp_path)
    return tmp_path


def test_the_network_is_found_by_the_game_it_was_trained_for(nets):
    assert shipped.network_for(arena.load_game("tictactoe")) == nets / "tictactoe.npz"
    assert list(shipped.available()) == ["tictactoe"]  # the stray file is left out


def test_a_game_without_a_shipped_network_is_one_line_naming_what_ships(nets):
    with pytest.raises(SpecError) as err:
        shipped.network_for(arena.load_game("connect4:cols=8"))
    message = str(err.value)
    assert "\n" not in message
    assert "no network ships for connect4:cols=8" in message
    assert "shipped: tictactoe" in message and "arena train connect4:cols=8" in message


def test_az_without_net_plays_the_shipped_network_of_each_game_it_meets(nets):
    agent = arena.load_agent("az:sims=16,seed=1")
    game = arena.load_game("tictactoe")
    assert agent.choose(game.initial_state(), arena.Limit()) in range(9)
    assert agent.network.game == "tictactoe"
    # The same network as loading the file by name: the same search, the same visits.
    named = arena.load_agent(f"az:net={nets / 'tictactoe.npz'},sims=16,seed=1")
    named.choose(game.initial_state(), arena.Limit())
    assert [r["visits"] for r in agent.last_search.root] == [
        r["visits"] for r in named.last_search.root
    ]
    with pytest.raises(SpecError, match="no network ships for connect4"):
        agent.choose(arena.load_game("connect4").initial_state(), arena.Limit())


def test_a_named_network_is_kept_whatever_ships(nets, tmp_path_factory):
    other = tmp_path_factory.mktemp("mine") / "mine.npz"
    game = arena.load_game("tictactoe")
    random_network(game, filters=2, blocks=0, seed=9).save(other)
    agent = arena.load_agent(f"az:net={other},sims=8")
    agent.choose(game.initial_state(), arena.Limit())
    assert np.array_equal(agent.network.weights["stem_w"], load(other).weights["stem_w"])


def test_the_cli_without_a_shipped_network_fails_in_one_line():
    run = subprocess.run(
        [sys.executable, "-m", "arena", "play", "gomoku", "az:sims=4", "random"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode != 0
    assert "Traceback" not in run.stderr
    assert "no network ships for gomoku" in run.stderr


def test_the_web_board_offers_az_with_the_shipped_network_and_never_a_server_file(nets):
    (az,) = [a for a in agents_json() if a["name"] == "az"]
    assert "net" not in [p["name"] for p in az["params"]]
    agent = check_agent("az:sims=8", allow_programs=False)
    agent.choose(arena.load_game("tictactoe").initial_state(), arena.Limit())
    assert agent.network.game == "tictactoe"
    for spec in (f"az:net={nets / 'tictactoe.npz'}", "AZ: NET = /etc/passwd"):
        with pytest.raises(SpecError, match=r"az:net= reads a file on the server.*allow-programs"):
            check_agent(spec, allow_programs=False)
    assert check_agent(f"az:net={nets / 'tictactoe.npz'}", allow_programs=True).network
