"""``arena web``: its options, the warning off localhost, clear errors before serving."""

from __future__ import annotations

from typing import Any

import pytest

from arena.cli.main import main

uvicorn = pytest.importorskip("uvicorn")


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Calls of uvicorn.run, which does not serve here."""
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: calls.append({"app": app, **kw}))
    return calls


def test_it_binds_localhost_by_default(served: list, capsys: pytest.CaptureFixture) -> None:
    assert main(["web"]) == 0
    assert served[0]["host"] == "127.0.0.1" and served[0]["port"] == 8000
    err = capsys.readouterr().err
    assert "http://127.0.0.1:8000/" in err and "warning" not in err


def test_another_host_gets_a_warning(served: list, capsys: pytest.CaptureFixture) -> None:
    assert main(["web", "--host", "0.0.0.0", "--port", "8123", "--allow-programs"]) == 0
    assert served[0]["host"] == "0.0.0.0" and served[0]["port"] == 8123
    err = capsys.readouterr().err
    assert "warning: serving on 0.0.0.0" in err and "run programs" in err


def test_bad_options_fail_before_serving(served: list, capsys: pytest.CaptureFixture) -> None:
    assert main(["web", "--db", "no-such.db"]) == 2
    assert main(["web", "--port", "70000"]) == 2
    err = capsys.readouterr().err
    assert "no-such.db: no such results database" in err and "--port must be" in err
    assert served == []
