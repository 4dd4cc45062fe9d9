"""How to install one of arena's extras, said right for how this arena was installed.

``pip install 'arena[plot]'`` asks the package index for a project called ``arena``,
which is not this one; ``pip install -e '.[plot]'`` works only from the checkout's
folder. :func:`extra_command` names the interpreter that runs arena (so the packages
land in its environment) and the source arena came from:

* a checkout (an editable install, or sources on ``PYTHONPATH``):
  ``python -m pip install -e '/path/to/arena[plot]'``;
* a non-editable install from a folder or a VCS URL: that folder or URL with the extra;
* anything else (a wheel from somewhere): the extra's own requirements,
  ``python -m pip install 'matplotlib>=3.7'``.

>>> source = Source(checkout=Path("/src/arena"), url=None, editable=False, vcs=None)
>>> extra_command("plot", source, ["matplotlib>=3.7"], python="python")
"python -m pip install -e '/src/arena[plot]'"
>>> extra_command("plot", Source(None, None, False, None), ["matplotlib>=3.7"], "python")
"python -m pip install 'matplotlib>=3.7'"

Tests: tests/core/test_install.py
"""

from __future__ import annotations

import json
import re
import shlex
import sys
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from urllib.parse import unquote, urlparse

DISTRIBUTION = "arena"
"""The name pyproject.toml gives the project."""


@dataclass(frozen=True)
class Source:
    """Where the running arena came from."""

    checkout: Path | None
    """The source tree the running code is in (its pyproject.toml names this project)."""
    url: str | None
    """The URL pip installed it from (PEP 610 ``direct_url.json``), if any."""
    editable: bool
    vcs: str | None
    """``git`` (or another VCS) when ``url`` is a repository."""


def this_source() -> Source:
    """Where the running arena came from: its checkout, and what pip recorded."""
    root = Path(__file__).resolve().parents[3]  # src/arena/core/install.py -> the tree
    checkout = root if _names_this_project(root / "pyproject.toml") else None
    try:
        recorded = metadata.distribution(DISTRIBUTION).read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        recorded = None
    info = json.loads(recorded) if recorded else {}
    return Source(
        checkout=checkout,
        url=info.get("url"),
        editable=bool(info.get("dir_info", {}).get("editable")),
        vcs=info.get("vcs_info", {}).get("vcs"),
    )


def requirements(extra: str) -> list[str]:
    """The requirements of ``extra`` as the installed metadata lists them (empty if unknown).

    >>> requirements("no-such-extra")
    []
    """
    try:
        listed = metadata.requires(DISTRIBUTION) or []
    except metadata.PackageNotFoundError:
        return []
    marker = re.compile(rf"""extra\s*==\s*["']{re.escape(extra)}["']""")
    return [r.split(";")[0].strip() for r in listed if ";" in r and marker.search(r)]


def extra_command(
    extra: str,
    source: Source | None = None,
    packages: list[str] | None = None,
    python: str | None = None,
) -> str:
    """The command that installs ``extra`` (e.g. ``plot``) into the running environment.

    ``source``, ``packages`` and ``python`` default to this arena's (:func:`this_source`,
    :func:`requirements`, ``sys.executable``); tests pass their own.

    >>> s = Source(None, "file:///opt/arena", editable=False, vcs=None)
    >>> extra_command("web", s, [], python="py")
    "py -m pip install '/opt/arena[web]'"
    >>> s = Source(None, "https://github.com/me/arena.git", editable=False, vcs="git")
    >>> extra_command("web", s, [], python="py")
    "py -m pip install 'arena[web] @ git+https://github.com/me/arena.git'"
    """
    source = this_source() if source is None else source
    pip = f"{shlex.quote(python or sys.executable)} -m pip install"
    folder = _folder(source.url)
    if source.checkout is not None:
        # The code that runs is this tree: install it (editable) with the extra.
        return f"{pip} -e {shlex.quote(f'{source.checkout}[{extra}]')}"
    if folder is not None:
        editable = "-e " if source.editable else ""
        return f"{pip} {editable}{shlex.quote(f'{folder}[{extra}]')}"
    if source.url and source.vcs:
        return f"{pip} {shlex.quote(f'{DISTRIBUTION}[{extra}] @ {source.vcs}+{source.url}')}"
    wanted = requirements(extra) if packages is None else packages
    if wanted:
        return f"{pip} {' '.join(shlex.quote(p) for p in wanted)}"
    return f"{pip} {shlex.quote(f'<the arena source>[{extra}]')}"


def _folder(url: str | None) -> Path | None:
    if not url or not url.startswith("file://"):
        return None
    return Path(unquote(urlparse(url).path))


def _names_this_project(pyproject: Path) -> bool:
    try:
        text = pyproject.read_text()
    except OSError:
        return False
    return re.search(rf'^name\s*=\s*"{DISTRIBUTION}"\s*$', text, re.MULTILINE) is not None
