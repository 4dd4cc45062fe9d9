"""Suite-wide settings: reproducible property tests under CI, and no silent skips there.

- Hypothesis draws new examples on every local run (that is how it finds bugs), but under
  ``CI`` it is derandomized, so a red CI run fails the same way when run again.
- Under ``CI`` a test skipped for a missing dependency (``pytest.importorskip``) fails
  instead: CI installs every extra, so a missing one is a broken install, not a reason to
  skip. ``tests/helpers.find_engine`` does the same for the GTP engines.
- Searches run one thread unless a test asks for more (``ARENA_THREADS=1``): the suite
  runs its tests side by side on every core already, and a search's figures stay those of
  one thread wherever the suite runs.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", derandomize=True, print_blob=True, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev")
settings.load_profile("ci" if os.environ.get("CI") else "dev")
os.environ.setdefault("ARENA_THREADS", "1")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    if not (os.environ.get("CI") and report.skipped and call.excinfo is not None):
        return
    message = str(call.excinfo.value)
    if "could not import" in message:  # the words of pytest.importorskip
        report.outcome = "failed"
        report.longrepr = f"under CI a missing dependency fails: {message}"
