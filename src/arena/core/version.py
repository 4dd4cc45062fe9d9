"""The package's version, in the bottom layer so that every layer may name it
(``arena --version``, the SGF ``AP`` property, the GTP ``version`` command).

Tests: tests/cli/test_cli.py, tests/remote/gtp/test_server.py
"""

VERSION = "0.1.0"
