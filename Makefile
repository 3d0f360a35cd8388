# The two set-up commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck pytest test-long bench install clean system-deps

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/pip install --quiet -e ".[all]"
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/tianxia tui

# The server's tests run against PostgreSQL too: a throwaway cluster the tests start with
# Debian's initdb and pg_ctl, installed here when missing (as root, as CI runs).
system-deps:
	@if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing PostgreSQL for the server's tests"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; \
	  else \
	    echo "PostgreSQL is missing and this is not root: its server tests will be skipped"; \
	  fi; \
	fi

test: $(STAMP) system-deps
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
