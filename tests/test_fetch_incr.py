"""`kgdiff fetch incr`: the daily incremental dumps of a range of days, from a real loopback
HTTP server laid out like dumps.wikimedia.org/other/incr/, resumed and verified."""

from __future__ import annotations

import bz2
import hashlib
import json
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
import requests

from kgdiff.errors import InputError, UsageError
from kgdiff.fetch.incremental import IncrementalRequest, fetch_incremental
from kgdiff.fetch.transfer import new_session
from tests.dump_server import Faults, serve
from tests.paths import DATA, run_kgdiff

WIKI = "wikidatawiki"
DAILY = DATA / "sample-daily-dump-20140220.xml"
"""A real daily incremental dump (see tests/data/NOTICE), served as the 20 February 2014 file."""


def _name(day: str) -> str:
    return f"{WIKI}-{day}-pages-meta-hist-incr.xml.bz2"


def _publish(root: Path, day: str, data: bytes, listed_md5: str | None = None) -> None:
    folder = root / "other" / "incr" / WIKI / day
    folder.mkdir(parents=True)
    (folder / _name(day)).write_bytes(data)
    (folder / "status.txt").write_text("done\n")
    (folder / "maxrevid.txt").write_text("110652822\n")
    md5 = listed_md5 or hashlib.md5(data).hexdigest()
    (folder / f"{WIKI}-{day}-md5sums.txt").write_text(
        f"{md5}  {_name(day)}\n{'0' * 32}  {WIKI}-{day}-stubs-meta-hist-incr.xml.gz\n"
    )


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[str, Faults, Path]]:
    """20 and 21 February 2014 published, 22 February not (yet)."""
    root = tmp_path / "site"
    daily = bz2.compress(DAILY.read_bytes())
    _publish(root, "20140220", daily)
    _publish(root, "20140221", bz2.compress(DAILY.read_bytes().replace(b"universe", b"cosmos")))
    with serve(root) as (base, faults):
        yield base, faults, root


@pytest.fixture
def session() -> requests.Session:
    """kgdiff's own session, kept off any proxy configured in the environment."""
    s = new_session()
    s.trust_env = False
    return s


def _request(base: str, out: Path, first: str, last: str) -> IncrementalRequest:
    return IncrementalRequest(
        WIKI, date.fromisoformat(first), date.fromisoformat(last), out, f"{base}/other/incr", 1
    )


def test_each_published_day_is_downloaded_verified_and_the_missing_ones_named(
    site, session, tmp_path: Path
) -> None:
    base, faults, root = site
    out = tmp_path / "incr"
    result = fetch_incremental(_request(base, out, "2014-02-20", "2014-02-22"), session)
    assert [r.path.name for r in result.fetched] == [_name("20140220"), _name("20140221")]
    assert [r.status for r in result.fetched] == ["downloaded", "downloaded"]
    assert [r.algorithm for r in result.fetched] == ["md5", "md5"]
    assert result.missing == [date(2014, 2, 22)]
    for day in ("20140220", "20140221"):
        served = root / "other" / "incr" / WIKI / day
        assert (out / _name(day)).read_bytes() == (served / _name(day)).read_bytes()
        sums = f"{WIKI}-{day}-md5sums.txt"
        assert (out / sums).read_text() == (served / sums).read_text()
        sidecar = json.loads((out / f"{_name(day)}.verified.json").read_text())
        assert sidecar["verified"] and sidecar["algorithm"] == "md5"
    assert bz2.decompress((out / _name("20140220")).read_bytes()) == DAILY.read_bytes()
    asked = [path for path, _ in faults.requests]
    assert f"/other/incr/{WIKI}/20140222/{WIKI}-20140222-md5sums.txt" in asked
    assert not any(path.endswith(_name("20140222")) for path in asked)


def test_a_rerun_downloads_nothing_again_and_a_cut_download_resumes(
    site, session, tmp_path: Path
) -> None:
    base, faults, _ = site
    out = tmp_path / "incr"
    faults.cut_after = 20_000
    with pytest.raises(InputError, match="rerun to resume"):
        fetch_incremental(
            IncrementalRequest(
                WIKI, date(2014, 2, 20), date(2014, 2, 21), out, f"{base}/other/incr", 0
            ),
            session,
        )
    assert (out / f"{_name('20140220')}.part").stat().st_size == 20_000
    first = fetch_incremental(_request(base, out, "2014-02-20", "2014-02-21"), session)
    assert [r.status for r in first.fetched] == ["downloaded", "downloaded"]
    ranges = [rng for path, rng in faults.requests if path.endswith(_name("20140220"))]
    assert ranges == [None, "bytes=20000-"]
    before = len(faults.requests)
    again = fetch_incremental(_request(base, out, "2014-02-20", "2014-02-21"), session)
    assert [r.status for r in again.fetched] == ["unchanged", "unchanged"]
    assert not any(path.endswith(".bz2") for path, _ in faults.requests[before:])


def test_a_day_whose_file_fails_its_checksum_is_kept_aside(site, session, tmp_path: Path) -> None:
    base, _, root = site
    _publish(root, "20140223", b"BZh9 not what the list says", listed_md5="1" * 32)
    out = tmp_path / "incr"
    with pytest.raises(InputError, match=r"md5 is .* but .*md5sums.txt says 1111"):
        fetch_incremental(_request(base, out, "2014-02-23", "2014-02-23"), session)
    assert (out / f"{_name('20140223')}.corrupt").exists()
    assert not (out / _name("20140223")).exists()


def test_days_out_of_order_or_a_bad_wiki_are_refused(site, session, tmp_path: Path) -> None:
    base, _, _ = site
    with pytest.raises(UsageError, match="--to 2014-02-19 is before --from 2014-02-20"):
        fetch_incremental(_request(base, tmp_path, "2014-02-20", "2014-02-19"), session)
    bad = IncrementalRequest("../etc", date(2014, 2, 20), date(2014, 2, 20), tmp_path, base)
    with pytest.raises(UsageError, match="no wiki database name"):
        fetch_incremental(bad, session)


def test_the_command_prints_each_path_and_fails_naming_the_missing_days(
    site, tmp_path: Path
) -> None:
    base, _, _ = site
    out = tmp_path / "incr"
    args = ["fetch", "incr", "--wiki", WIKI, "--from", "2014-02-20", "--to", "2014-02-21"]
    args += ["--out", str(out), "--base-url", f"{base}/other/incr", "--quiet"]
    done = run_kgdiff(*args, env={"NO_PROXY": "127.0.0.1"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [str(out / _name("20140220")), str(out / _name("20140221"))]
    missing = run_kgdiff(*args[:7], "2014-02-22", *args[8:], env={"NO_PROXY": "127.0.0.1"})
    assert missing.returncode == 3
    assert "no incremental dump is published for 2014-02-22" in missing.stderr
    assert len(missing.stderr.strip().splitlines()) == 1
    single = run_kgdiff(
        "fetch",
        f"{base}/other/incr/{WIKI}/20140220/{_name('20140220')}",
        "--dest",
        str(tmp_path / "one"),
        "--quiet",
        env={"NO_PROXY": "127.0.0.1"},
    )
    assert single.returncode == 0, single.stderr
    assert single.stdout.strip() == str(tmp_path / "one" / _name("20140220"))
