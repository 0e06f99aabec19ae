"""Build hook for the optional native row builder ``kgdiff._native`` (C++, simdjson).

Everything else about the package is in pyproject.toml. The extension is built
when a C++ compiler and simdjson's header and library are present (Debian:
``apt-get install g++ libsimdjson-dev``); without them kgdiff installs and works
on its pure-Python path, only slower (kgdiff/rows/native.py).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import Extension, setup

NATIVE = Path("native")
SOURCES = ("module.cpp", "entity_walk.cpp", "gather.cpp", "owned_buffer.cpp")
INCLUDE_DIRS = [Path(p) for p in os.environ.get("CPATH", "").split(":") if p] + [
    Path("/usr/include"),
    Path("/usr/local/include"),
    Path(sys.prefix) / "include",
]


def _simdjson_found() -> bool:
    return any((folder / "simdjson.h").is_file() for folder in INCLUDE_DIRS)


def _extensions() -> list[Extension]:
    if os.environ.get("KGDIFF_BUILD_NATIVE", "1") == "0":
        return []
    if not _simdjson_found():
        print("kgdiff: simdjson.h not found, the native row builder is not built", file=sys.stderr)
        return []
    return [
        Extension(
            "kgdiff._native",
            sources=[str(NATIVE / name) for name in SOURCES],
            depends=[str(path) for path in sorted(NATIVE.glob("*.hpp"))],
            include_dirs=[str(NATIVE)],
            libraries=["simdjson"],
            language="c++",
            extra_compile_args=["-std=c++17", "-O2"],
            optional=True,  # a failed build leaves the pure-Python path, not a failed install
        )
    ]


setup(ext_modules=_extensions())
