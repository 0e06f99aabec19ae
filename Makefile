# Two commands set everything up on a fresh machine (see README):
#   make demo   - install into .venv and run the demo on the bundled sample snapshots
#   make test   - install into .venv (with dev tools) and run lint, types and the test suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test install lint bench clean

$(STAMP): pyproject.toml setup.py $(wildcard native/*)
	scripts/system-packages build
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/kgdiff demo

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

test: lint
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python -m bench.ingest_bench

clean:
	rm -rf $(VENV) kgdiff-data .pytest_cache .mypy_cache .ruff_cache
