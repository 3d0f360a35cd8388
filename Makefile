# The two set-up commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck pytest test-long bench install clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/pip install --quiet -e ".[all]"
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/tianxia tui

test: $(STAMP)
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests
	$(BIN)/mypy
	$(BIN)/python -m pytest -n 2 --dist loadgroup

test-long: $(STAMP)
	$(BIN)/python -m pytest -m slow -n 2

bench: $(STAMP)
	$(BIN)/tianxia bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
