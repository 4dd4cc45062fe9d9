"""arena: adversarial search in board games.

>>> import arena
>>> game = arena.load_game("tictactoe")
>>> arena.perft(game.initial_state(), 2)
72
"""

from arena.agents import load_agent
from arena.core.agent import Agent
from arena.core.errors import ArenaError, IllegalMove, MoveSyntaxError, SpecError
from arena.core.game import Game, State
from arena.core.limit import Limit
from arena.core.perft import perft
from arena.core.playout import random_playout
from arena.core.version import VERSION
from arena.games import load_game

__version__ = VERSION

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
