"""The command that installs an extra: right for a checkout, a folder, a repository or a wheel."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

from arena.core.install import Source, extra_command, requirements, this_source

ROOT = Path(__file__).resolve().parents[2]


def test_a_checkout_installs_itself_editable_with_the_extra() -> None:
    source = this_source()
    assert source.checkout == ROOT  # the tests run from the sources
    command = extra_command("plot")
    assert (
        command == f"{shlex.quote(sys.executable)} -m pip install -e {shlex.quote(f'{ROOT}[plot]')}"
    )
    assert "'arena[plot]'" not in command  # the package index's arena is another project


def test_a_folder_install_names_the_folder_and_keeps_editable() -> None:
    folder = Source(None, "file:///home/a%20b/arena", editable=True, vcs=None)
    assert extra_command("plot", folder, [], "py") == "py -m pip install -e '/home/a b/arena[plot]'"
    built = Source(None, "file:///opt/arena", editable=False, vcs=None)
    assert extra_command("plot", built, [], "py") == "py -m pip install '/opt/arena[plot]'"


def test_a_repository_install_names_the_repository() -> None:
    repo = Source(None, "https://example.org/arena.git", editable=False, vcs="git")
    assert extra_command("plot", repo, [], "py") == (
        "py -m pip install 'arena[plot] @ git+https://example.org/arena.git'"
    )


def test_otherwise_the_extra_s_own_packages() -> None:
    wheel = Source(None, None, editable=False, vcs=None)
    assert extra_command("plot", wheel, ["matplotlib>=3.7"], "py") == (
        "py -m pip install 'matplotlib>=3.7'"
    )
    # Nothing known at all: say the source is needed, never the index's 'arena'.
    assert "<the arena source>[plot]" in extra_command("plot", wheel, [], "py")


def test_the_plot_extra_s_requirements_come_from_the_metadata() -> None:
    assert any(r.startswith("matplotlib") for r in requirements("plot"))


def test_an_experiment_without_matplotlib_prints_that_command(tmp_path: Path) -> None:
    # A real missing matplotlib: a module named matplotlib that fails to import, first on
    # the path of a fresh interpreter.
    (tmp_path / "matplotlib.py").write_text("raise ImportError('simulated: not installed')\n")
    env_path = f"{tmp_path}:{ROOT / 'src'}"
    done = subprocess.run(
        [sys.executable, "-m", "arena", "experiment", "visits-vs-c", "--out", str(tmp_path / "o")],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin"},
        timeout=120,
    )
    assert done.returncode == 2 and done.stdout == ""
    expected = f"{shlex.quote(sys.executable)} -m pip install -e {shlex.quote(f'{ROOT}[plot]')}"
    assert done.stderr.strip().splitlines() == [
        f"arena: error: experiments draw with matplotlib, which is not installed: {expected}"
    ]
