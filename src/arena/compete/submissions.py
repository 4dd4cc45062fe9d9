"""A class's submissions: one folder (or zip) per student, each classified as an agent spec
or refused with the reason.

A teacher's download holds one entry per student; :func:`discover` looks at each and
returns a :class:`Submission`: the student's name (the folder's name, spaces and all), and
either the spec that plays for them or the one-line reason it cannot. Nothing is run and
nothing is imported: files are read and parsed (``ast``), so a submission that prints,
hangs or deletes files at import does none of it here. What is recognised, in order:

1. ``arena.toml`` (``spec = "..."``, or ``[agent] spec = "..."``) or ``arena-spec.txt``
   (one line): the spec as written, its paths relative to the folder;
2. a course framework by its files (``docs/course-agents.md``):
   ``MCTS.py`` beside ``game1.py`` (the Connect Four MCTS lab, ``mcts-lab:``);
   ``agents.py`` with a ``get_move`` class (the Go final project, ``cs410-agent:``);
   ``student_agent.py`` (Colosseum Survival, ``colosseum-agent:``);
   a program that imports ``othello_shared`` (the Othello assignment, ``othello-ai:``);
3. a Python file with one class that has ``choose(self, state, limit)`` (``py:``).

A submission is refused, with the reason, when its folder is empty, holds a file over
the size limit, has a syntax error in the file that would play, lacks the class or
function its framework calls, holds more than one candidate and no ``arena.toml`` says
which, or is for another game than the league's (a Colosseum agent in a Connect Four
league). Zips (one per student, as Moodle and Canvas hand them out) are unpacked by
:func:`unpack` first, refusing paths that leave the folder and archives over the size
limit.

Tests: tests/compete/test_league.py
"""

from __future__ import annotations

import ast
import contextlib
import os
import re
import shlex
import shutil
import tomllib
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from arena.agents.pyclass import py_file
from arena.agents.registry import load_agent
from arena.core.errors import ArenaError
from arena.core.spec import utf8_text
from arena.remote.sandbox import SYSTEM_DIRS

MAX_BYTES = 50 * 1024 * 1024
"""The largest file a submission may hold (``--max-file-size``): a 200 MB file is not an
agent's weights for a course assignment, and a sandbox would have to bind it."""

MAX_FILES = 2000
"""More files than this in one submission (a virtualenv, a dataset) is refused."""

SKIPPED = frozenset({"__pycache__", "__MACOSX", ".git", ".venv", "venv", "env", "node_modules"})
"""Folders never looked into (and never counted)."""

FRAMEWORK_GAMES = {
    "mcts-lab": "connect4",
    "cs410-agent": "go",
    "colosseum-agent": "colosseum",
    "othello-ai": "othello",
}
"""The game each course framework plays; ``py:`` and explicit specs play any."""

FRAMEWORK_NAMES = {
    "mcts-lab": "a Connect Four MCTS lab agent",
    "cs410-agent": "a Go final project agent",
    "colosseum-agent": "a Colosseum Survival agent",
    "othello-ai": "an Othello assignment program",
    "py": "a py: class",
}


@dataclass(frozen=True)
class Submission:
    """One student's entry: the spec that plays for them, or why none does.

    >>> Submission("ada", "/c/ada", spec="py:/c/ada/bot.py:Bot").ok
    True
    >>> print(Submission("bob", "/c/bob", reason="empty folder"))
    bob: refused: empty folder
    """

    name: str
    """The student's folder name (the player's display name in the league)."""
    folder: str
    spec: str | None = None
    reason: str = ""
    """Why there is no spec (empty when there is one)."""
    how: str = ""
    """How the spec was found (``arena.toml``, ``mcts-lab (MCTS.py, game1.py)``, ...)."""

    @property
    def ok(self) -> bool:
        return self.spec is not None

    def __str__(self) -> str:
        return (
            f"{self.name}: {self.spec} ({self.how})"
            if self.ok
            else (f"{self.name}: refused: {self.reason}")
        )


def discover(folder: str | Path, game: str, max_bytes: int = MAX_BYTES) -> list[Submission]:
    """Every entry of ``folder`` (a sub-folder per student), classified for ``game`` (its
    name, ``connect4``), sorted by name; a loose file in the class folder is listed as
    refused too, so nothing handed in is skipped silently."""
    root = Path(folder).absolute()
    if not root.is_dir():
        raise ArenaError(f"{folder}: no such folder (a folder with one sub-folder per student)")
    out = []
    for entry in sorted(root.iterdir(), key=lambda p: p.name):
        if entry.name.startswith(".") or entry.name in SKIPPED:
            continue
        if entry.is_dir():
            out.append(classify(entry, game, max_bytes))
        elif entry.suffix.lower() == ".zip":
            out.append(
                Submission(entry.stem, str(entry), reason="a zip: unpack it with --unzip DIR")
            )
        else:
            out.append(
                Submission(entry.name, str(entry), reason="a file, not a folder per student")
            )
    return out


