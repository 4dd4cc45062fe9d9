"""``python -m arena``: the command line (what ``--isolate`` runs with this Python)."""

import sys

from arena.cli.main import main

sys.exit(main())
