"""The one compiled part: the board search (wibble/core/_walk.c), built where a C compiler is.

Everything else is in pyproject.toml. The extension is optional: without a compiler
the install still succeeds and wibble/core/search.py walks boards in Python (about ten
times slower per count; `wibble serve` says so at start-up).
"""

import hashlib
from pathlib import Path

from setuptools import Extension, setup

SOURCE = "wibble/core/_walk.c"
# Compiled in, so a test can tell a stale build (the source changed, the module did not).
DIGEST = hashlib.sha256((Path(__file__).parent / SOURCE).read_bytes()).hexdigest()

setup(
    ext_modules=[
        Extension(
            "wibble.core._walk",
            [SOURCE],
            optional=True,
            define_macros=[("SOURCE_DIGEST", f'"{DIGEST}"')],
            extra_compile_args=["-O2", "-Wall", "-Wextra", "-Wno-missing-field-initializers"],
        )
    ]
)
