# Two commands do all set-up on a fresh machine:
#   make play   - install what the game needs, start the server, print its URL
#   make test   - install what the tests need (a Chromium and a redis-server too), run every test
#   make fast   - the fast tier (under a minute): no server, Redis or browser; make lint - ruff and mypy only
# Options: make play HOST=0.0.0.0 PORT=8000 WORDS=es

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 8000
WORDS  ?=
NODE   ?= node
NPM    ?= npm

.PHONY: play test lint js node fast clean compiler

# Python's compiled modules are kept (in __pycache__, beside the sources), even where the
# environment says not to write them: without them every server a test starts compiles Wibble's
# sources again, and every test worker rewrites and compiles every test module (measured: the
# stage of real server processes took 127 s without them, 103 s with them, 2026-12-07).
unexport PYTHONDONTWRITEBYTECODE

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Wibble needs Python 3.11 or newer (found %s); set PYTHON=python3.12 or similar" % sys.version.split()[0])'
	@$(PYTHON) -m venv $(VENV) || { rm -rf $(VENV); \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "python3 -m venv failed; installing Debian's python3-venv"; \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv && $(PYTHON) -m venv $(VENV); \
	  else echo "python3 -m venv failed: install your system's venv package (Debian: python3-venv)"; exit 1; fi; }

# Reinstalled whenever pyproject.toml changes, or the compiled board search's source
# (setup.py builds wibble/core/_walk.c beside it).
$(VENV)/.installed-play: pyproject.toml setup.py wibble/core/_walk.c | $(BIN)/python compiler
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e .
	@touch $@

$(VENV)/.installed-test: pyproject.toml setup.py wibble/core/_walk.c | $(BIN)/python compiler
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
	@touch $@ $(VENV)/.installed-play

play: $(VENV)/.installed-play $(VENV)/.definitions
	$(BIN)/wibble serve --host $(HOST) --port $(PORT) $(if $(WORDS),--words $(WORDS))

# The fast tier and the second tier's in-process tests (the live layer and the engines on a real
# Redis), two per core (the in-process ones mostly wait on Redis and on threads); then the browser
# tests two at a time (a page and its server keep two cores busy); then the tests of real server
# processes two per core (most of their time is spent waiting on real timers of seconds: measured
# 60% idle at two at a time, 2026-12-07); then, one at a time, the modules marked alone, which
# time what a busy neighbour would move: milliseconds, CPU use, a rate.
WAITERS := $(shell echo $$(( 2 * $$(nproc 2>/dev/null || echo 2) )))
test: lint js node_modules/.installed $(VENV)/.definitions
	$(BIN)/python -m tests.browser
	$(BIN)/python -m tests.redis_server
	$(BIN)/python -m pytest -m "not processes or in_process" -n $(WAITERS) --dist worksteal
	$(BIN)/python -m pytest -m "browser and not alone" -n 2 --dist worksteal
	$(BIN)/python -m pytest -m "processes and not in_process and not browser and not alone" -n $(WAITERS)
	$(BIN)/python -m pytest -m "processes and not in_process and alone"

# Each word list's definitions (wibble definitions), compiled when a list or a host's definitions
# file changes, so the first player to tap a word waits for nothing. English lists take theirs from
# WordNet's database: WIBBLE_WORDNET_DIR if set, else where it is usually installed
# (wibble/wordnet.py), else Debian's wordnet-base when we are root. Without it the game plays with
# no English definitions, and the stamp is left untouched so that the next run looks again.
HAS_WORDNET := $(BIN)/python -c 'import sys; from wibble.wordnet import find; sys.exit(0 if find() else 1)'
$(VENV)/.definitions: $(wildcard words/*.txt words/*.toml words/*.definitions.tsv) | $(VENV)/.installed-play
	@$(HAS_WORDNET) 2>/dev/null || { \
	  if [ -z "$$WIBBLE_WORDNET_DIR" ] && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "WordNet's database not found; installing Debian's wordnet-base (definitions of English words)"; \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wordnet-base >/dev/null || \
	    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wordnet-base >/dev/null; } || true; \
	  fi; }
	@# A broken definitions file is reported here and by the server's log, and never stops the game.
	-$(BIN)/wibble definitions
	@$(HAS_WORDNET) && touch $@ || echo "No WordNet database: English words have no definitions" \
	  "(install Debian's wordnet-base, or set WIBBLE_WORDNET_DIR to a WordNet dict folder)"

# Style, formatting and types only (seconds).
lint: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# What the browser tests take from npm (axe-core, the accessibility audit): package-lock.json,
# exactly. Reinstalled whenever either file changes.
node_modules/.installed: package.json package-lock.json | node
	$(NPM) ci --no-audit --no-fund
	@touch $@

# A C compiler and Python's headers, for the compiled board search: CC if set, else cc on
# PATH, else Debian's gcc and python3-dev when we are root. Without them Wibble still
# installs and plays (searching in Python, slower); the tests say the search is not built.
compiler: | $(BIN)/python
	@headers=$$($(BIN)/python -c 'import sysconfig, os; print(int(os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h"))))'); \
	if ! command -v $${CC:-cc} >/dev/null || [ "$$headers" != 1 ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "No C compiler or Python headers; installing Debian's gcc and python3-dev"; \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc python3-dev >/dev/null || \
	    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc python3-dev >/dev/null; } || true; \
	  else echo "No C compiler or Python headers: Wibble will search boards in Python (slower); install gcc and your Python's headers to build wibble/core/_walk.c"; fi; \
	fi

# Node and npm: NODE/NPM if set, else on PATH, else Debian's packages when we are root.
node:
	@command -v $(NODE) >/dev/null && command -v $(NPM) >/dev/null || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "Node or npm not found; installing Debian's nodejs and npm"; \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null || \
	    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null; }; \
	  fi; \
	  command -v $(NODE) >/dev/null && command -v $(NPM) >/dev/null || \
	  { echo "The tests need Node 20 or newer and npm: install them, or set NODE=/path/to/node NPM=/path/to/npm"; exit 1; }; }

# The page's pure modules (no DOM, no server), with Node's own test runner: tests/js/.
js: node
	$(NODE) --test tests/js/

# The fast tier, for every change (under a minute): lint, the page's modules, and every test that
# runs in pytest's own process (the rules, the store on memory and SQLite, the live layer on memory,
# the web app, the protocol's parser). The second tier (real server processes, Redis, nginx, a
# browser: tests/tiers.py says which) runs in make test, or alone with pytest -m processes. Its
# pytest part runs on every core (pytest-xdist): it needs about 80 s of CPU, a minute and more on one
# core. The second tier stays in one process: its tests time real servers.
fast: lint js $(VENV)/.definitions
	$(BIN)/python -m pytest -m "not processes" -n auto --dist worksteal

clean:
	rm -rf $(VENV) node_modules .pytest_cache .ruff_cache .mypy_cache *.egg-info
