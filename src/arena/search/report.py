"""Search reports: a table a person can read to answer "why this move?".

>>> from arena.core.agent import SearchInfo
>>> info = SearchInfo(seconds=0.5, nodes=1000, depth=3, root=[
...     {"move": "d3", "visits": 700, "win_rate": 0.61, "ucb": 0.66, "rank": 1, "proven": ""},
...     {"move": "c4", "visits": 300, "win_rate": 0.52, "ucb": 0.60, "rank": 2, "proven": ""}])
>>> print(format_search(info, limit=5))
move  visits  share  win rate     UCB  rank
d3       700  70.0%     0.610   0.660     1
c4       300  30.0%     0.520   0.600     2
1,000 simulations in 0.50 s (2,000/s), tree depth 3

Tests: tests/cli/test_cli.py, tests/search/test_mcts.py
"""

from __future__ import annotations

from arena.core.agent import SearchInfo
from arena.core.game import State
from arena.search.values import HEURISTIC_UNITS, Units, is_proven


def value_rows(
    state: State, rows: list[tuple[int, float, str]], depth: int, unit: Units = HEURISTIC_UNITS
) -> list[dict]:
    """Root rows of a depth-limited search: ``(move, value, bound)`` with bound one of
    ``=``, ``>=``, ``<=``, in the order given (best first); ``text`` is the value in
    ``unit`` (``+11.7 discs``, ``win in 5``)."""
    fmt = state.game.format_move
    return [
        {
            "move": fmt(move),
            "value": round(value, 3),
            "bound": bound,
            "depth": depth,
            "text": unit.text(value),
            "unit": "" if is_proven(value) else unit.name,
        }
        for move, value, bound in rows
    ]


def format_search(info: SearchInfo | None, limit: int = 10) -> str:
    if info is None:
        return "(no search information)"
    rows = info.root[:limit]
    lines: list[str] = []
    rate = f"{info.nodes / info.seconds:,.0f}/s" if info.seconds > 0 else "-"
    if rows and "visits" in rows[0]:
        total = sum(r["visits"] for r in info.root) or 1
        # az's rows add the network's prior, the searched value and (Gumbel) the improved
        # policy: what the network believed before the search and after it.
        extra = [k for k in ("prior", "policy", "value") if k in rows[0]]
        heads = "".join(f"{k:>8}" for k in extra)
        lines.append(
            f"{'move':<6}{'visits':>6}{'share':>7}{heads}{'win rate':>10}{'UCB':>8}{'rank':>6}"
        )
        for r in rows:
            win = "-" if r["win_rate"] is None else f"{r['win_rate']:.3f}"
            ucb = "-" if r["ucb"] is None else f"{r['ucb']:.3f}"
            proven = f"  proven {r['proven']}" if r.get("proven") else ""
            cells = "".join("       -" if r[k] is None else f"{r[k]:>8.3f}" for k in extra)
            lines.append(
                f"{r['move']:<6}{r['visits']:>6}{r['visits'] / total:>7.1%}{cells}{win:>10}"
                f"{ucb:>8}{r['rank']:>6}{proven}"
            )
        summary = f"{info.nodes:,} simulations in {info.seconds:.2f} s ({rate})"
        if info.depth is not None:
            summary += f", tree depth {info.depth}"
        if info.engine:
            summary += f" ({info.engine} engine)"
    elif rows:
        lines.append(f"{'move':<6}{'value':>16}  {'':<8}{'depth':>5}")
        for r in rows:
            bound = "" if r.get("bound", "=") == "=" else r["bound"] + " "
            lines.append(f"{r['move']:<6}{bound + r['text']:>16}  {'':<8}{r['depth']:>5}")
        summary = f"{info.nodes:,} nodes in {info.seconds:.2f} s ({rate}), depth {info.depth}"
        if info.method == "book":
            summary = (
                f"the opening book's move, no search ({info.seconds * 1000:.1f} ms): each "
                f"move's value the book's search of the position after it (depth {info.depth})"
            )
        if any(r.get("bound", "=") != "=" for r in rows):
            summary += (
                "\n<= and >=: bounds from alpha-beta's cut-offs (the value is at most / at least)"
            )
    else:
        summary = f"no search ({info.seconds * 1000:.1f} ms)"
    if len(info.root) > limit:
        lines.append(f"... {len(info.root) - limit} more moves")
    lines.append(summary)
    if info.units and rows and "visits" not in rows[0]:
        lines.append(info.units)
    if rows and rows[0].get("pv"):
        lines.append("principal variation: " + " ".join(rows[0]["pv"]))
    return "\n".join(lines)


def for_analysis(agent: object, rows: int) -> None:
    """Make ``agent`` value its best ``rows`` root moves exactly if it can (``ids`` with
    ``multipv``), unless its spec chose ``multipv`` itself: what a person asking for
    analysis wants, where bounds from pruning would say little. (Here rather than in
    :mod:`arena.search.alphabeta.ids`, so the command line does not import numba to start.)"""
    if hasattr(agent, "multipv") and "multipv=" not in str(getattr(agent, "spec", "")):
        agent.multipv = max(rows, 2)  # type: ignore[attr-defined]
