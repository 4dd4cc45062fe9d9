"""Regenerate the experiment pages: ``docs/experiments/NAME/`` and ``docs/experiments.md``.

Usage (from the checkout; nice'd, one page after another, about 25 minutes for all eight
on an idle 2-core machine):

    .venv/bin/python scripts/experiment_pages.py                 # every page, then the text
    .venv/bin/python scripts/experiment_pages.py c-sweep heatmap  # some pages, then the text
    .venv/bin/python scripts/experiment_pages.py --text-only      # the text from the CSVs

Each page reruns the command printed at its top (edit that line to change a page's size),
writing its figure, tables and run note; then the run-time table and the numbers in
docs/experiments.md are rewritten from the pages. See arena.experiments.pages.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from arena.core.errors import ArenaError  # noqa: E402
from arena.experiments import experiment_names  # noqa: E402
from arena.experiments.pages import regenerate  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", metavar="NAME", help="pages to rerun (default: all)")
    parser.add_argument("--text-only", action="store_true", help="only rewrite the text")
    parser.add_argument("--docs", type=Path, default=ROOT / "docs", help="the docs folder")
    args = parser.parse_args()
    try:
        regenerate(args.docs, args.names or list(experiment_names()), args.text_only)
    except ArenaError as problem:
        print(f"experiment_pages: {problem}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
