"""A Griffe extension (mkdocs.yml, mkdocstrings' `extensions:`): arena's docstrings, written
for `help()` and doctest, read as Markdown on the API reference pages.

- Sphinx roles (`:class:`~arena.core.limit.Limit``, `:func:`load_game``) become code
  spans (`Limit`, `load_game`): the reference is plain text, never a broken link.
- Doctest examples (`>>>` lines and their output, up to a blank line) become `pycon` code
  blocks, instead of Markdown quotes.
- Indented blocks after a line ending in `::` (reStructuredText's literal blocks) become
  code blocks.

Tests: tests/test_docs.py
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:class|mod|func|meth|attr|data|exc|obj):`(~?)([^`]+)`")


def role_to_code(found: re.Match[str]) -> str:
    short, target = found.groups()
    return f"`{target.rsplit('.', 1)[-1] if short else target}`"


def markdown(text: str) -> str:
    """The docstring `text` as Markdown.

    >>> print(markdown("See :func:`~arena.games.load_game`.\\n\\n>>> 1 + 1\\n2\\n\\nEnd."))
    See `load_game`.
    <BLANKLINE>
    ```pycon
    >>> 1 + 1
    2
    ```
    <BLANKLINE>
    End.
    """
    text = ROLE.sub(role_to_code, text)
    out: list[str] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.lstrip()
        if stripped.startswith(">>>"):
            indent = line[: len(line) - len(stripped)]
            out.append(f"{indent}```pycon")
            while i < len(lines) and lines[i].strip():
                out.append(lines[i])
                i += 1
            out.append(f"{indent}```")
            continue
        if stripped.endswith("::") and i + 1 < len(lines):
            out.append(line[:-1])  # "Example::" reads "Example:"
            i += 1
            block: list[str] = []
            base = len(line) - len(stripped)
            while i < len(lines) and (
                not lines[i].strip() or len(lines[i]) - len(lines[i].lstrip()) > base
            ):
                block.append(lines[i])
                i += 1
            while block and not block[-1].strip():
                block.pop()
            while block and not block[0].strip():
                block.pop(0)
            body = [b for b in block if b.strip()]
            if body:
                cut = min(len(b) - len(b.lstrip()) for b in body)
                out += ["", "```text", *(b[cut:] for b in block), "```", ""]
            continue
        out.append(line)
        i += 1
    return "\n".join(out)


class MarkdownDocstrings(griffe.Extension):
    """Rewrites every docstring Griffe reads (see the module's docstring)."""

    def on_instance(self, *, obj: griffe.Object, **_: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown(obj.docstring.value)
