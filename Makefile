# The two Quick start commands (see README): `make run` and `make test`.
# Both need only Python 3.11+, git and make; they create .venv in the repo root.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test install install-test engines browser sabaki web lint bench docs clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

install: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .

# The test extras include the bench extra so the OpenSpiel comparison code is exercised too,
# plot (matplotlib) for the experiments, web (Starlette, uvicorn) for the web board, docs
# (MkDocs) for tests/test_docs.py, which builds the site in strict mode, and learn (JAX,
# optax, mctx) for `arena train`'s tests and tests/bench/test_bench_az.py, the comparison
# with mctx. `make run` installs none of them.
install-test: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev,bench,plot,web,docs,learn]'

# The main job: a short seeded round robin on Connect Four; results go to arena.db
# (running it again resumes: only missing games are played).
# `arena warmup` compiles the fast kernels once (later runs load them from the disk cache),
# so no move of the tournament pays for compilation.
run: install
	$(BIN)/arena warmup connect4
	$(BIN)/arena tournament connect4 random greedy alphabeta ids mcts \
		--rounds 1 --time 1+0.1 --seed 1 --db arena.db

# GNU Go and GRhino (Debian packages) for the GTP tests and `arena bench engines`, and
# bubblewrap for `--sandbox`.
engines:
	scripts/install-engines

# Debian's Chromium for the browser tests of the web board (Playwright drives it).
browser:
	scripts/install-browser

# Sabaki's GTP library (npm) for the tests in which it drives `arena gtp`.
sabaki:
	scripts/install-sabaki

# The web board on http://127.0.0.1:8000/ with the results of `make run`.
web: install-test
	$(BIN)/arena web --db arena.db

lint: install-test
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests

# The whole suite, slow tests included (CI runs exactly this), on both cores. The fast kernels
# are compiled once first (or loaded from numba's disk cache), so the two test workers load
# them instead of both compiling the same code. The 25 slowest tests are listed at the end
# (the suite's time is kept near 10 minutes on 2 cores: these are where it goes).
test: lint engines browser sabaki
	$(BIN)/arena warmup
	$(BIN)/python -m pytest -n 2 --dist loadgroup --durations=25

# The documentation site (mkdocs.yml, pages in docs/) into site/; strict: a broken link,
# a missing page or a docstring the API reference cannot read stops the build.
# `.venv/bin/mkdocs serve` shows it at http://127.0.0.1:8000/ while you edit. (The variable
# silences Material's banner about MkDocs 2.0, which the pinned mkdocs<2 does not concern.)
docs: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[docs]'
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir site

bench: install-test
	$(BIN)/arena bench playouts

clean:
	rm -rf $(VENV) build site .pytest_cache .ruff_cache src/*.egg-info
