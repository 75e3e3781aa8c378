"""The core is pure: importing it never pulls in the web stack."""

from __future__ import annotations

import json
import subprocess
import sys

WEB_PACKAGES = {"flask", "flask_sock", "simple_websocket", "gevent", "werkzeug"}

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
