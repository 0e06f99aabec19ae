# Two commands set everything up on a fresh machine (see README):
#   make demo   - install into .venv and run the demo on the bundled sample snapshots
#   make test   - install into .venv (with dev tools, the benchmark task runners, lm-eval
#                 and Inspect, and PySpark + sqlglot) and the explorer's JavaScript tools into
#                 node_modules (npm ci: Biome, as package-lock.json pins it), the Debian packages
#                 the tests use (scripts/system-packages test), then run lint (Python, the
#                 layers, JavaScript), types and the test suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
NODE_STAMP := node_modules/.installed

.PHONY: demo test install lint test-packages docs bench clean

$(STAMP): pyproject.toml setup.py $(wildcard native/*)
	scripts/system-packages build
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,bench-tasks,spark]'
	touch $(STAMP)

install: $(STAMP)

# The explorer's JavaScript linter and formatter (Biome, biome.json), exactly as package-lock.json
# pins it; npm comes from Debian (scripts/system-packages test)
$(NODE_STAMP): package.json package-lock.json
	scripts/system-packages test
	npm ci --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

demo: $(STAMP)
	$(BIN)/kgdiff demo

# ruff and mypy over the files git tracks (scratch files in the working tree are left alone),
# or the whole tree outside a git checkout, and the layers' import contracts: scripts/lint.py;
# then Biome over the explorer's JavaScript (lint and format check: `biome check --write` fixes)
lint: $(STAMP) $(NODE_STAMP)
	$(BIN)/python scripts/lint.py
	node_modules/.bin/biome ci --colors=off api/static/js

# What the tests run besides Python (lbzip2, pigz, docker-compose, MediaWiki on PHP, chromium):
# installed as root with apt-get, else named, so that no test is skipped for want of a tool.
test-packages:
	scripts/system-packages test

# Six pytest processes, on any number of cores: the suite spends much of its time waiting (on
# servers, subprocesses, Spark's JVMs, queries run to their time limits), so three processes
# per core of a 2-core machine keep it busy (a fresh clone's suite on 2 cores, 2026-12-07:
# 21:06 with four, 19:03 with six; tests share nothing but the read-only samples, ingested
# once per run: tests/built_once.py). Whole files go to one process (--dist loadfile),
# so a module's fixtures (exports, servers, stores) are built once, not once per process that
# got one of its tests, and the longest files first (tests/file_order.py: in the order
# collected, not by number of tests). `.venv/bin/pytest tests/FILE` runs serially.
test: lint test-packages
	$(BIN)/pytest -n 6 --dist loadfile --no-loadscope-reorder

# docs/cli.md's reference from the commands' --help (tests/test_docs.py fails when it is stale)
docs: $(STAMP)
	$(BIN)/python scripts/cli_docs.py

bench: $(STAMP)
	$(BIN)/python -m bench.ingest_bench

clean:
	rm -rf $(VENV) node_modules kgdiff-data .pytest_cache .mypy_cache .ruff_cache
