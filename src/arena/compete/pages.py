"""The report's pages: an index with the standings, one page per player, every game's record.

:func:`write` puts a :class:`~arena.compete.report.Report` in a folder::

    OUT/index.md              the standings: rank, Elo with its 95% interval, forfeits, a link
                              to each player's page
    OUT/players/NAME.md       one player's forfeits by kind, advice, and every game: opponent,
                              colour, result, how it ended, the stderr of a forfeit, the moves
                              with the seconds each took, links to the game's record
    OUT/games/N.json          game N's record (``arena replay``, or Open in ``arena web``)
    OUT/games/N.sgf           the same as SGF, for the games SGF has (Go, Othello, Gomoku)
    OUT/gradebook.csv         :func:`arena.compete.report.gradebook`

in Markdown (``.md``) or HTML (``.html``, one self-contained page each). Everything a
player chose (its name, what its program printed) is escaped: a student's folder named
``<script>`` shows as text.

Tests: tests/compete/test_report.py
"""

from __future__ import annotations

import html
import math
import re
from pathlib import Path

from arena.compete.report import KINDS, Game, Player, Report, gradebook
from arena.core.errors import ArenaError
from arena.formats.record import GameRecord
from arena.formats.sgf import to_sgf

FORMATS = ("md", "html")


def write(
    report: Report, out: str | Path, kind: str = "md", csv_path: str | Path | None = None
) -> Path:
    """Write the report's pages into the folder ``out`` (made if missing); the index's path.
    The gradebook goes to ``csv_path`` (default ``OUT/gradebook.csv``)."""
    if kind not in FORMATS:
        raise ArenaError(f"report format must be one of {', '.join(FORMATS)}, not {kind!r}")
    folder = Path(out)
    try:
        if folder.exists() and not folder.is_dir():
            raise ArenaError(f"{folder} is a file: give --out a folder")
        (folder / "players").mkdir(parents=True, exist_ok=True)
        (folder / "games").mkdir(exist_ok=True)
        files = file_names([p.name for p in report.players])
        sgf = {}
        for number, record in _records(report).items():
            (folder / "games" / f"{number}.json").write_text(record.to_json() + "\n")
            try:
                text = to_sgf(record)
            except ArenaError:  # a game SGF does not have
                continue
            (folder / "games" / f"{number}.sgf").write_text(text + "\n")
            sgf[number] = True
        page = Markdown() if kind == "md" else Html()
        for player in report.players:
            (folder / "players" / f"{files[player.name]}.{kind}").write_text(
                player_page(report, player, page, files, sgf)
            )
        index = folder / f"index.{kind}"
        index.write_text(index_page(report, page, files))
        Path(csv_path or folder / "gradebook.csv").write_text(gradebook(report))
    except OSError as exc:
        raise ArenaError(
            f"cannot write the report: {exc.strerror or exc}: {exc.filename}"
        ) from None
    return index


def _records(report: Report) -> dict[int, GameRecord]:
    out: dict[int, GameRecord] = {}
    for player in report.players:
        for g in player.games:
            out[g.number] = g.record
    return dict(sorted(out.items()))


def file_names(names: list[str]) -> dict[str, str]:
    """A file name for each player: its letters, digits, ``-``, ``_`` and ``.`` kept, the rest
    ``_``, distinct (a suffix where two names would meet; letter case counts on no disk).

    >>> file_names(["Ann Lee", "ann_lee", "../x", "greedy#2"])
    {'Ann Lee': 'Ann_Lee', 'ann_lee': 'ann_lee-2', '../x': '_x', 'greedy#2': 'greedy_2'}
    """
    out: dict[str, str] = {}
    taken: set[str] = set()
    for name in names:
        base = re.sub(r"[^A-Za-z0-9._-]", "_", name)[:80].lstrip(".") or "player"
        stem, k = base, 1
        while stem.lower() in taken:
            k += 1
            stem = f"{base}-{k}"
        taken.add(stem.lower())
        out[name] = stem
    return out


class Markdown:
    ext = "md"

    def text(self, s: str) -> str:
        """Text in a paragraph or a table cell: Markdown's and HTML's signs escaped."""
        s = " ".join(s.split())
        s = html.escape(s, quote=False)
        return re.sub(r"([\\`*_\[\]|#])", r"\\\1", s)

    def heading(self, level: int, s: str) -> str:
        return f"{'#' * level} {self.text(s)}\n"

    def para(self, s: str) -> str:
        return f"{s}\n"

    def link(self, label: str, href: str) -> str:
        return f"[{self.text(label)}]({href.replace(' ', '%20')})"

    def table(self, head: list[str], rows: list[list[str]]) -> str:
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        lines += ["| " + " | ".join(row) + " |" for row in rows]
        return "\n".join(lines) + "\n"

    def code(self, s: str, summary: str = "", shown: bool = False) -> str:
        fence = "`" * max(3, 1 + max((len(m) for m in re.findall(r"`+", s)), default=0))
        lead = f"{summary}:\n\n" if summary else ""
        return f"{lead}{fence}text\n{s}\n{fence}\n"

    def items(self, lines: list[str]) -> str:
        return "\n".join(f"- {line}" for line in lines) + "\n"

    def page(self, title: str, body: list[str]) -> str:
        return "\n".join(body)


