"""An agent file that needs PyTorch (a learned value function), for arena's tests."""

import torch  # noqa: F401

from agents import FirstLegalAgent


class MCTSAgent(FirstLegalAgent):
    pass
