"""The ``arena`` command line: one module per command, wired up in :mod:`arena.cli.main`."""
