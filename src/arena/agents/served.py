"""``python -m arena.agents.served py:FILE.py:CLASS``: a ``py:`` agent's own process.

What the referee runs for a ``py:`` agent (:func:`arena.agents.pyclass.own_process`):
:func:`arena.remote.serve.serve` over the line protocol, as ``arena serve`` does, but
without the command line's modules, so the process starts sooner. The protocol takes
stdout before the file is imported: what the file prints as it loads (a greeting,
pygame's banner) goes to stderr, the agent's log; and stdin, so an ``input()`` in
the agent finds nothing to read (EOFError: play it ``--in-process`` to type to it).

Tests: tests/agents/test_pyclass.py
"""

from __future__ import annotations

import sys

from arena.agents.pyclass import load_py_agent
from arena.core.errors import ArenaError
from arena.remote.serve import protocol_stdin, protocol_stdout, serve


def main(argv: list[str]) -> int:
    """Serve the ``py:`` spec ``argv[0]``; the exit status."""
    if len(argv) != 1:
        print("usage: python -m arena.agents.served py:FILE.py:CLASS", file=sys.stderr)
        return 2
    out, inp = protocol_stdout(), protocol_stdin()
    try:
        agent = load_py_agent(argv[0], keep_path=True)
    except ArenaError as exc:
        print(f"arena serve: error: {exc}", file=sys.stderr, flush=True)
        return 2
    return serve(agent, stdin=inp, stdout=out)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
