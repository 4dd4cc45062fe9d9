"""The folders here hold course-style agents (programs and student projects), not tests:
pytest must not import them (some read stdin or register classes when imported)."""

import shutil
from pathlib import Path

import pytest

collect_ignore = ["othello", "colosseum", "cs410", "mcts_lab"]
HERE = Path(__file__).parent


@pytest.fixture
def othello_dir(tmp_path: Path) -> Path:
    """A copy of the Othello assignment folder (programs write files where they run)."""
    return Path(shutil.copytree(HERE / "othello", tmp_path / "othello assignment"))


@pytest.fixture
def colosseum_dir(tmp_path: Path) -> Path:
    """A copy of the Colosseum Survival folders: ``project/`` and ``lone/``."""
    return Path(shutil.copytree(HERE / "colosseum", tmp_path / "colosseum"))


@pytest.fixture
def cs410_dir(tmp_path: Path) -> Path:
    """A copy of the Go final project's folder (in a folder whose name has a space)."""
    return Path(shutil.copytree(HERE / "cs410", tmp_path / "go project"))


@pytest.fixture
def lab_dir(tmp_path: Path) -> Path:
    """A copy of the Connect Four MCTS lab's folder."""
    return Path(shutil.copytree(HERE / "mcts_lab", tmp_path / "mcts lab"))
