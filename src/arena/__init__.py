"""arena: adversarial search in board games.

>>> import arena
>>> game = arena.load_game("tictactoe")
>>> arena.perft(game.initial_state(), 2)
72
"""

from arena.core.numba_dir import use_versioned_cache
from arena.core.numba_errors import plain_error_messages

use_versioned_cache()  # before any module of the package imports numba
plain_error_messages()  # likewise: numba's coloured errors swap sys.stdout from any thread

from arena.agents import load_agent  # noqa: E402
from arena.core.agent import Agent, SearchInfo  # noqa: E402
from arena.core.errors import ArenaError, IllegalMove, MoveSyntaxError, SpecError  # noqa: E402
from arena.core.game import Game, State  # noqa: E402
from arena.core.limit import Limit  # noqa: E402
from arena.core.perft import perft  # noqa: E402
from arena.core.playout import random_playout  # noqa: E402
from arena.core.version import VERSION  # noqa: E402
from arena.games import load_game  # noqa: E402

__version__ = VERSION

__all__ = [
    "Agent",
    "ArenaError",
    "Game",
    "IllegalMove",
    "Limit",
    "MoveSyntaxError",
    "SearchInfo",
    "SpecError",
    "State",
    "__version__",
    "load_agent",
    "load_game",
    "perft",
    "random_playout",
]
