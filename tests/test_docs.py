"""The documentation cannot go stale: the site builds in strict mode, every command it shows
is one `arena` accepts (and the cheap ones run), and the README's links resolve.

- The site (mkdocs.yml, docs/) builds with `mkdocs build --strict`: a broken link or anchor,
  a page missing from the nav, a docstring the API reference cannot read, fails. Every page
  in docs/ is in the nav.
- Every line that starts with `arena ` (or `.venv/bin/arena `) in a ```sh block of README.md
  or docs/ is parsed by arena's own argument parser (a renamed option fails), and the block
  runs: a page's blocks run in order in one fresh folder, each command within BUDGET seconds,
  unless the line before the block says why not: `<!-- not run: 25 min -->` (or it is an
  experiment page's command, `<!-- numbers NAME -->`, run shrunk by its own test). A block after
  `<!-- file: NAME -->` is written to NAME in that folder first (the agent a tutorial has
  you write, then play). `$ arena ...` lines in other code blocks (transcripts with their
  output) are parsed.
- The examples in `arena COMMAND --help` are parsed the same way.
- README.md's relative links and images point at files that exist, and their `#anchors` at
  headings of the page they name.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest

from arena.cli.main import attach_negative_values, build_parser, value_options

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
BUDGET = 90
"""Seconds one command of a run block may take on a busy 2-core machine (the cheap ones take
a second or two; the first use of a game's compiled code up to 30 s)."""

NOT_RUN = re.compile(r"^<!-- not run: (.+?) -->$")
FILE = re.compile(r"^<!-- file: (\S+) -->$")
NUMBERS = re.compile(r"^<!-- numbers (\S+) -->$")
"""docs/experiments.md's blocks made from an experiment page (scripts/experiment_pages.py):
the command of a run of minutes, which tests/experiments/test_pages.py runs shrunk."""
FENCE = re.compile(r"^(\s*)```(\S*)")
ARENA = re.compile(r"^(?:\$ )?(?:\.venv/bin/)?arena (.*)$")


def pages() -> list[Path]:
    """README.md and every page of the site (each experiment's generated table aside)."""
    return [README, *sorted(p for p in DOCS.rglob("*.md") if "experiments/" not in str(p))]


@dataclass(frozen=True)
class Block:
    """One fenced code block's arena commands."""

    page: Path
    line: int
    language: str
    commands: tuple[tuple[int, str], ...]  # (line number, the words after `arena`)
    not_run: str | None  # why it is not run, from the marker before it
    file: str | None = None  # the file it is, from the marker before it
    text: str = ""

    @property
    def name(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    """The code blocks of `page` with an arena command or a file's text."""
    found: list[Block] = []
    lines = page.read_text().splitlines()
    i = 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        indent, language = opening.groups()
        before = next((line.strip() for line in reversed(lines[:i]) if line.strip()), "")
        marker = NOT_RUN.match(before) or NUMBERS.match(before)
        file = FILE.match(before)
        start = i
        commands: list[tuple[int, str]] = []
        i += 1
        while i < len(lines) and lines[i].strip() != "```":
            number, line = i + 1, lines[i].strip()
            while line.endswith("\\") and i + 1 < len(lines):
                i += 1
                line = line[:-1] + " " + lines[i].strip()
            command = ARENA.match(line)
            if command and (language == "sh" or line.startswith("$ ")):
                commands.append((number, command.group(1)))
            i += 1
        text = "\n".join(line[len(indent) :] for line in lines[start + 1 : i]) + "\n"
        i += 1
        if commands or file:
            reason = marker.group(1) if marker else None
            name = file.group(1) if file else None
            found.append(Block(page, start + 1, language, tuple(commands), reason, name, text))
    return found


ALL_BLOCKS = [block for page in pages() for block in blocks(page)]
RUN_BLOCKS = [b for b in ALL_BLOCKS if b.language == "sh" and b.commands and b.not_run is None]
RUN_PAGES = sorted({b.page for b in RUN_BLOCKS})


def words(command: str) -> list[str]:
    return shlex.split(command, comments=True)


def test_the_pages_show_commands() -> None:
    """The collection works: the README and the site show many commands, some run."""
    assert sum(len(b.commands) for b in ALL_BLOCKS) >= 30
    assert len(RUN_BLOCKS) >= 5
    assert any(b.page == README for b in RUN_BLOCKS)


COMMAND_BLOCKS = [b for b in ALL_BLOCKS if b.commands]


@pytest.mark.parametrize("block", COMMAND_BLOCKS, ids=[b.name for b in COMMAND_BLOCKS])
def test_every_command_is_one_arena_accepts(block: Block) -> None:
    parser = build_parser()
    options = value_options(parser)
    for number, command in block.commands:
        try:
            parser.parse_args(attach_negative_values(words(command), options))
        except SystemExit as exc:
            pytest.fail(
                f"{block.page.relative_to(ROOT)}:{number}: `arena {command}` is refused by "
                f"arena's parser (exit {exc.code})"
            )


@pytest.mark.parametrize("page", RUN_PAGES, ids=[str(p.relative_to(ROOT)) for p in RUN_PAGES])
def test_every_cheap_command_runs(page: Path, tmp_path: Path) -> None:
    """The page's blocks run in order in one fresh folder (the agent file a tutorial writes,
    a tournament's database for the `arena results` after it), each command within BUDGET
    seconds."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), *sys.path])}
    for block in blocks(page):
        if block.file:
            (tmp_path / block.file).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / block.file).write_text(block.text)
        if block not in RUN_BLOCKS:
            continue
        for number, command in block.commands:
            run_one(f"{page.relative_to(ROOT)}:{number}: `arena {command}`", command, tmp_path, env)


def run_one(where: str, command: str, folder: Path, env: dict[str, str]) -> None:
    try:
        done = subprocess.run(
            [sys.executable, "-m", "arena", *words(command)],
            cwd=folder,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=BUDGET,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(
            f"{where} took over {BUDGET} s: shorten it, or mark its block with "
            "<!-- not run: HOW LONG --> on the line before"
        )
    assert done.returncode == 0, f"{where} exited {done.returncode}:\n{done.stderr[-2000:]}"
    assert "Traceback" not in done.stderr, f"{where}:\n{done.stderr[-2000:]}"


def test_a_marker_names_a_reason_and_a_block() -> None:
    """`<!-- not run: ... -->` and `<!-- file: ... -->` stand right before their block."""
    for page in pages():
        lines = page.read_text().splitlines()
        for i, line in enumerate(lines):
            if line.lstrip().startswith(("<!-- not run", "<!-- file")):
                line = line.strip()
                assert NOT_RUN.match(line) or FILE.match(line), (
                    f"{page}:{i + 1}: write <!-- not run: WHY --> or <!-- file: NAME -->"
                )
                following = [rest for rest in lines[i + 1 :] if rest.strip()]
                assert following and FENCE.match(following[0]), (
                    f"{page}:{i + 1}: the marker must stand right before a code block"
                )


def github_anchor(heading: str) -> str:
    """The anchor GitHub gives a heading.

    >>> github_anchor("Matches, tournaments and the `results` database")
    'matches-tournaments-and-the-results-database'
    """
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def test_the_readme_links_resolve() -> None:
    text = README.read_text()
    links = LINK.findall(text)
    assert links
    for target in links:
        if re.match(r"[a-z]+:", target):
            continue  # http(s), mailto: checked by nobody here
        path, _, anchor = target.partition("#")
        if path:
            assert (ROOT / path).exists(), f"README.md links to {target}, which does not exist"
        if anchor:
            page = (ROOT / path).read_text() if path else text
            headings = {github_anchor(h) for h in re.findall(r"(?m)^#+ (.+)$", page)}
            assert anchor in headings, f"README.md links to {target}: no such heading"


def loaded(name: str) -> ModuleType:
    """One of the scripts/ modules the site's build runs."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_docstrings_read_as_markdown() -> None:
    pytest.importorskip("griffe")
    convert = loaded("griffe_docstrings").markdown
    text = convert(
        "Uses :class:`~arena.core.limit.Limit` and :mod:`arena.games`.\n"
        "\n"
        ">>> 1 + 1\n"
        "2\n"
        "\n"
        "The exchange::\n"
        "\n"
        "    arena -> program   ready\n"
        "\n"
        "Done."
    )
    assert text.splitlines() == [
        "Uses `Limit` and `arena.games`.",
        "",
        "```pycon",
        ">>> 1 + 1",
        "2",
        "```",
        "",
        "The exchange:",
        "",
        "```text",
        "arena -> program   ready",
        "```",
        "",
        "Done.",
    ]


def test_the_cli_reference_has_every_command() -> None:
    hooks = loaded("mkdocs_hooks")
    reference = hooks.cli_reference()
    names = list(hooks.sub_commands(build_parser()))
    assert len(names) >= 15
    for name in names:
        assert f"## `arena {name}`" in reference
    assert "### `arena bench strength`" in reference
    assert "--move-time" in reference  # the options, not only the names


def test_every_example_in_the_help_is_one_arena_accepts() -> None:
    """The `examples:` of `arena COMMAND --help` are documentation too."""
    hooks = loaded("mkdocs_hooks")
    parser = build_parser()
    options = value_options(parser)
    epilogs = [
        sub.epilog or ""
        for _, command in hooks.sub_commands(parser).values()
        for sub in [command, *(p for _, p in hooks.sub_commands(command).values())]
    ]
    examples = [
        segment.strip()[len("arena ") :]
        for epilog in epilogs
        if epilog.startswith(("example: ", "examples:"))
        for segment in re.split(r"\||\n", epilog.split(":", 1)[1])
        if segment.strip().startswith("arena ")
    ]
    assert len(examples) >= 20
    for example in examples:
        try:
            parser.parse_args(attach_negative_values(words(example), options))
        except SystemExit:
            pytest.fail(f"`arena {example}` in a --help is refused by arena's parser")


def test_every_page_is_in_the_nav() -> None:
    yaml = pytest.importorskip("yaml")

    class Loader(yaml.SafeLoader):
        """mkdocs.yml's `!!python/...` values (the anchors' slugify) read as None."""

    Loader.add_multi_constructor("tag:yaml.org,2002:python/", lambda *_: None)
    config = yaml.load((ROOT / "mkdocs.yml").read_text(), Loader=Loader)

    def listed(nav: object) -> set[str]:
        if isinstance(nav, str):
            return {nav}
        if isinstance(nav, list):
            return set().union(*(listed(item) for item in nav))
        if isinstance(nav, dict):
            return set().union(*(listed(item) for item in nav.values()))
        return set()

    in_nav = listed(config["nav"])
    for page in pages()[1:]:
        name = page.relative_to(DOCS).as_posix()
        assert name in in_nav, f"docs/{name} is not in mkdocs.yml's nav"
        assert (DOCS / name).exists()
    assert all((DOCS / name).exists() for name in in_nav)


def test_the_site_builds_in_strict_mode(tmp_path: Path) -> None:
    for module in ("mkdocs", "material", "mkdocstrings", "mkdocstrings_handlers.python"):
        pytest.importorskip(module)
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    config, site = str(ROOT / "mkdocs.yml"), str(tmp_path / "site")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-f", config, "-d", site],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    assert (tmp_path / "site" / "api" / "core.html").exists()
    cli = (tmp_path / "site" / "cli.html").read_text()
    assert "arena tournament" in cli and "--rounds" in cli
