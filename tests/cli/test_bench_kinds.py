"""``arena bench tournament`` and ``arena bench web`` run and report their figures (the
figures themselves are measured, never asserted)."""

from __future__ import annotations

import json

import pytest

from arena.cli.main import main


def test_bench_tournament_reports_its_games(capsys: pytest.CaptureFixture) -> None:
    assert main(["bench", "tournament", "--games", "4", "--repeat", "1", "--json"]) == 0
    out = capsys.readouterr()
    result = json.loads(out.out.strip().splitlines()[-1])
    assert result["games"] == 4 and result["wall_s"] > 0 and "4 games" in out.err


def test_bench_web_times_every_game(capsys: pytest.CaptureFixture) -> None:
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    assert main(["bench", "web", "--repeat", "2", "--json"]) == 0
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert set(result["games"]) >= {"connect4", "go:size=19", "othello"}
    assert all(row["median_ms"] > 0 for row in result["games"].values())
    assert result["ping_max_ms"] is not None


def test_bad_counts_are_one_line(capsys: pytest.CaptureFixture) -> None:
    assert main(["bench", "tournament", "--games", "1"]) == 2
    assert main(["bench", "web", "--repeat", "0"]) == 2
    err = capsys.readouterr().err
    assert "--games must be >= 2" in err and "--repeat must be >= 1" in err