class Html:
    ext = "html"

    def text(self, s: str) -> str:
        return html.escape(s)

    def heading(self, level: int, s: str) -> str:
        return f"<h{level}>{self.text(s)}</h{level}>"

    def para(self, s: str) -> str:
        return f"<p>{s}</p>"

    def link(self, label: str, href: str) -> str:
        return f'<a href="{html.escape(href)}">{self.text(label)}</a>'

    def table(self, head: list[str], rows: list[list[str]]) -> str:
        th = "".join(f"<th>{h}</th>" for h in head)
        body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
        return f"<table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"

    def code(self, s: str, summary: str = "", shown: bool = False) -> str:
        """A block of text, folded under ``summary`` unless ``shown``."""
        pre = f"<pre>{html.escape(s)}</pre>"
        if not summary:
            return pre
        return f"<details{' open' if shown else ''}><summary>{summary}</summary>{pre}</details>"

    def items(self, lines: list[str]) -> str:
        return "<ul>" + "".join(f"<li>{line}</li>" for line in lines) + "</ul>"

    def page(self, title: str, body: list[str]) -> str:
        return (
            '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
            f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>\n"
            + "\n".join(body)
            + "\n</body></html>\n"
        )


STYLE = (
    "body{font-family:system-ui,sans-serif;margin:2em;max-width:70em}"
    "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .5em;"
    "text-align:left}pre{background:#f4f4f4;padding:.5em;overflow-x:auto}"
    ".advice li{margin:.3em 0}"
)

Page = Markdown | Html


def _elo(x: float | None) -> str:
    if x is None:
        return ""
    if not math.isfinite(x):
        return "+inf" if x > 0 else "-inf"
    return f"{x:+.0f}"


def interval(player: Player) -> str:
    """``+120 [+40, +210]``: the Elo and its 95% interval; empty without games."""
    line = player.line
    if line.elo is None:
        return ""
    return f"{_elo(line.elo)} [{_elo(line.elo_low)}, {_elo(line.elo_high)}]"


def forfeit_text(player: Player) -> str:
    """``time 3, crash 1`` (the kinds with forfeits), or ``-``."""
    shown = [f"{KINDS[k]} {n}" for k, n in player.forfeits.items() if n]
    return ", ".join(shown) or "-"


def summary(report: Report) -> str:
    """One line on what was played: the game, the clock, the games and players."""
    control = report.control.describe() if report.control is not None else "?"
    absent = len(report.players) - len(report.ranked)
    return (
        f"{report.game}, {control}: {report.standings.games} games, "
        f"{len(report.ranked)} players" + (f", {absent} did not play." if absent else ".")
    )


def index_page(report: Report, page: Page, files: dict[str, str]) -> str:
    title = f"Standings: {report.title}" if report.title else "Standings"
    rows = []
    for p in report.ranked:
        t = p.line.tally
        name = page.link(p.name, f"players/{files[p.name]}.{page.ext}")
        rows.append(
            [
                str(p.rank),
                name + (" (reference)" if p.reference else ""),
                str(t.games),
                str(t.wins),
                str(t.draws),
                str(t.losses),
                f"{t.score:.1%}",
                page.text(interval(p)),
                page.text(forfeit_text(p)),
            ]
        )
    head = ["rank", "player", "games", "W", "D", "L", "score", "Elo [95%]", "forfeits"]
    body = [
        page.heading(1, title),
        page.para(page.text(summary(report))),
        page.table(head, rows),
        page.para(page.text(report.standings.elo_method + ".")),
        *_head_to_head(report, page),
        *_refused(report, page, files),
        page.para(
            "Each player's page lists its games, its forfeits and what to fix; "
            + page.link("gradebook.csv", "gradebook.csv")
            + " has one row per player for a gradebook."
        ),
    ]
    return page.page(title, body)


def _refused(report: Report, page: Page, files: dict[str, str]) -> list[str]:
    absent = [p for p in report.players if p.refused is not None]
    if not absent:
        return []
    lines = [
        page.link(p.name, f"players/{files[p.name]}.{page.ext}") + ": " + page.text(p.refused or "")
        for p in absent
    ]
    return [page.heading(2, "Did not play"), page.items(lines)]