def classify(folder: Path, game: str, max_bytes: int = MAX_BYTES) -> Submission:
    """One student's folder: its spec for ``game``, or the reason it has none."""
    name = folder.name
    try:
        utf8_text(name)
    except ArenaError as exc:  # the name is the player's, in every table and the database
        shown = os.fsencode(name).decode("utf-8", "replace")
        return Submission(shown, str(folder), reason=f"its name {exc}")
    try:
        files = list(_files(folder))
    except OSError as exc:
        return Submission(name, str(folder), reason=f"cannot read the folder ({exc.strerror})")
    if len(files) > MAX_FILES:
        return Submission(name, str(folder), reason=f"over {MAX_FILES} files")
    if not files:
        return Submission(name, str(folder), reason="empty folder")
    for f in files:
        size = f.stat().st_size
        if size > max_bytes:
            return Submission(
                name,
                str(folder),
                reason=f"{_rel(f, folder)} is {_mb(size)} (the limit is {_mb(max_bytes)} a file)",
            )
    try:
        spec, how = _explicit(folder) or _framework(folder, files, game)
    except ArenaError as exc:
        return Submission(name, str(folder), reason=str(exc))
    try:
        # The spec's own checks (files beside it, options). A py: class would be imported
        # here, in arena's process, so its file is only parsed (above) and found.
        if spec.lower().startswith("py:"):
            py_file(spec)
        else:
            load_agent(spec)
    except ArenaError as exc:
        return Submission(name, str(folder), reason=str(exc), how=how)
    return Submission(name, str(folder), spec=spec, how=how)


def _files(folder: Path) -> Iterator[Path]:
    for here, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED and not d.startswith("."))
        for n in sorted(names):
            if n.startswith("."):  # .gitkeep, .DS_Store: not part of an agent
                continue
            path = Path(here) / n
            if path.is_file() and not path.is_symlink():
                yield path


def _rel(path: Path, folder: Path) -> str:
    return str(path.relative_to(folder))


def _mb(size: int) -> str:
    return f"{size / 1024 / 1024:.0f} MB"


def _explicit(folder: Path) -> tuple[str, str] | None:
    """The spec an ``arena.toml`` or ``arena-spec.txt`` names, with its paths made absolute."""
    toml = folder / "arena.toml"
    if toml.is_file():
        try:
            data = tomllib.loads(toml.read_text(encoding="utf-8", errors="replace"))
        except tomllib.TOMLDecodeError as exc:
            raise ArenaError(f"arena.toml: {exc}") from None
        table = data.get("agent", data)
        spec = table.get("spec") if isinstance(table, dict) else None
        if not isinstance(spec, str) or not spec.strip():
            raise ArenaError('arena.toml names no spec (spec = "py:bot.py:Bot")')
        return _confined(absolute_paths(spec.strip(), folder), folder, "arena.toml")
    text_file = folder / "arena-spec.txt"
    if text_file.is_file():
        lines = [ln.strip() for ln in text_file.read_text(errors="replace").splitlines()]
        spec = next((ln for ln in lines if ln and not ln.startswith("#")), "")
        if not spec:
            raise ArenaError("arena-spec.txt names no spec")
        return _confined(absolute_paths(spec, folder), folder, "arena-spec.txt")
    return None


def _confined(spec: str, folder: Path, how: str) -> tuple[str, str]:
    """``spec`` and ``how``, unless the spec names a file outside ``folder``: the student
    wrote it, and a sandbox shows the folder of the file a program names (a ``cmd:`` line's
    first file), so a spec naming the teacher's or another student's file would show that
    folder to the student's code."""
    outside = outside_file(spec, folder)
    if outside is not None:
        raise ArenaError(
            f"{how} names {outside!r}, outside the folder: a submission's spec names only "
            "its own files"
        )
    return spec, how


def outside_file(spec: str, folder: Path) -> str | None:
    """The first word of ``spec`` that names a file outside ``folder`` (links followed,
    relative words from the working directory, as when the spec plays), other than the
    system's programs (``/usr``...); None when there is none.

    >>> import tempfile; d = Path(tempfile.mkdtemp()); _ = (d / "bot.py").write_text("")
    >>> outside_file(f"cmd:python {d / 'bot.py'} --fast", d) is None
    True
    >>> outside_file(f"cmd:/usr/bin/env python3 {d}/../{d.name}/bot.py", d) is None
    True
    >>> outside_file(f"cmd:python {d / 'bot.py'} /etc/passwd", d)
    '/etc/passwd'
    """
    home = folder.resolve()
    for word in _words(spec):
        path = Path(word).expanduser()
        try:
            if not path.is_file():
                continue
            real = path.resolve()
        except (OSError, RuntimeError, ValueError):  # a loop of links, a name too long
            continue
        if not any(real.is_relative_to(inside) for inside in (home, *SYSTEM_DIRS)):
            return word
    return None


