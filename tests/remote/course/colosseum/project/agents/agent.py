class Agent:
    """The base class of the project's agents."""

    def __init__(self):
        self.name = "BaseAgent"
        self.autoplay = True

    def __str__(self):
        return self.name

    def step(self, chess_board, my_pos, adv_pos, max_step):
        raise NotImplementedError
