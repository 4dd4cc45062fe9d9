"""Go agents in the final project's style, written for arena's tests: classes with
get_move(game_state, time_limit) returning an action index (size*size: the pass)."""

import json
import time

from go_search_problem import GoProblem

print("agents.py loaded")  # course code prints: it must not reach the protocol


class GameAgent:
    def get_move(self, game_state, time_limit):
        raise NotImplementedError


class FirstLegalAgent(GameAgent):
    """The first legal action that is not the pass (the pass when there is none)."""

    def get_move(self, game_state, time_limit):
        return game_state.legal_actions()[0]


class MCTSAgent(FirstLegalAgent):
    """The default class name: here, the last legal point (numpy-free), then the pass."""

    def get_move(self, game_state, time_limit):
        actions = game_state.legal_actions()
        return actions[-2] if len(actions) > 1 else actions[-1]


class PassAgent(GameAgent):
    def get_move(self, game_state, time_limit):
        return game_state.size * game_state.size


class CrashAgent(GameAgent):
    def get_move(self, game_state, time_limit):
        raise RuntimeError("the search tree is empty")


class GarbageAgent(GameAgent):
    def get_move(self, game_state, time_limit):
        return "e4"


class OffBoardAgent(GameAgent):
    def get_move(self, game_state, time_limit):
        return 99


class OccupiedAgent(GameAgent):
    """Plays the first legal point, then the same point again."""

    def __init__(self):
        self.first = None

    def get_move(self, game_state, time_limit):
        if self.first is None:
            self.first = game_state.legal_actions()[0]
        return self.first


class HangAgent(GameAgent):
    def get_move(self, game_state, time_limit):
        while True:
            time.sleep(1)


class ClockAgent(GameAgent):
    """Spends a tenth of the time it is given, and checks it is the clock (1+0.1): never more
    than the start plus one increment per move made."""

    def __init__(self):
        self.moves = 0

    def get_move(self, game_state, time_limit):
        if not 0 < time_limit <= 1.0 + 0.1 * self.moves:
            raise ValueError(f"time_limit {time_limit} is not the clock")
        self.moves += 1
        time.sleep(time_limit / 10)
        return game_state.legal_actions()[0]


class StatefulAgent(GameAgent):
    """One instance per game: the stones on the board grow with the moves it made."""

    def __init__(self):
        self.problem = GoProblem(5)
        self.calls = 0

    def get_move(self, game_state, time_limit):
        black, white = game_state.stones()
        if self.calls == 0 and len(black) + len(white) > 1:
            raise RuntimeError("a fresh instance in the middle of a game")
        if self.calls and game_state.internal_state is self.last:
            raise RuntimeError("the same state object twice")
        self.last = game_state.internal_state
        self.calls += 1
        return game_state.legal_actions()[0]


class ModelAgent(GameAgent):
    """Loads a saved file from its folder (as the course's agents load value_model.pt)."""

    def __init__(self):
        with open("weights.json") as saved:
            self.preference = json.load(saved)["preference"]

    def get_move(self, game_state, time_limit):
        legal = game_state.legal_actions()
        for action in self.preference:
            if action in legal:
                return action
        return legal[0]


class IterativeDeepeningAgent(GameAgent):
    """Deepens while time is left (a tenth of it): here one ply deeper each round over a
    trivial evaluation, the centre first."""

    def get_move(self, game_state, time_limit):
        deadline = time.monotonic() + time_limit / 10
        legal = game_state.legal_actions()
        centre = (game_state.size * game_state.size) // 2
        best, depth = legal[0], 0
        while time.monotonic() < deadline and depth < 3:
            depth += 1
            best = min(legal, key=lambda a: abs(a - centre) + (depth if a == legal[-1] else 0))
        return best