def _words(spec: str) -> list[str]:
    """Every piece of ``spec`` that may be a path: its ``:`` parts, their ``,`` and ``=``
    pieces, its words as the shell splits them and as separators do."""
    words = set(spec.split(":"))
    for part in spec.split(":"):
        for piece in part.split(","):
            words.update(piece.split("="))
    with contextlib.suppress(ValueError):  # unbalanced quotes: the spec's own error later
        words.update(shlex.split(spec))
    words.update(re.split(r"[\s:,=\"'()\[\];]+", spec))
    return sorted(w for w in words if w.strip())


def absolute_paths(spec: str, folder: Path) -> str:
    """``spec`` with each path that names a file in ``folder`` made absolute, so it plays
    from any working directory: a ``:``-separated part, the value of a ``key=value``
    option, a word of a program's command line.

    >>> import tempfile; d = Path(tempfile.mkdtemp()); _ = (d / "bot.py").write_text("")
    >>> absolute_paths("py:bot.py:Bot", d) == f"py:{d / 'bot.py'}:Bot"
    True
    >>> absolute_paths("az:net=bot.py,sims=9", d) == f"az:net={d / 'bot.py'},sims=9"
    True
    >>> absolute_paths("cmd:python bot.py --fast", d) == f"cmd:python {d / 'bot.py'} --fast"
    True
    """
    if spec.lower().startswith(COMMAND_LINES):
        try:
            words = shlex.split(spec)
        except ValueError:  # unbalanced quotes: the spec's own error when it is loaded
            return spec
        return shlex.join(str(folder / w) if (folder / w).is_file() else w for w in words)

    def absolute(piece: str) -> str:
        key, equals, value = piece.rpartition("=")
        if value and (folder / value).is_file():
            return f"{key}{equals}{folder / value}"
        return piece

    return ":".join(
        ",".join(absolute(piece) for piece in part.split(",")) for part in spec.split(":")
    )


COMMAND_LINES = ("cmd:", "gtp:", "pbrain:")
"""Prefixes of specs whose rest is a command line (options first: ``cmd:memory=512:...``)."""


def _framework(folder: Path, files: list[Path], game: str) -> tuple[str, str]:
    """The course framework (or ``py:`` class) the files are written for, checked."""
    found: list[tuple[str, Path, str]] = []  # (framework, file to play, what was seen)
    by_name: dict[str, list[Path]] = {}
    for f in files:
        by_name.setdefault(f.name, []).append(f)
    for f in by_name.get("MCTS.py", []):
        if (f.parent / "game1.py").is_file():
            found.append(("mcts-lab", f, "MCTS.py beside game1.py"))
    for f in by_name.get("agents.py", []):
        if _mentions(f, r"def\s+get_move\s*\("):
            found.append(("cs410-agent", f, "agents.py with get_move"))
    for f in by_name.get("student_agent.py", []):
        found.append(("colosseum-agent", f, "student_agent.py"))
    for f in files:
        if (
            f.suffix == ".py"
            and f.name != "othello_shared.py"
            and _mentions(f, r"^\s*(from\s+othello_shared\s+import|import\s+othello_shared)")
        ):
            found.append(("othello-ai", f, f"{f.name} imports othello_shared"))
    if not found:
        py = [(f, cls) for f in files if f.suffix == ".py" for cls in _choose_classes(f)]
        if len(py) == 1:
            f, cls = py[0]
            found.append(("py", f, f"class {cls} with choose in {f.name}"))
        elif len(py) > 1:
            listed = ", ".join(f"{_rel(f, folder)}:{c}" for f, c in py[:4])
            raise ArenaError(
                f"several agent classes ({listed}): name one in arena.toml "
                '(spec = "py:FILE.py:CLASS")'
            )
    if not found:
        if not any(f.suffix == ".py" for f in files):
            raise ArenaError(
                f"no Python file (found {', '.join(_rel(f, folder) for f in files[:3])})"
            )
        broken = _syntax_error(files, folder)
        if broken:
            raise ArenaError(broken)
        raise ArenaError(
            "no agent found: no course framework's files (MCTS.py and game1.py, agents.py, "
            "student_agent.py, an othello_shared program) and no class with "
            "choose(self, state, limit); name the spec in arena.toml"
        )
    playable = [x for x in found if FRAMEWORK_GAMES.get(x[0], game) == game]
    if not playable:
        kind, f, seen = found[0]
        raise ArenaError(
            f"{FRAMEWORK_NAMES[kind]} ({_rel(f, folder)}), which plays "
            f"{FRAMEWORK_GAMES[kind]}, not {game}"
        )
    if len({(k, f) for k, f, _ in playable}) > 1:
        listed = ", ".join(f"{k}:{_rel(f, folder)}" for k, f, _ in playable[:4])
        raise ArenaError(f"several agents ({listed}): name one in arena.toml")
    kind, f, seen = playable[0]
    error = _check(kind, f)
    if error:
        raise ArenaError(f"{_rel(f, folder)}: {error}")
    if kind == "py":
        return f"py:{f}:{_choose_classes(f)[0]}", seen
    return f"{kind}:{f}", f"{kind} ({seen})"


