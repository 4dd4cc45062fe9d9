"""The suite's own rules (tests/conftest.py): under CI a missing dependency fails, never skips."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

CONFTEST = (Path(__file__).parent / "conftest.py").read_text()


@pytest.mark.parametrize(("ci", "outcome"), [("1", {"failed": 1}), ("", {"skipped": 1})])
def test_a_missing_dependency_fails_under_ci_and_skips_elsewhere(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, ci: str, outcome: dict[str, int]
) -> None:
    monkeypatch.setenv("CI", ci)
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(
        """
        import pytest

        def test_needs_it():
            pytest.importorskip("a_module_nobody_installed")
        """
    )
    pytester.runpytest_inprocess("-p", "no:cacheprovider").assert_outcomes(**outcome)


def test_an_ordinary_skip_stays_a_skip_under_ci(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CI", "1")
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(
        """
        import pytest

        def test_not_here():
            pytest.skip("one legal move")
        """
    )
    pytester.runpytest_inprocess("-p", "no:cacheprovider").assert_outcomes(skipped=1)
