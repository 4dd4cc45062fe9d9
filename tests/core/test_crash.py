"""An agent's exception in one line: the innermost frame of the user's own code."""

from __future__ import annotations

import json

from arena.agents import load_agent
from arena.core.crash import crash_text, user_frame


def users_code() -> None:
    json.loads("not json")  # raises deep inside the standard library


def test_the_frame_shown_is_the_users_not_the_librarys() -> None:
    try:
        users_code()
    except ValueError as exc:
        text = crash_text(exc)
        frame = user_frame(exc)
    line = users_code.__code__.co_firstlineno + 1
    assert frame == f"tests/core/test_crash.py:{line} in users_code"
    assert text == f"JSONDecodeError: Expecting value: line 1 column 1 (char 0) at {frame}"


def test_an_exception_without_a_traceback_is_just_itself() -> None:
    assert crash_text(ValueError("oops")) == "ValueError: oops"


def test_a_users_exception_class_is_named_without_its_generated_module(tmp_path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "mine.py").write_text(
        "class Bad(Exception):\n    pass\n\nclass Mine:\n    def choose(self, state, limit):\n"
        "        raise Bad('no idea')\n"
    )
    agent = load_agent(f"py:{tmp_path}/mine.py:Mine")
    try:
        agent.choose(None, None)
    except Exception as exc:
        text = crash_text(exc)
    assert text.startswith("Bad: no idea at ") and text.endswith("mine.py:6 in choose")
