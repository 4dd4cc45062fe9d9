"""The folders here hold course-style agents (programs and student projects), not tests:
pytest must not import them (some read stdin or register classes when imported)."""

collect_ignore = ["othello", "colosseum"]
