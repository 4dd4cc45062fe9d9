"""``arena bench threads``: simulations (nodes) per second per thread count, with the work
per processor-second and the load; bad counts are one line."""

from __future__ import annotations

import json

import pytest

from arena.cli.main import main


def test_it_reports_every_count_and_kind(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["bench", "threads", "--games", "tictactoe", "--threads", "1,2", "--kinds", "tree,root",
         "--seconds", "0.05", "--rounds", "1", "--json"]
    )  # fmt: skip
    assert code == 0
    out = capsys.readouterr()
    result = json.loads(out.out.strip().splitlines()[-1])
    rates = result["rates"]["tictactoe"]
    assert set(rates) == {"tree", "root"}
    for kind in rates.values():
        assert set(kind) == {"1", "2"}
        assert all(v["per_second"] > 0 and v["per_cpu_second"] > 0 for v in kind.values())
    assert len(result["load"]) == 2
    assert "mcts tree sims/s" in out.err and "load" in out.err


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [("--threads", "0,2", "--threads counts must be >= 1"),
     ("--threads", "two", "--threads takes counts like 1,2"),
     ("--kinds", "leaf", "--kinds takes tree, root and ids")],
)  # fmt: skip
def test_bad_options_are_one_line(
    option: str, value: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["bench", "threads", "--games", "tictactoe", option, value])
    assert code != 0
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