H2H_MOST = 30
"""Players up to which the index shows the head-to-head matrix (a league of 150 students
has no room for one: its players' pages list their opponents)."""


def _head_to_head(report: Report, page: Page) -> list[str]:
    players = report.ranked
    if not 2 < len(players) <= H2H_MOST:
        return []
    cells = report.standings.head_to_head
    rows = []
    for a in players:
        row = [f"{a.rank}. {page.text(a.name)}"]
        for b in players:
            points, games = cells.get(a.name, {}).get(b.name, [0.0, 0])
            row.append("" if a is b or not games else f"{points:g}/{games}")
        rows.append(row)
    return [
        page.heading(2, "Head to head"),
        page.para("Points of the row's player against the column's (numbered by rank)."),
        page.table(["", *(str(p.rank) for p in players)], rows),
    ]


def player_page(
    report: Report, player: Player, page: Page, files: dict[str, str], sgf: dict[int, bool]
) -> str:
    t = player.line.tally
    title = (
        f"{player.name}: rank {player.rank} of {len(report.ranked)}"
        if player.refused is None
        else f"{player.name}: did not play"
    )
    spec = f" Agent: {page.text(player.spec)}." if player.spec else ""
    if player.refused is not None:
        return page.page(
            title,
            [
                page.heading(1, title),
                page.para(page.link("all players", f"../index.{page.ext}") + "."),
                page.heading(2, "What to fix"),
                page.items([page.text(a) for a in player.advice]),
            ],
        )
    body = [
        page.heading(1, title),
        page.para(
            page.link("all players", f"../index.{page.ext}")
            + f". {page.text(summary(report))}{spec}"
        ),
        page.para(
            page.text(
                f"{t.games} games: {t.wins} won, {t.draws} drawn, {t.losses} lost "
                f"(score {t.score:.1%}); Elo {interval(player) or '?'} (95% interval)."
            )
        ),
        page.heading(2, "What to fix"),
        page.items([page.text(a) for a in player.advice]),
        page.heading(2, "Forfeits by kind"),
        page.table(
            [page.text(KINDS[k]) for k in player.forfeits],
            [[str(n) for n in player.forfeits.values()]],
        ),
        page.heading(2, "Games"),
        page.table(
            ["game", "opponent", "colour", "result", "how", "moves", "your longest move", "record"],
            [_game_row(g, page, files, sgf) for g in player.games],
        ),
    ]
    for g in player.games:
        body.extend(_game_section(g, page))
    return page.page(title, body)


def _game_row(g: Game, page: Page, files: dict[str, str], sgf: dict[int, bool]) -> list[str]:
    opponent = page.link(g.opponent, f"{files[g.opponent]}.{page.ext}")
    links = page.link("json", f"../games/{g.number}.json")
    if g.number in sgf:
        links += " " + page.link("sgf", f"../games/{g.number}.sgf")
    longest = max(g.my_seconds, default=None)
    return [
        page.link(str(g.number), f"#game-{g.number}"),
        opponent,
        g.colour,
        g.result,
        page.text(g.how),
        str(len(g.record.moves)),
        "" if longest is None else f"{longest:.3f} s",
        links,
    ]


def _game_section(g: Game, page: Page) -> list[str]:
    r = g.record
    anchor = f'<a id="game-{g.number}"></a>'  # the games table links here, in both formats
    out = [
        page.heading(3, f"Game {g.number}: {g.result} against {g.opponent} ({g.colour}), {g.how}"),
        anchor,
    ]
    if r.reason != "normal" and r.detail:
        out.append(page.para(page.text(f"What happened: {r.detail}")))
    if g.forfeited and r.last_seconds is not None:
        out.append(
            page.para(
                page.text(
                    f"The answer that lost took {r.last_seconds:.3f} s (your move {g.failed_move})."
                )
            )
        )
    if g.forfeited and r.stderr:
        out.append(page.code(r.stderr, "The end of your agent's stderr", shown=True))
    out.append(page.code(_moves_text(g), "Moves (ply, move, seconds, who)"))
    return out


def _moves_text(g: Game) -> str:
    lines = []
    for m in g.moves:
        seconds = "opening" if m.seconds is None else f"{m.seconds:8.3f} s"
        lines.append(f"{m.ply:4}  {m.move:<6} {seconds:>10}  {'you' if m.mine else g.opponent}")
    if g.forfeited:
        spent = g.record.last_seconds
        shown = "" if spent is None else f"{spent:8.3f} s"
        lines.append(f"{len(g.moves) + 1:4}  {'-':<6} {shown:>10}  you: {g.how}")
    return "\n".join(lines) or "(no moves)"
