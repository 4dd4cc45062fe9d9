"""A stencil-shaped Go search problem: GoState wraps an engine state (OpenSpiel's or the
fallback's); GoProblem(size) makes the start state and transitions copy and apply."""

import go_engine


class GoState:
    def __init__(self, internal_state, player_to_move=0):
        self.internal_state = internal_state
        self.size = round((len(internal_state.observation_tensor()) / 4) ** 0.5)

    def player_to_move(self):
        return self.internal_state.current_player()

    def legal_actions(self):
        return list(self.internal_state.legal_actions())

    def apply_action(self, action):
        self.internal_state.apply_action(action)

    def clone(self):
        return GoState(self.internal_state.clone())

    def is_terminal_state(self):
        return self.internal_state.is_terminal()

    def terminal_value(self):
        return self.internal_state.returns()

    def stones(self):
        """Black's and White's points, as action indices."""
        tensor = self.internal_state.observation_tensor()
        n2 = self.size * self.size
        return [{p for p in range(n2) if tensor[c * n2 + p] == 1} for c in (0, 1)]


class GoProblem:
    def __init__(self, size=5, state=None, player_to_move=0):
        self.start_state = GoState(state if state is not None else go_engine.create_go_game(size))

    def get_available_actions(self, state):
        return state.legal_actions()

    def transition(self, state, action):
        new_state = state.clone()
        new_state.apply_action(action)
        return new_state

    def is_terminal_state(self, state):
        return state.is_terminal_state()

    def get_result(self, state):
        return state.terminal_value()[0]
