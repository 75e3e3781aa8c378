# Two commands do all set-up on a fresh machine:
#   make play   - install what the game needs, start the server, print its URL
#   make test   - install what the tests need (a Chromium too), run every test
#   make fast   - everything but the browser tests; make lint - ruff and mypy only
# Options: make play HOST=0.0.0.0 PORT=8000 WORDS=es

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 8000
WORDS  ?=
NODE   ?= node
NPM    ?= npm

.PHONY: play test lint js fast clean

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Wibble needs Python 3.11 or newer (found %s); set PYTHON=python3.12 or similar" % sys.version.split()[0])'
	@$(PYTHON) -m venv $(VENV) || { rm -rf $(VENV); \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "python3 -m venv failed; installing Debian's python3-venv"; \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv && $(PYTHON) -m venv $(VENV); \
	  else echo "python3 -m venv failed: install your system's venv package (Debian: python3-venv)"; exit 1; fi; }

# Reinstalled whenever pyproject.toml changes.
$(VENV)/.installed-play: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e .
	@touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
	@touch $@ $(VENV)/.installed-play

play: $(VENV)/.installed-play
	$(BIN)/wibble serve --host $(HOST) --port $(PORT) $(if $(WORDS),--words $(WORDS))

test: lint js node_modules/.installed
	$(BIN)/python -m tests.browser
	$(BIN)/python -m pytest

# Style, formatting and types only (seconds).
lint: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# What the browser tests take from npm (axe-core, the accessibility audit): package-lock.json,
# exactly. Reinstalled whenever either file changes.
node_modules/.installed: package.json package-lock.json
	@command -v $(NPM) >/dev/null || { echo "The browser tests need npm (it comes with Node) to install axe-core"; exit 1; }
	$(NPM) ci --no-audit --no-fund
	@touch $@

# The page's pure modules (no DOM, no server), with Node's own test runner: tests/js/.
js:
	@command -v $(NODE) >/dev/null || { echo "The JavaScript tests need Node 20 or newer (set NODE=/path/to/node)"; exit 1; }
	$(NODE) --test tests/js/

# The tests that need no browser (about a minute): the rules, the store, the protocol, the page's modules.
fast: lint js
	$(BIN)/python -m pytest --ignore=tests/e2e

clean:
	rm -rf $(VENV) node_modules .pytest_cache .ruff_cache .mypy_cache *.egg-info
