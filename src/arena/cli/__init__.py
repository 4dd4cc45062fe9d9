"""The ``arena`` command line: one module per command, wired up in :mod:`arena.cli.main`.

Each command module exposes ``register(subparsers)`` and parses its arguments
into the typed values of the layers below, which do the work; bad input
becomes one line on stderr and exit status 2. The top layer: nothing imports
it. A new command is a new module here, added to ``COMMANDS`` in ``main``.
"""
