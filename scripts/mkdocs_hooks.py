"""MkDocs hooks (mkdocs.yml `hooks:`): pages that are generated from arena itself, so they
cannot go stale.

A page asks for generated text with an HTML comment on a line of its own:

- `<!-- arena-cli -->`: the command-line reference, one section per command (and per
  sub-command of `arena bench` and `arena experiment`), each with the command's `--help`,
  read from the parser `arena` itself builds;
- `<!-- arena-output: WORDS -->`: what `arena WORDS` prints (`games`, `agents`), in a code
  block.

Tests: tests/test_docs.py
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import shlex
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The sources of this checkout, before any installed copy.
sys.path.insert(0, str(ROOT / "src"))

from arena.cli.main import build_parser, main  # noqa: E402

MARKER = re.compile(r"^<!-- arena-(cli|output: [^>]*?) -->$", re.MULTILINE)
WIDTH = "100"
"""Columns for argparse's help (it reads COLUMNS), the same on every machine."""


def sub_commands(parser: argparse.ArgumentParser) -> dict[str, tuple[str, argparse.ArgumentParser]]:
    """The sub-commands of `parser`: name -> (its one-line help, its parser)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help or "" for choice in action._choices_actions}
            return {name: (helps.get(name, ""), sub) for name, sub in action.choices.items()}
    return {}


def cli_reference() -> str:
    """Markdown for every command: a heading, its one-line help and its `--help`."""
    os.environ["COLUMNS"] = WIDTH
    parts: list[str] = []
    for name, (summary, parser) in sub_commands(build_parser()).items():
        parts.append(command_section(f"arena {name}", summary, parser, "##"))
        for sub, (sub_summary, sub_parser) in sub_commands(parser).items():
            parts.append(command_section(f"arena {name} {sub}", sub_summary, sub_parser, "###"))
    return "\n".join(parts)


def command_section(title: str, summary: str, parser: argparse.ArgumentParser, level: str) -> str:
    text = parser.format_help().rstrip()
    return f"{level} `{title}`\n\n{summary[:1].upper()}{summary[1:]}.\n\n```text\n{text}\n```\n"


def command_output(words: str) -> str:
    """What `arena WORDS` prints, in a text code block."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(shlex.split(words))
    if status:
        raise RuntimeError(f"arena {words} exited with status {status}")
    return f"```text\n$ arena {words}\n{out.getvalue().rstrip()}\n```"


def on_page_markdown(markdown: str, **_: object) -> str:
    def expand(found: re.Match[str]) -> str:
        what = found.group(1)
        if what == "cli":
            return cli_reference()
        return command_output(what.removeprefix("output: ").strip())

    return MARKER.sub(expand, markdown)