def _source(f: Path) -> str:
    return f.read_text(encoding="utf-8", errors="replace")


def _mentions(f: Path, pattern: str) -> bool:
    try:
        return re.search(pattern, _source(f), re.MULTILINE) is not None
    except OSError:
        return False


def _parse(f: Path) -> ast.Module | str:
    """The file's syntax tree, or its syntax error in one line."""
    try:
        return ast.parse(_source(f), filename=f.name)
    except SyntaxError as exc:
        return f"syntax error line {exc.lineno}: {exc.msg}"
    except (ValueError, OSError, RecursionError) as exc:
        return f"cannot parse ({exc})"


def _syntax_error(files: list[Path], folder: Path) -> str:
    for f in files:
        if f.suffix == ".py":
            tree = _parse(f)
            if isinstance(tree, str):
                return f"{_rel(f, folder)}: {tree}"
    return ""


def _choose_classes(f: Path) -> list[str]:
    tree = _parse(f)
    if isinstance(tree, str):
        return []
    return [
        node.name
        for node in tree.body
        if isinstance(node, ast.ClassDef)
        and any(
            isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and item.name == "choose"
            for item in node.body
        )
    ]


def _check(kind: str, f: Path) -> str:
    """What is missing from the file that plays: a syntax error, the function or class
    its framework calls; empty when nothing is."""
    tree = _parse(f)
    if isinstance(tree, str):
        return tree
    functions = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    classes = {
        n.name: {i.name for i in n.body if isinstance(i, ast.FunctionDef)}
        for n in tree.body
        if isinstance(n, ast.ClassDef)
    }
    if kind == "mcts-lab" and "MCTS" not in functions:
        return "no function MCTS(root, rollouts), which the lab calls"
    if kind == "cs410-agent" and not any("get_move" in m for m in classes.values()):
        return "no class with get_move(game_state, time_limit)"
    if kind == "colosseum-agent" and not any("step" in m for m in classes.values()):
        return "no agent class with step(chess_board, my_pos, adv_pos, max_step)"
    return ""


def unpack(folder: str | Path, into: str | Path, max_bytes: int = MAX_BYTES * 4) -> list[str]:
    """Unpack each ``NAME.zip`` of ``folder`` into ``into/NAME`` (once: an existing folder
    is kept), refusing members that leave it or archives over ``max_bytes`` unpacked.
    Returns one line per archive that could not be unpacked; those students are then
    listed as refused by :func:`discover` of ``into``."""
    problems = []
    target_root = Path(into)
    target_root.mkdir(parents=True, exist_ok=True)
    for archive in sorted(Path(folder).glob("*.zip")):
        target = target_root / archive.stem
        if target.exists():
            continue
        try:
            with zipfile.ZipFile(archive) as z:
                members = z.infolist()
                if sum(m.file_size for m in members) > max_bytes:
                    raise ArenaError(f"unpacks to over {_mb(max_bytes)}")
                tmp = target_root / f".{archive.stem}.partial"
                shutil.rmtree(tmp, ignore_errors=True)
                for m in members:
                    dest = (tmp / m.filename).resolve()
                    if not dest.is_relative_to(tmp.resolve()):
                        raise ArenaError(f"a member leaves the folder ({m.filename})")
                z.extractall(tmp)
                inner = [p for p in tmp.iterdir() if p.name not in SKIPPED]
                # A zip of one folder (alice.zip holding alice/): that folder is the entry.
                root = inner[0] if len(inner) == 1 and inner[0].is_dir() else tmp
                root.rename(target)
                shutil.rmtree(tmp, ignore_errors=True)
        except (zipfile.BadZipFile, OSError, ArenaError) as exc:
            problems.append(f"{archive.name}: cannot unpack ({exc})")
            shutil.rmtree(target_root / f".{archive.stem}.partial", ignore_errors=True)
            target.mkdir(exist_ok=True)  # listed, as empty, so it is never silently left out
    for entry in sorted(Path(folder).iterdir()):
        if entry.is_dir() and not (target_root / entry.name).exists():
            (target_root / entry.name).symlink_to(entry.resolve(), target_is_directory=True)
    return problems
