"""RDF ingest and export at scale (issue 25): ``kgdiff ingest rdf`` of an N-Triples file and
of the same data three times over (memory must stay flat), ``kgdiff export rdf`` of the
ingested snapshot, and rdflib's own N-Triples parse speed, side by side.

    .venv/bin/python -m bench.rdf_bench [--cache bench/.cache/rdf] [--copies 3]
        [--rdflib-mb 20]

The data is the repo's own: the three sample snapshots (snapshots/, the ones the tests
ingest) are ingested into a store under the cache, exported entity by entity as
N-Triples, and each export is written again with every entity id moved by a multiple of
10^9 (``wd:Q42`` → ``wd:Q1000000042``, its statement nodes alike), so that the copies are
different entities: the 1× file is the three snapshots once, the 3× file three times over
(nine renamed copies). Both are cached. Each command runs in its own process, measured with
bench/rss.py (wall and CPU seconds, peak RSS of the process tree). Prints one JSON line per
measurement.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from pathlib import Path

from bench.rss import Measured, run_measured

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CACHE = ROOT / "bench" / ".cache" / "rdf"
SNAPSHOTS = ("wd-2013-12", "wd-2014-10", "wd-2014-12")
SHIFT = 10**9
_IDS = re.compile(r"(/entity/(?:statement/)?)([PQLpql])(\d+)")


def _kgdiff(*args: str) -> list[str]:
    return [sys.executable, "-m", "kgdiff", *args]


def _run(command: list[str]) -> None:
    done = run_measured(command, stdout_path="/dev/null")
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr}")


def sample_store(cache: Path) -> Path:
    """The sample snapshots ingested into a store of the cache (once)."""
    from kgdiff.demo import load_samples

    store = cache / "store"
    for sample in load_samples():
        if not (store / "snapshots" / f"snapshot={sample.name}" / "manifest.json").is_file():
            _run(_kgdiff("ingest", "wikidata", str(ROOT / "snapshots" / sample.file),
                         "--snapshot", sample.name, "--date", sample.date,
                         "--coverage", sample.coverage, "--store", str(store), "-q"))  # fmt: skip
    return store


def renamed(text: str, copy: int) -> str:
    """N-Triples with every entity id moved by ``copy`` × :data:`SHIFT` (copy 0: as is)."""
    if copy == 0:
        return text
    shift = copy * SHIFT
    return _IDS.sub(lambda m: f"{m[1]}{m[2]}{int(m[3]) + shift}", text)


def data_files(cache: Path, copies: int) -> tuple[Path, Path]:
    """The 1× and ``copies``× N-Triples files (made once, then taken from the cache)."""
    one, many = cache / "rdf-1x.nt", cache / f"rdf-{copies}x.nt"
    if one.is_file() and many.is_file():
        return one, many
    store = sample_store(cache)
    exports = []
    for name in SNAPSHOTS:
        export = cache / f"{name}.nt"
        if not export.is_file():
            _run(_kgdiff("export", "rdf", "--snapshot", name, "--out", str(export),
                         "--store", str(store)))  # fmt: skip
        exports.append(export.read_text(encoding="utf-8"))
    for path, times in ((one, 1), (many, copies)):
        with path.open("w", encoding="utf-8") as out:
            for index in range(times * len(exports)):
                out.write(renamed(exports[index % len(exports)], index))
    return one, many


def figures(what: str, path: Path, measured: Measured, mb: float) -> dict[str, object]:
    """One JSON line's fields."""
    seconds = measured.seconds
    return {
        "what": what,
        "file": path.name,
        "mb": round(mb, 1),
        "seconds": round(seconds, 1),
        "mb_per_s": round(mb / seconds, 2) if seconds else None,
        "cpu_seconds": round(measured.cpu_seconds, 1),
        "peak_rss_mb": round(measured.peak_rss_bytes / 2**20),
        "peak_pss_mb": round(measured.peak_pss_bytes / 2**20),
        "returncode": measured.returncode,
    }


RDFLIB_PARSE = """
import logging, sys, time, rdflib
logging.getLogger("rdflib.term").setLevel(logging.ERROR)
data = open(sys.argv[1], "rb").read(int(sys.argv[2]))
data = data[: data.rindex(b"\\n") + 1].decode("utf-8")
start = time.process_time()
graph = rdflib.Graph().parse(data=data, format="nt")
print(len(graph), time.process_time() - start)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--copies", type=int, default=3)
    parser.add_argument("--rdflib-mb", type=float, default=20.0)
    args = parser.parse_args()
    args.cache.mkdir(parents=True, exist_ok=True)
    one, many = data_files(args.cache, args.copies)
    with tempfile.TemporaryDirectory(prefix="rdf-bench-", dir=args.cache) as work:
        store = Path(work) / "store"
        for path in (one, many):
            name = path.stem.replace("rdf-", "r")
            command = _kgdiff("ingest", "rdf", str(path), "--snapshot", name,
                              "--date", "2020-01-01", "--store", str(store), "-q")  # fmt: skip
            measured = run_measured(command, stdout_path="/dev/null")
            print(json.dumps(figures("ingest rdf", path, measured, path.stat().st_size / 1e6)))
        out = Path(work) / "export.nt"
        command = _kgdiff("export", "rdf", "--snapshot", "r1x", "--out", str(out),
                          "--store", str(store))  # fmt: skip
        measured = run_measured(command, stdout_path="/dev/null")
        size = out.stat().st_size / 1e6 if out.is_file() else 0.0
        print(json.dumps(figures("export rdf", out, measured, size)))
        prefix = int(args.rdflib_mb * 1e6)
        command = [sys.executable, "-c", RDFLIB_PARSE, str(one), str(prefix)]
        started = time.perf_counter()
        measured = run_measured(command)
        line = figures(
            "rdflib parse nt (prefix)", one, measured, min(prefix, one.stat().st_size) / 1e6
        )
        triples, cpu = measured.stdout.split() if measured.returncode == 0 else ("0", "0")
        line["triples"], line["parse_cpu_seconds"] = int(triples), round(float(cpu), 1)
        line["wall_with_read"] = round(time.perf_counter() - started, 1)
        print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
