"""What goes into the package beside the metadata of pyproject.toml: the packages, the
files kgdiff reads at run time, and the optional native row builder.

The repository keeps its SQL statements in ``sql/`` and the demo's sample dumps in
``snapshots/``; they are installed as the packages ``kgdiff.sql`` and ``kgdiff.snapshots``,
so a wheel carries them and an editable install maps them to the checkout's folders
(kgdiff/resources.py reads them through ``importlib.resources``). MANIFEST.in puts them in
the sdist.

The native row builder ``kgdiff._native`` (C++, simdjson) is built when a C++ compiler and
simdjson's header and library are present (Debian: ``apt-get install g++
libsimdjson-dev``); without them kgdiff installs and works on its pure-Python path, only
slower (kgdiff/rows/native.py).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import Extension, find_namespace_packages, setup

NATIVE = Path("native")
SOURCES = ("module.cpp", "entity_walk.cpp", "gather.cpp", "owned_buffer.cpp", "xml_text.cpp")
RESOURCE_PACKAGES = {"kgdiff.sql": "sql", "kgdiff.snapshots": "snapshots"}
PACKAGE_DATA = {
    "kgdiff": ["py.typed", "data/*.json", "data/*.toml", "export/tasks/task_files/*.md"],
    "kgdiff.sql": ["**/*.sql"],
    "kgdiff.snapshots": ["*.json", "*.bz2", "NOTICE"],
    "api": ["static/*.html", "static/*.css", "static/js/*.js"],
}
INCLUDE_DIRS = [Path(p) for p in os.environ.get("CPATH", "").split(":") if p] + [
    Path("/usr/include"),
    Path("/usr/local/include"),
    Path(sys.prefix) / "include",
]


def _simdjson_found() -> bool:
    return any((folder / "simdjson.h").is_file() for folder in INCLUDE_DIRS)


def _packages() -> list[str]:
    """``kgdiff`` and ``api`` (the REST service) with their sub-packages (folders without
    ``__init__.py`` too), then the resources."""
    packages = []
    for top in ("kgdiff", "api"):
        found = find_namespace_packages(top, exclude=["*__pycache__*"])
        packages += [top, *(f"{top}.{name}" for name in found)]
    return [*packages, *RESOURCE_PACKAGES]


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


setup(
    packages=_packages(),
    package_dir=RESOURCE_PACKAGES,
    package_data=PACKAGE_DATA,
    # only what PACKAGE_DATA names: MANIFEST.in's files are for the sdist
    include_package_data=False,
    ext_modules=_extensions(),
)
