"""The core is pure: importing it never pulls in the web stack."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

WEB_PACKAGES = {"flask", "gevent", "werkzeug"}

PROBE = """
import json, sys
import {module}
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in {packages!r})))
"""


def imported_web_packages(module: str) -> list[str]:
    """Import ``module`` in a fresh interpreter and list the web modules that came with it."""
    code = PROBE.format(module=module, packages=WEB_PACKAGES)
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    result: list[str] = json.loads(done.stdout)
    return result


def test_importing_the_core_imports_no_web_package() -> None:
    assert imported_web_packages("wibble.core") == []


def test_the_probe_does_see_a_web_package_when_one_is_imported() -> None:
    """Without this, an empty list above could just mean the probe is broken."""
    assert "flask" in imported_web_packages("flask")


# -- imports point inward ----------------------------------------------------------------

PACKAGE = Path(__file__).resolve().parents[2] / "wibble"

# Each layer may import only the layers listed for it (and itself); the outermost, web/ and
# what starts it (the command line, gunicorn's settings and hooks), may import anything.
OUTERMOST = {"web", "cli", "gunicorn_conf"}
MAY_IMPORT = {
    "core": set(),
    # JSON in and out (msgspec, falling back to json): a leaf every layer that writes JSON may use.
    "codec": set(),
    "protocol": {"core", "codec"},
    # The state processes share (store, bus, presence, claims, meter): the bus encodes frames
    # (protocol), the meter counts in token buckets (ratelimit).
    "engines": {"core", "codec", "protocol", "ratelimit"},
    "cache": {"core"},
    "wordlists": {"core", "cache"},
    "ratelimit": set(),
    # Definitions: WordNet's files read (wordnet), compiled per list into books (definitions).
    "wordnet": {"core"},
    "definitions": {"core", "wordlists", "wordnet"},
    "live": {"core", "engines", "protocol", "wordlists", "definitions", "ratelimit", "cache"},
}
WEB_ONLY = {"flask", "werkzeug", "gevent"}


def wibble_imports(path: Path) -> tuple[set[str], set[str]]:
    """The wibble layers and the outside packages a module imports (its top-level names)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    depth = len(path.relative_to(PACKAGE).parts) - 1  # 0 for wibble/x.py, 1 for wibble/core/x.py
    layers, packages = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")
                if top[0] == "wibble" and len(top) > 1:
                    layers.add(top[1])
                else:
                    packages.add(top[0])
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                top = (node.module or "").split(".")
                if top[0] == "wibble" and len(top) > 1:
                    layers.add(top[1])
                else:
                    packages.add(top[0])
            elif node.level > depth:  # from .. import x (out of a subpackage), or from . import x at the top
                target = (node.module or "").split(".")[0]
                layers.update([target] if target else [alias.name for alias in node.names])
    return layers, packages


def layer_of(path: Path) -> str:
    return path.relative_to(PACKAGE).parts[0].removesuffix(".py")


MODULES = sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(PACKAGE)) for p in MODULES])
def test_imports_point_inward(path: Path) -> None:
    layer = layer_of(path)
    layers, packages = wibble_imports(path)
    if layer in MAY_IMPORT:
        assert layers - {layer} <= MAY_IMPORT[layer], f"{layer} may import only {MAY_IMPORT[layer]}"
    if layer not in OUTERMOST:
        assert not packages & WEB_ONLY, "only wibble/web (and what starts it) touch the web stack"


def test_the_layer_table_knows_every_layer() -> None:
    """A new package must say where it stands, or the test above would wave it through."""
    layers = {layer_of(path) for path in MODULES} - {"__init__", "__main__", *OUTERMOST}
    assert layers <= set(MAY_IMPORT)
