"""``kgdiff export rdf --out X.nt.gz`` (and ``.nq.gz``): the plain export's bytes, gzipped on a
thread of its own, whole or not at all; other compressions and compressed Turtle refused."""

from __future__ import annotations

import gzip
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import kgdiff
from kgdiff.export.rdf import gzipped
from kgdiff.export.rdf.classification import snapshot_graph
from kgdiff.export.rdf.writer import RdfRequest, export_rdf
from tests.paths import run_kgdiff

SNAPSHOT = "wd-2014-12"
WD = "http://www.wikidata.org/entity/"


def test_a_gzipped_snapshot_is_the_plain_one_compressed(sample_store: Path, tmp_path: Path) -> None:
    plain, packed = tmp_path / "s.nt", tmp_path / "s.nt.gz"
    for out in (plain, packed):
        done = run_kgdiff("export", "rdf", "--snapshot", SNAPSHOT, "--out", str(out),
                          "--store", str(sample_store))  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert f"written to {out}" in done.stdout.replace("\n", "")
    assert gzip.decompress(packed.read_bytes()) == plain.read_bytes()
    assert packed.stat().st_size * 5 < plain.stat().st_size
    assert sorted(path.name for path in tmp_path.iterdir()) == ["s.nt", "s.nt.gz"]


def test_gzipped_n_quads_of_two_snapshots(sample_store: Path, tmp_path: Path) -> None:
    """Every 8th entity of the two snapshots (208 of the 1,659 they hold: the whole snapshots
    written twice took 10 CPU-s), in blocks of 32 KB instead of 1 MB, so that
    the compressing thread still gets dozens of blocks and its queue fills."""
    names = "wd-2013-12,wd-2014-10"
    with kgdiff.open(sample_store, lookup=False).connection() as connection:
        rows = connection.execute(
            "SELECT qid FROM (SELECT DISTINCT qid FROM entities WHERE snapshot IN"
            " ('wd-2013-12', 'wd-2014-10')) ORDER BY hash(qid || 'gz')"
        ).fetchall()
    chosen = [qid for (qid,) in rows[::8]]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(gzipped, "BLOCK", 32 << 10)
        plain = export_rdf(sample_store, RdfRequest(names, tmp_path / "two.nq", "nq", chosen))
        packed = export_rdf(sample_store, RdfRequest(names, tmp_path / "two.nq.gz", "nq", chosen))
    assert packed.triples == plain.triples > 0
    data = plain.path.read_bytes()
    assert len(data) > 40 * (32 << 10)  # dozens of blocks
    assert all(f"<{WD}{qid}>".encode() in data for qid in chosen)
    graphs = {line.rsplit(b" ", 2)[1] for line in data.splitlines()}
    assert graphs == {snapshot_graph(name).encode() for name in names.split(",")}
    assert gzip.decompress(packed.path.read_bytes()) == data


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("s.nt.bz2", "compresses with gzip only; name it s.nt.gz"),
        ("s.nq.zst", "compresses with gzip only; name it s.nq.gz"),
        ("s.ttl.gz", "Turtle and TriG are written uncompressed, for a few entities; name it s.ttl"),
    ],
)
def test_what_it_cannot_compress_is_refused(
    sample_store: Path, tmp_path: Path, name: str, says: str
) -> None:
    args = ["--snapshot", SNAPSHOT, "--entities", "Q183", "--out", str(tmp_path / name)]
    done = run_kgdiff("export", "rdf", *args, "--store", str(sample_store))
    assert done.returncode == 2 and says in done.stderr
    assert list(tmp_path.iterdir()) == []


@given(lines=st.lists(st.text(max_size=40).map(lambda text: text + "\n"), max_size=60))
def test_lines_come_back_whole_in_blocks_of_any_size(lines: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as patch:
        patch.setattr(gzipped, "BLOCK", 16)  # many blocks, and the thread's queue full
        path = Path(folder) / "lines.nt.gz"
        assert gzipped.write_gzipped(iter(lines), path) == len(lines)
        assert gzip.decompress(path.read_bytes()).decode("utf-8") == "".join(lines)


def test_a_failure_while_the_lines_are_made_is_raised(tmp_path: Path) -> None:
    """The caller (``export_rdf``) then removes the temporary file: nothing is published."""

    def failing() -> Iterator[str]:
        yield "<a> <b> <c> .\n" * 10
        raise OSError("the store's files went away")

    with pytest.MonkeyPatch.context() as patch, pytest.raises(OSError, match="went away"):
        patch.setattr(gzipped, "BLOCK", 8)
        gzipped.write_gzipped(failing(), tmp_path / "x.nt.gz")
