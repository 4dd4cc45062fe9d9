"""arena: adversarial search in board games.

>>> import arena
>>> game = arena.load_game("tictactoe")
>>> arena.perft(game.initial_state(), 2)
72
"""

from arena.agents import Agent, load_agent
from arena.errors import ArenaError, IllegalMove, MoveSyntaxError, SpecError
from arena.game import Game, State, load_game
from arena.limit import Limit
from arena.perft import perft
from arena.playout import random_playout

__version__ = "0.1.0"

__all__ = [
    "Agent",
    "ArenaError",
    "Game",
    "IllegalMove",
    "Limit",
    "MoveSyntaxError",
    "SpecError",
    "State",
    "__version__",
    "load_agent",
    "load_game",
    "perft",
    "random_playout",
]
