# The two set-up commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck pytest test-long bench install compile compiler-deps clean system-deps i18n screenshots

# The compiled build (setup.py) records what it compiled from in this file.
NATIVE := src/tianxia/_native.json
# Any change to the engine or a game rebuilds it (a changed compiled module's source
# would otherwise make the package fall back to pure Python, with a warning).
NATIVE_SOURCES := setup.py src/tianxia/_native.py $(wildcard src/tianxia/core/*.py src/tianxia/games/*/*.py)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip "setuptools>=77"

# The editable install compiles the engine with mypyc where a C compiler and Python's
# headers are present (about a minute of CPU); without them it installs the pure-Python
# modules.
$(STAMP): $(BIN)/python pyproject.toml setup.py | compiler-deps
	$(BIN)/pip install --quiet "setuptools>=77"  # an older venv's: `make compile` runs setup.py with it
	$(BIN)/pip install --quiet -e ".[all]"
	touch $(STAMP)

install: $(STAMP)

# Rebuild the compiled modules in place after the engine's sources changed.
$(NATIVE): $(NATIVE_SOURCES) | $(STAMP)
	$(BIN)/python setup.py --quiet build_ext --inplace

# What the compiled build needs: a C compiler and the headers of the Python the venv is
# made from (installed with apt when missing, as root, as CI runs).
compiler-deps:
	@include=$$($(PYTHON) -c "import sysconfig; print(sysconfig.get_paths()['include'])"); \
	if ! command -v cc >/dev/null 2>&1 || [ ! -f "$$include/Python.h" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing a C compiler and Python's headers for the compiled build"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc python3-dev >/dev/null; \
	  else \
	    echo "no C compiler or no Python headers: the engine is installed as pure Python"; \
	  fi; \
	fi

compile: $(NATIVE)

# The server on its embedded SQLite (var/tianxia.sqlite3); it prints the lobby's URL.
# The terminal player is `$(BIN)/tianxia tui`.
run: $(STAMP)
	$(BIN)/tianxia serve

# The server's tests run against PostgreSQL too: a throwaway cluster the tests start with
# Debian's initdb and pg_ctl; the browser's tests drive Debian's Chromium (never a browser
# download); the shipped nginx configuration is tested with Debian's nginx. All are
# installed here when missing (as root, as CI runs).
system-deps:
	@if [ ! -x /usr/bin/chromium ] || [ ! -d /usr/share/fonts/truetype/wqy ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing Debian's Chromium (and a font with the boards' Chinese characters) for the browser tests"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-wqy-zenhei >/dev/null; \
	  else \
	    echo "Chromium is missing and this is not root: the browser tests will be skipped"; \
	  fi; \
	fi
	@if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing PostgreSQL for the server's tests"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; \
	  else \
	    echo "PostgreSQL is missing and this is not root: its server tests will be skipped"; \
	  fi; \
	fi
	@if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing Debian's nginx for the tests of deploy/nginx/tianxia.conf"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null; \
	  else \
	    echo "nginx is missing and this is not root: the tests through nginx will be skipped"; \
	  fi; \
	fi

# The whole suite runs on the compiled build; the golden playthroughs and the
# conformance suite run again on the pure-Python modules (TIANXIA_PURE=1), so both
# paths are held to the same recordings.
test: $(STAMP) $(NATIVE) system-deps
	$(BIN)/ruff check src tests setup.py
	$(BIN)/ruff format --check src tests setup.py
	$(BIN)/mypy
	$(BIN)/python -m pytest -n 2 --dist loadgroup --durations=40
	TIANXIA_PURE=1 $(BIN)/python -m pytest -n 2 --dist loadgroup tests/golden tests/conformance

# The slow tests, and the reliability harnesses at ten times their CI sizes.
test-long: $(STAMP) system-deps
	$(BIN)/python -m pytest -m slow -n 2
	TIANXIA_RELIABILITY_SCALE=10 $(BIN)/python -m pytest -n 2 --dist loadgroup tests/reliability

bench: $(STAMP)
	$(BIN)/tianxia bench

# Extract the pages' strings and merge them into the Dutch and German catalogues.
i18n: $(STAMP)
	$(BIN)/pybabel extract -F babel.cfg -k N_ -k _ -k t -k tn:1,2 -k ngettext:1,2 \
	  --no-location --sort-output \
	  --project Tianxia -o src/tianxia/web/locale/tianxia.pot src/tianxia/web
	$(BIN)/python -m tianxia.web.sentences
	for lang in nl de; do \
	  if [ -f src/tianxia/web/locale/$$lang/LC_MESSAGES/tianxia.po ]; then \
	    $(BIN)/pybabel update --no-fuzzy-matching --ignore-obsolete -D tianxia -l $$lang -i src/tianxia/web/locale/tianxia.pot -d src/tianxia/web/locale; \
	  else \
	    $(BIN)/pybabel init -D tianxia -l $$lang -i src/tianxia/web/locale/tianxia.pot -d src/tianxia/web/locale; \
	  fi; \
	done

# The browser's pictures in docs/screenshots/, taken by its tests.
screenshots: $(STAMP) system-deps
	TIANXIA_SCREENSHOTS=1 $(BIN)/python -m pytest -q -m "" tests/web/test_web_screenshots.py \
	  tests/web/test_web_accounts.py::test_pictures_of_the_account_pages

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build $(NATIVE)
	find src -name '*.so' -delete
