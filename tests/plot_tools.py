"""What the tests of `kgdiff plot` share: running the command and reading the SVG's ids."""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

from lxml import etree

from tests.paths import run_kgdiff

MPL_CACHE = Path(tempfile.gettempdir()) / "kgdiff-test-matplotlib"
"""matplotlib's font cache for the commands the tests run (their HOME is the checkout)."""
SVG = "{http://www.w3.org/2000/svg}"


def run_plot(*args: str) -> subprocess.CompletedProcess[str]:
    """``kgdiff plot ARGS``, matplotlib keeping its cache out of the checkout."""
    return run_kgdiff("plot", *args, env={"MPLCONFIGDIR": str(MPL_CACHE)})


def svg_ids(svg: Path) -> list[str]:
    """Every ``id`` of the SVG file ``svg``, whose root must be an ``<svg>`` element."""
    root = etree.parse(str(svg)).getroot()
    assert root.tag == f"{SVG}svg"
    return [str(element.get("id")) for element in root.iter() if element.get("id")]
