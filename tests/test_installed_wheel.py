"""kgdiff as a user, a Docker image or a Spark executor has it: the sdist built from the
checkout, the wheel built from the sdist, installed (not editable) into a fresh venv, and run
from a folder outside the checkout.

The fresh venv gets kgdiff from the wheel only; its dependencies come from this test's venv
through a ``.pth`` file (installing them again would download ~150 MB for nothing), which
Python reads after the venv's own site-packages, so the wheel's kgdiff is the one imported.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.paths import DATA, ROOT

pytestmark = pytest.mark.slow

DATES = ["--init", "2013-12-21", "--cutoff", "2014-10-11", "--current", "2014-12-31"]


@dataclass(frozen=True)
class Installed:
    """The built sdist and wheel, the venv they went into, and a folder outside the checkout."""

    sdist: Path
    wheel: Path
    venv: Path
    cwd: Path

    def run(self, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        """Run the venv's ``kgdiff`` script from ``cwd``, in a plain environment."""
        env = {
            "PATH": f"{self.venv / 'bin'}:/usr/bin:/bin",
            "HOME": str(self.cwd / "home"),
            "XDG_STATE_HOME": str(self.cwd / "state"),
            "COLUMNS": "200",
        }
        return subprocess.run(
            [str(self.venv / "bin" / "kgdiff"), *args],
            cwd=self.cwd,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            env=env,
        )


def _call(args: list[str], cwd: Path) -> str:
    """Run a build or install step; its output in the failure message if it fails."""
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, f"{args}\n{done.stdout}\n{done.stderr}"
    return done.stdout


def _build_sdist(out: Path) -> Path:
    """The sdist of the checkout, through setuptools' PEP 517 hook (what ``python -m build``
    calls), with this venv's setuptools: no build isolation, so nothing is downloaded."""
    hook = (
        "import sys; from setuptools import build_meta; print(build_meta.build_sdist(sys.argv[1]))"
    )
    name = _call([sys.executable, "-c", hook, str(out)], ROOT).strip().splitlines()[-1]
    return out / name


def _build_wheel(sdist: Path, out: Path) -> Path:
    """The wheel built from the unpacked sdist, as pip builds one from PyPI's sdist."""
    with tarfile.open(sdist) as archive:
        archive.extractall(out / "src", filter="data")
    (source,) = (out / "src").iterdir()
    pip = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index"]
    _call([*pip, "--wheel-dir", str(out / "wheel"), str(source)], out)
    (wheel,) = (out / "wheel").glob("kgdiff-*.whl")
    return wheel


def _fresh_venv(venv: Path, wheel: Path) -> None:
    """A venv holding the wheel's kgdiff, and this venv's packages for its dependencies."""
    _call([sys.executable, "-m", "venv", "--without-pip", str(venv)], venv.parent)
    code = "import sysconfig; print(sysconfig.get_path('purelib'))"
    site = Path(_call([str(venv / "bin" / "python"), "-c", code], venv.parent).strip())
    ours = {sysconfig.get_path("purelib"), sysconfig.get_path("platlib")}
    (site / "dependencies-from-the-test-venv.pth").write_text("\n".join(sorted(ours)) + "\n")
    target = ["--python", str(venv / "bin" / "python")]
    _call(
        [sys.executable, "-m", "pip", *target, "install", "--no-deps", "--no-index", str(wheel)],
        venv.parent,
    )


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """kgdiff built from this checkout and installed from its wheel into a fresh venv."""
    work = tmp_path_factory.mktemp("wheel")
    sdist = _build_sdist(work)
    wheel = _build_wheel(sdist, work)
    _fresh_venv(work / "venv", wheel)
    (work / "elsewhere" / "home").mkdir(parents=True)
    return Installed(sdist, wheel, work / "venv", work / "elsewhere")


def _resources() -> list[str]:
    """The files kgdiff reads at run time, by their path in the checkout."""
    sql = (ROOT / "sql").rglob("*.sql")
    samples = [
        path
        for path in (ROOT / "snapshots").iterdir()
        if path.suffix in (".json", ".bz2") or path.name == "NOTICE"
    ]
    data = [*(ROOT / "kgdiff" / "data").glob("*.json"), *(ROOT / "kgdiff" / "data").glob("*.toml")]
    # what write_tasks copies into a benchmark folder
    task_files = [
        *(ROOT / "kgdiff" / "export" / "tasks" / "task_files").glob("*.*"),
        *(ROOT / "kgdiff" / "portable").glob("*.py"),
    ]
    # the explorer page kgdiff serve answers at /
    static = [
        path for path in (ROOT / "api" / "static").rglob("*") if path.suffix in EXPLORER_ASSETS
    ]
    files = [*sql, *samples, *data, *task_files, *static]
    return sorted(str(path.relative_to(ROOT)) for path in files)


EXPLORER_ASSETS = (".html", ".css", ".js")


def _in_package(path: str) -> str:
    """Where a file of the checkout is in the installed package."""
    return path if path.startswith(("kgdiff/", "api/")) else f"kgdiff/{path}"


