"""``arena bench threats``: the threat search near the stones against the whole board's,
the same nodes and wins, with both speeds and the load; bad options are one line."""

from __future__ import annotations

import json

import pytest

from arena.cli.main import main


def test_it_reports_both_speeds_and_no_difference(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["bench", "threats", "--positions", "12", "--nodes", "300", "--json"])
    assert code == 0
    out = capsys.readouterr()
    result = json.loads(out.out.strip().splitlines()[-1])
    assert result["positions"] == 12 and result["differ"] == 0
    assert result["nodes"] > 12 and result["wins"] > 0
    assert result["per_second"]["near"] > 0 and result["per_second"]["whole"] > 0
    assert len(result["load"]) == 2
    assert "nodes/s" in out.err and "0 searches differ" in out.err


@pytest.mark.parametrize("option", ["--positions", "--nodes"])
def test_bad_counts_are_one_line(option: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["bench", "threats", option, "0"])
    assert code != 0
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "must be >= 1" in err
