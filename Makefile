# The two Quick start commands (see README): `make run` and `make test`.
# Both need only Python 3.11+, git and make; they create .venv in the repo root.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test install install-test lint bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

install: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .

# The test extras include the bench extra so the OpenSpiel comparison code is exercised too.
install-test: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'

# The main job: a demo game between two agents on Connect Four.
run: install
	$(BIN)/arena play connect4 random random --seed 1

lint: install-test
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests

# The whole suite, slow tests included (CI runs exactly this).
test: lint
	$(BIN)/python -m pytest

bench: install-test
	$(BIN)/arena bench playouts

clean:
	rm -rf $(VENV) build .pytest_cache .ruff_cache src/*.egg-info
