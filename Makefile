# Two commands set everything up on a fresh machine (see README):
#   make demo   - install into .venv and run the demo on the bundled sample snapshots
#   make test   - install into .venv (with dev tools, the benchmark task runners, lm-eval
#                 and Inspect, and PySpark + sqlglot), the Debian packages the tests use
#                 (scripts/system-packages test), then run lint, types and the test suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test install lint test-packages docs bench clean

$(STAMP): pyproject.toml setup.py $(wildcard native/*)
	scripts/system-packages build
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,bench-tasks,spark]'
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/kgdiff demo

# ruff and mypy over the files git tracks (scratch files in the working tree are left alone),
# or the whole tree outside a git checkout: scripts/lint.py
lint: $(STAMP)
	$(BIN)/python scripts/lint.py

# What the tests run besides Python (lbzip2, pigz, docker-compose, MediaWiki on PHP, chromium):
# installed as root with apt-get, else named, so that no test is skipped for want of a tool.
test-packages:
	scripts/system-packages test

# One pytest process per core, at most four (tests share nothing but the read-only samples;
# each process builds its own session stores). `.venv/bin/pytest tests/FILE` runs serially.
test: lint test-packages
	$(BIN)/pytest -n auto --maxprocesses 4

# docs/cli.md's reference from the commands' --help (tests/test_docs.py fails when it is stale)
docs: $(STAMP)
	$(BIN)/python scripts/cli_docs.py

bench: $(STAMP)
	$(BIN)/python -m bench.ingest_bench

clean:
	rm -rf $(VENV) kgdiff-data .pytest_cache .mypy_cache .ruff_cache
