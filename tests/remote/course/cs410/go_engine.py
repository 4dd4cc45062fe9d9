"""Makes the Go game of the stencil: OpenSpiel's when pyspiel is installed, else the small
engine in tiny_go.py (STENCIL_ENGINE=fallback forces it; =none acts as if neither were
there)."""

import os

ENGINE = os.environ.get("STENCIL_ENGINE", "")

try:
    if ENGINE:
        raise ImportError("pyspiel switched off by STENCIL_ENGINE")
    import pyspiel
except ImportError:
    pyspiel = None


def komi_for(size):
    return 0.5 if size == 5 else 5.5 if size == 9 else 7.5


def create_go_game(size):
    if pyspiel is not None:
        game = pyspiel.load_game("go", {"board_size": size, "komi": komi_for(size)})
        return game.new_initial_state()
    if ENGINE == "none":
        raise ImportError("this stencil needs pyspiel (or its fallback engine)")
    from tiny_go import TinyGo

    return TinyGo(size, komi_for(size))