def test_the_sdist_and_the_wheel_carry_the_sql_the_samples_and_the_data(
    installed: Installed,
) -> None:
    with zipfile.ZipFile(installed.wheel) as wheel:
        in_wheel = set(wheel.namelist())
    with tarfile.open(installed.sdist) as sdist:
        in_sdist = {name.partition("/")[2] for name in sdist.getnames()}
    resources = _resources()
    assert "snapshots/samples.json" in resources and "sql/catalog/snapshots_view.sql" in resources
    assert "api/static/index.html" in resources and "api/static/js/main.js" in resources
    assert [path for path in resources if path not in in_sdist] == []
    assert [path for path in resources if _in_package(path) not in in_wheel] == []


def test_the_kgdiff_that_runs_is_the_wheels(installed: Installed) -> None:
    code = (
        "import json, sys, kgdiff, kgdiff.sql, kgdiff.snapshots; print(json.dumps(["
        "kgdiff.__file__, kgdiff.sql.__file__, kgdiff.snapshots.__file__, sys.path, "
        "[repr(finder) for finder in sys.meta_path]]))"
    )
    python = str(installed.venv / "bin" / "python")
    *modules, path, finders = json.loads(_call([python, "-c", code], installed.cwd))
    assert all(Path(module).is_relative_to(installed.venv) for module in modules), modules
    assert str(ROOT) not in path
    assert not any("Editable" in finder for finder in finders), finders
    check = [sys.executable, "-m", "pip", "--python", python, "check"]  # the wheel's requirements
    assert "No broken requirements" in _call(check, installed.cwd)


def test_the_demo_then_a_classification_from_another_folder(installed: Installed) -> None:
    store = str(installed.cwd / "demo-store")
    demo = installed.run("demo", "--store", store)
    assert demo.returncode == 0, demo.stderr
    assert "wd-2014-12" in demo.stdout and "mentioning sentence" in demo.stdout
    assert "one record of qa/evolved" in demo.stdout  # the catalogue and task files shipped
    classify = installed.run("classify", *DATES, "--store", store)
    assert classify.returncode == 0, classify.stderr
    assert "evolved" in classify.stdout and "stable" in classify.stdout
    audit = installed.run("audit", *DATES, "--store", store)  # lists sql/audits/
    assert audit.returncode == 0, audit.stderr
    assert audit.stdout.count(" ok") == len(list((ROOT / "sql" / "audits").glob("*.sql")))
    chains = installed.run("chains", "--date", "2014-11-01", "--subject", "Q21", "--store", store)
    assert chains.returncode == 0, chains.stderr  # the default relations, kgdiff/data/


def test_an_ingest_into_a_fresh_store_from_another_folder(installed: Installed) -> None:
    dump = installed.cwd / "Q42.json"
    shutil.copyfile(DATA / "wd_Q42.json", dump)
    store = str(installed.cwd / "fresh-store")
    args = ["--snapshot", "q42", "--date", "2024-01-01", "--store", store, "--quiet"]
    ingest = installed.run("ingest", "wikidata", dump.name, *args)
    assert ingest.returncode == 0, ingest.stderr
    assert (installed.cwd / "fresh-store" / "kg.duckdb").is_file()
    timeline = installed.run("timeline", "Q42", "--pid", "P31", "--store", store)
    assert timeline.returncode == 0 and "Q5" in timeline.stdout, timeline.stderr


def test_failures_are_one_line_without_a_traceback(installed: Installed) -> None:
    usage = installed.run("classify", "--init", "yesterday", *DATES[2:])
    assert usage.returncode == 2 and usage.stderr.strip().startswith("error: --init")
    broken = installed.cwd / "broken-store"
    broken.mkdir()
    (broken / "kg.duckdb").write_bytes(b"a half-copied catalog" * 100)
    crash = installed.run("timeline", "Q42", "--store", str(broken))
    assert crash.returncode == 70, crash.stderr
    for result in (usage, crash):
        assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
    log = Path(crash.stderr.strip().rpartition("; details in ")[2])
    assert log.is_relative_to(installed.cwd / "state") and "Traceback" in log.read_text()


def test_the_explorer_page_answers_from_the_wheel(installed: Installed) -> None:
    dump = installed.cwd / "Q42-explorer.json"
    shutil.copyfile(DATA / "wd_Q42.json", dump)
    store = installed.cwd / "explorer-store"
    args = ["--snapshot", "q42", "--date", "2024-01-01", "--store", str(store), "--quiet"]
    ingest = installed.run("ingest", "wikidata", dump.name, *args)
    assert ingest.returncode == 0, ingest.stderr
    code = (
        "import json, sys, api.explorer; from fastapi.testclient import TestClient;"
        " from api.app import create_app; from api.settings import Settings;"
        " from pathlib import Path;"
        " client = TestClient(create_app(Settings(store=Path(sys.argv[1]))));"
        " paths = ('/', '/explorer/js/main.js', '/explorer/explorer.css');"
        " answers = [client.get(p) for p in paths];"
        " print(json.dumps([str(api.explorer.STATIC), [a.status_code for a in answers],"
        " answers[0].text, answers[1].headers['content-type']]))"
    )
    python = str(installed.venv / "bin" / "python")
    static, statuses, page, script_type = json.loads(
        _call([python, "-c", code, str(store)], installed.cwd)
    )
    assert Path(static).is_relative_to(installed.venv)
    assert statuses == [200, 200, 200]
    assert '<script type="module" src="/explorer/js/main.js">' in page
    assert "javascript" in script_type
