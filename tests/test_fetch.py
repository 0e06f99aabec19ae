"""`kgdiff fetch`: resumable downloads from a real loopback HTTP server, verified checksums."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from hypothesis import given
from hypothesis import strategies as st

from kgdiff.errors import InputError
from kgdiff.fetch.checksums import (
    ChecksumEntry,
    algorithm_for_name,
    find_entry,
    hash_file,
    parse_checksums,
)
from kgdiff.fetch.download import fetch
from kgdiff.fetch.guard import refuse_unverified
from kgdiff.fetch.published import sibling_checksum_urls
from kgdiff.fetch.transfer import new_session
from tests.dump_server import Faults, serve
from tests.paths import DATA, ROOT, SAMPLES

# A real enwiki pages-articles extract (see tests/data/NOTICE), served under a dated dump name.
ENWIKI_SOURCE = (
    DATA / "wikipedia" / "enwiki-latest-pages-articles1.xml-p000000010p000030302-shortened.bz2"
)
ENWIKI_NAME = "enwiki-20240101-pages-articles1.xml-p10p30302.bz2"
ENWIKI_PATH = f"/enwiki/20240101/{ENWIKI_NAME}"
ENWIKI_SIZE = 1_695_871
ENWIKI_SHA1 = "7b5fb82629787518600dfdb27b84703f2abad6ee"
ENWIKI_MD5 = "55899abfb7caa0e50d2665787fa4afca"
# The bundled real Wikidata JSON sample, served where a Wikidata entity dump would be.
WIKIDATA_NAME = "wikidata-20141231-all.json.bz2"
WIKIDATA_PATH = f"/wikidata/entities/20141231/{WIKIDATA_NAME}"
WIKIDATA_MD5 = "fa82bbede420b40fe43db3fce7a24956"
WIKIDATA_SHA256 = "1b9c7229933910551ca98359545608eef28ebe92378bb9de570c16cd7adf5488"
OTHER_SHA1 = "0123456789abcdef0123456789abcdef01234567"
USER_AGENT = "kgdiff/0.1.0 (+https://github.com/kgdiff; research benchmark builder)"


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[str, Faults, Path]]:
    """A dumps site on loopback: enwiki with a sha1sums list, Wikidata with only md5sums."""
    root = tmp_path / "site"
    enwiki = root / "enwiki" / "20240101"
    enwiki.mkdir(parents=True)
    shutil.copyfile(ENWIKI_SOURCE, enwiki / ENWIKI_NAME)
    (enwiki / "enwiki-20240101-sha1sums.txt").write_text(
        f"{OTHER_SHA1}  enwiki-20240101-abstract.xml.gz\n{ENWIKI_SHA1}  {ENWIKI_NAME}\n"
    )
    wikidata = root / "wikidata" / "entities" / "20141231"
    wikidata.mkdir(parents=True)
    shutil.copyfile(SAMPLES / "testDump_json_2014-12.json.bz2", wikidata / WIKIDATA_NAME)
    (wikidata / "wikidata-20141231-md5sums.txt").write_text(f"{WIKIDATA_MD5}  {WIKIDATA_NAME}\n")
    with serve(root) as (base, faults):
        yield base, faults, root


@pytest.fixture
def session() -> requests.Session:
    """kgdiff's own session, kept off any proxy configured in the environment."""
    s = new_session()
    s.trust_env = False
    return s


def dump_requests(faults: Faults, path: str = ENWIKI_PATH) -> list[str | None]:
    """The Range header of every request for one file, in order."""
    return [rng for requested, rng in faults.requests if requested == path]


def test_download_verified_by_sibling_sha1sums(site, session, tmp_path: Path) -> None:
    base, faults, _ = site
    dest = tmp_path / "dest"
    seen: list[tuple[str, int, int | None]] = []
    result = fetch(base + ENWIKI_PATH, dest, session=session, progress=lambda *a: seen.append(a))
    final = dest / ENWIKI_NAME
    assert (result.path, result.status, result.size) == (final, "downloaded", ENWIKI_SIZE)
    assert (result.algorithm, result.digest) == ("sha1", ENWIKI_SHA1)
    assert result.checksum_source == f"{base}/enwiki/20240101/enwiki-20240101-sha1sums.txt"
    assert final.read_bytes() == ENWIKI_SOURCE.read_bytes()
    assert sorted(p.name for p in dest.iterdir()) == [ENWIKI_NAME, ENWIKI_NAME + ".verified.json"]
    sidecar = json.loads((dest / (ENWIKI_NAME + ".verified.json")).read_text())
    assert sidecar["url"] == base + ENWIKI_PATH and sidecar["size"] == ENWIKI_SIZE
    assert (sidecar["algorithm"], sidecar["digest"], sidecar["verified"]) == (
        "sha1",
        ENWIKI_SHA1,
        True,
    )
    assert seen[0] == ("download", 0, ENWIKI_SIZE)
    assert ("download", ENWIKI_SIZE, ENWIKI_SIZE) in seen
    assert seen[-1] == ("verify", ENWIKI_SIZE, ENWIKI_SIZE)
    assert [p for p, _ in faults.requests] == [
        "/enwiki/20240101/enwiki-20240101-sha1sums.txt",
        ENWIKI_PATH,
    ]
    assert faults.agents == {USER_AGENT}
    again = fetch(base + ENWIKI_PATH, dest, session=session)
    assert again.status == "unchanged" and again.digest == ENWIKI_SHA1
    assert len(faults.requests) == 2  # a verified file is not downloaded (or even checked) again


def test_wikidata_dump_falls_back_to_md5sums(site, session, tmp_path: Path) -> None:
    base, faults, _ = site
    result = fetch(base + WIKIDATA_PATH, tmp_path, session=session)
    assert (result.algorithm, result.digest, result.size) == ("md5", WIKIDATA_MD5, 1_938_141)
    assert [p for p, _ in faults.requests] == [
        "/wikidata/entities/20141231/wikidata-20141231-sha1sums.txt",  # 404: not published
        "/wikidata/entities/20141231/wikidata-20141231-md5sums.txt",
        WIKIDATA_PATH,
    ]


def test_cut_connection_resumes_in_the_same_run(site, session, tmp_path: Path) -> None:
    base, faults, _ = site
    faults.cut_after = 400_000
    result = fetch(base + ENWIKI_PATH, tmp_path, session=session, retries=2, backoff=0.01)
    assert result.status == "downloaded" and result.digest == ENWIKI_SHA1
    assert dump_requests(faults) == [None, "bytes=400000-"]
    assert faults.served[ENWIKI_PATH] == ENWIKI_SIZE  # no byte sent twice


def test_interrupted_run_resumes_on_rerun(site, session, tmp_path: Path) -> None:
    base, faults, _ = site
    faults.cut_after = 400_000
    with pytest.raises(InputError, match="gave up after 0 retries") as failed:
        fetch(base + ENWIKI_PATH, tmp_path, session=session, retries=0)
    assert "rerun to resume" in str(failed.value)
    part = tmp_path / (ENWIKI_NAME + ".part")
    assert part.stat().st_size == 400_000 and not (tmp_path / ENWIKI_NAME).exists()
    with pytest.raises(InputError, match="unfinished download"):
        refuse_unverified(part)
    result = fetch(base + ENWIKI_PATH, tmp_path, session=session, retries=0)
    assert result.status == "downloaded" and result.digest == ENWIKI_SHA1
    assert dump_requests(faults) == [None, "bytes=400000-"]
    assert faults.served[ENWIKI_PATH] == ENWIKI_SIZE
    assert not part.exists()


def test_server_ignoring_range_restarts_from_zero(site, session, tmp_path: Path) -> None:
    base, faults, _ = site
    faults.ignore_range = True
    (tmp_path / (ENWIKI_NAME + ".part")).write_bytes(b"x" * 300_000)  # would spoil an append
    result = fetch(base + ENWIKI_PATH, tmp_path, session=session)
    assert result.digest == ENWIKI_SHA1
    assert dump_requests(faults) == ["bytes=300000-"]
    assert faults.served[ENWIKI_PATH] == ENWIKI_SIZE
    assert (tmp_path / ENWIKI_NAME).read_bytes() == ENWIKI_SOURCE.read_bytes()


def test_wrong_content_range_start_restarts(site, session, tmp_path: Path) -> None:
    base, faults, _ = site
    faults.shift_range = 5
    (tmp_path / (ENWIKI_NAME + ".part")).write_bytes(ENWIKI_SOURCE.read_bytes()[:200_000])
    result = fetch(base + ENWIKI_PATH, tmp_path, session=session, backoff=0.01)
    assert result.digest == ENWIKI_SHA1
    assert dump_requests(faults) == ["bytes=200000-", None]


def test_complete_part_gets_416_and_is_verified(site, session, tmp_path: Path) -> None:
    base, faults, _ = site
    shutil.copyfile(ENWIKI_SOURCE, tmp_path / (ENWIKI_NAME + ".part"))
    result = fetch(base + ENWIKI_PATH, tmp_path, session=session)
    assert (result.status, result.digest) == ("downloaded", ENWIKI_SHA1)
    assert dump_requests(faults) == [f"bytes={ENWIKI_SIZE}-"]
    assert faults.served.get(ENWIKI_PATH, 0) == 0


def test_retry_after_503(site, session, tmp_path: Path) -> None:
    base, faults, _ = site
    faults.fail_503 = 1
    result = fetch(base + ENWIKI_PATH, tmp_path, checksum=ENWIKI_MD5, session=session, backoff=0.01)
    assert (result.algorithm, result.digest, result.checksum_source) == (
        "md5",
        ENWIKI_MD5,
        "the command line",
    )
    assert dump_requests(faults) == [None, None]
    faults.fail_503 = 1
    with pytest.raises(InputError, match=r"HTTP 503 Service Unavailable \(gave up after 0"):
        fetch(base + WIKIDATA_PATH, tmp_path, checksum=WIKIDATA_MD5, session=session, retries=0)


def test_checksum_mismatch_keeps_corrupt_file_only(site, session, tmp_path: Path) -> None:
    base, _, root = site
    sums = root / "enwiki" / "20240101" / "enwiki-20240101-sha1sums.txt"
    sums.write_text(f"{OTHER_SHA1}  {ENWIKI_NAME}\n")
    dest = tmp_path / "dest"
    with pytest.raises(InputError) as failed:
        fetch(base + ENWIKI_PATH, dest, session=session)
    message = str(failed.value)
    assert f"{ENWIKI_NAME}: sha1 is {ENWIKI_SHA1} but " in message
    assert f"says {OTHER_SHA1}" in message and "rerun to delete it" in message
    corrupt = dest / (ENWIKI_NAME + ".corrupt")
    assert [p.name for p in dest.iterdir()] == [corrupt.name]
    assert corrupt.read_bytes() == ENWIKI_SOURCE.read_bytes()
    with pytest.raises(InputError, match="failed its checksum"):
        refuse_unverified(corrupt)
    sums.write_text(f"{ENWIKI_SHA1}  {ENWIKI_NAME}\n")  # the mirror fixed its list
    assert fetch(base + ENWIKI_PATH, dest, session=session).digest == ENWIKI_SHA1
    assert not corrupt.exists()


def test_no_published_checksum_fails_before_downloading(site, session, tmp_path: Path) -> None:
    base, faults, root = site
    shutil.copyfile(ENWIKI_SOURCE, root / "mydump.bz2")
    with pytest.raises(
        InputError, match=r"mydump\.bz2 \(not a Wikimedia dump name\); .* or --no-verify"
    ):
        fetch(f"{base}/mydump.bz2", tmp_path, session=session)
    (root / "enwiki" / "20240101" / "enwiki-20240101-sha1sums.txt").unlink()
    with pytest.raises(InputError, match=r"tried .*-sha1sums\.txt and .*-md5sums\.txt\); give"):
        fetch(base + ENWIKI_PATH, tmp_path, session=session)
    assert faults.served == {}  # neither dump was downloaded
    result = fetch(f"{base}/mydump.bz2", tmp_path, verify=False, session=session)
    assert (result.status, result.algorithm, result.digest) == ("downloaded", None, None)
    sidecar = json.loads((tmp_path / "mydump.bz2.verified.json").read_text())
    assert sidecar["verified"] is False
    assert fetch(f"{base}/mydump.bz2", tmp_path, verify=False).status == "unchanged"


def test_checksum_url_with_binary_marker(site, session, tmp_path: Path) -> None:
    base, faults, root = site
    (root / "sha256sums.txt").write_text(f"{WIKIDATA_SHA256} *{WIKIDATA_NAME}\r\n")
    url = base + WIKIDATA_PATH
    result = fetch(url, tmp_path, checksum_url=f"{base}/sha256sums.txt", session=session)
    assert (result.algorithm, result.digest) == ("sha256", WIKIDATA_SHA256)
    with pytest.raises(InputError, match=f"sha256sums.txt lists no checksum for {ENWIKI_NAME}"):
        fetch(base + ENWIKI_PATH, tmp_path, checksum_url=f"{base}/sha256sums.txt", session=session)
    with pytest.raises(InputError, match=r"nosuch\.txt: not found"):
        fetch(url, tmp_path / "x", checksum_url=f"{base}/nosuch.txt", session=session)
    assert [p for p, _ in faults.requests].count(WIKIDATA_PATH) == 1


def test_existing_file_is_adopted_or_refused(site, session, tmp_path: Path) -> None:
    base, faults, _ = site
    shutil.copyfile(ENWIKI_SOURCE, tmp_path / ENWIKI_NAME)
    with pytest.raises(InputError, match=f"already exists but its sha1 is {ENWIKI_SHA1}, not"):
        fetch(base + ENWIKI_PATH, tmp_path, checksum=OTHER_SHA1, session=session)
    result = fetch(base + ENWIKI_PATH, tmp_path, checksum=ENWIKI_MD5.upper(), session=session)
    assert (result.status, result.digest) == ("adopted", ENWIKI_MD5)
    assert fetch(base + ENWIKI_PATH, tmp_path, checksum=ENWIKI_MD5).status == "unchanged"
    assert faults.requests == []


def test_missing_dump_is_one_clear_error(site, session, tmp_path: Path) -> None:
    base, _, _ = site
    dest = tmp_path / "dest"
    with pytest.raises(InputError, match=r"/enwiki/20240101/nope.bz2: HTTP 404 Not Found; check"):
        fetch(f"{base}/enwiki/20240101/nope.bz2", dest, checksum=ENWIKI_MD5, session=session)
    assert list(dest.iterdir()) == []


# The command as the lead registers it: app.command("fetch")(fetch_command), run like `kgdiff`.
CLI = """
import typer
from kgdiff.cli.common import run_guarded
from kgdiff.cli.fetch import fetch_command
app = typer.Typer(pretty_exceptions_enable=False, add_completion=False)
app.callback()(lambda: None)
app.command("fetch")(fetch_command)
raise SystemExit(run_guarded(app))
"""


def run_fetch(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", CLI, "fetch", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={"COLUMNS": "200", "PATH": "/usr/bin:/bin", "HOME": str(ROOT)},
    )


def test_cli_prints_path_and_exit_codes(site, tmp_path: Path) -> None:
    base, _, root = site
    ok = run_fetch(base + ENWIKI_PATH, "--dest", str(tmp_path / "ok"))
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout == f"{tmp_path / 'ok' / ENWIKI_NAME}\n"
    assert f"sha1 {ENWIKI_SHA1} matches" in ok.stderr
    bad_option = run_fetch(base + ENWIKI_PATH, "--sha1", ENWIKI_MD5)
    assert bad_option.returncode == 2 and "is not a sha1 digest" in bad_option.stderr
    (root / "enwiki" / "20240101" / "enwiki-20240101-sha1sums.txt").write_text(
        f"{OTHER_SHA1}  {ENWIKI_NAME}\n"
    )
    bad = run_fetch(base + ENWIKI_PATH, "--dest", str(tmp_path / "bad"), "--quiet")
    assert bad.returncode == 3 and bad.stdout == ""
    lines = bad.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {ENWIKI_NAME}: sha1 is {ENWIKI_SHA1}")
    assert (tmp_path / "bad" / (ENWIKI_NAME + ".corrupt")).is_file()
    assert not (tmp_path / "bad" / ENWIKI_NAME).exists()


def test_guard_passes_verified_names_and_refuses_in_one_line(tmp_path: Path) -> None:
    refuse_unverified(tmp_path / ENWIKI_NAME)
    refuse_unverified(tmp_path / "part-0001.parquet")
    with pytest.raises(InputError) as refused:
        refuse_unverified(tmp_path / "wikidata-20240101-all.json.bz2.part")
    assert "\n" not in str(refused.value) and "kgdiff fetch" in str(refused.value)


def test_sibling_checksum_urls_follow_wikimedia_names() -> None:
    wikidata = "https://dumps.wikimedia.org/wikidatawiki/entities/20240101/"
    assert sibling_checksum_urls(wikidata + "wikidata-20240101-all.json.bz2?x=1") == [
        wikidata + "wikidata-20240101-sha1sums.txt",
        wikidata + "wikidata-20240101-md5sums.txt",
    ]
    latest = "https://dumps.wikimedia.org/enwiki/latest/"
    assert sibling_checksum_urls(latest + "enwiki-latest-pages-articles.xml.bz2")[1] == (
        latest + "enwiki-latest-md5sums.txt"
    )
    assert sibling_checksum_urls("https://example.org/files/dump.json.bz2") == []
    for bad in ("https://example.org/files/", "https://example.org/x/..%2F..%2Fetc%2Fpasswd"):
        with pytest.raises(InputError, match="does not end with a file name"):
            sibling_checksum_urls(bad)


def test_hash_file_streams_exact_digests(tmp_path: Path) -> None:
    assert hash_file(ENWIKI_SOURCE, "sha1", chunk_size=4096) == ENWIKI_SHA1
    assert hash_file(ENWIKI_SOURCE, "md5") == ENWIKI_MD5
    empty = tmp_path / "empty"
    empty.write_bytes(b"")
    assert hash_file(empty, "sha256") == hashlib.sha256(b"").hexdigest()


def test_malformed_checksum_lines_name_file_and_line() -> None:
    lines = [f"{ENWIKI_MD5}  a.bz2", "", "not a checksum line"]
    with pytest.raises(InputError, match=r"enwiki-20240101-md5sums.txt line 3: 'not a checksum"):
        parse_checksums(lines, "enwiki-20240101-md5sums.txt")
    with pytest.raises(InputError, match="line 1: a sha1 digest in a md5 checksum file"):
        parse_checksums([f"{ENWIKI_SHA1}  a.bz2"], "https://x/enwiki-20240101-md5sums.txt")
    with pytest.raises(InputError, match="line 1: "):
        parse_checksums([f"{ENWIKI_MD5[:-1]}  a.bz2"], "sums.txt")  # 31 hex digits
    assert algorithm_for_name("SHA256SUMS") == "sha256" and algorithm_for_name("sums.txt") is None


_HEX = "0123456789abcdefABCDEF"
_NAME_CHARS = st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp"), blacklist_characters="/")
lines = st.tuples(
    st.sampled_from([32, 40, 64]).flatmap(lambda n: st.text(_HEX, min_size=n, max_size=n)),
    st.text(_NAME_CHARS, min_size=1, max_size=40).filter(
        lambda name: not name[0].isspace() and name[0] != "*"
    ),
    st.sampled_from(["  ", " ", " *"]),  # text mode, one space, binary mode
    st.sampled_from(["\n", "\r\n"]),
)


@given(st.lists(lines, max_size=20), st.booleans())
def test_checksum_lines_round_trip(generated, blank_lines) -> None:
    text = "".join(f"{digest}{sep}{name}{end}" for digest, name, sep, end in generated)
    if blank_lines:
        text = "\n" + text + "\n\n"
    parsed = parse_checksums(text.splitlines(keepends=True), "checksums.txt")
    lengths = {32: "md5", 40: "sha1", 64: "sha256"}
    assert parsed == [
        ChecksumEntry(digest.lower(), name, lengths[len(digest)])
        for digest, name, _, _ in generated
    ]
    for _, name, _, _ in generated:
        assert find_entry(parsed, name) == next(e for e in parsed if e.name == name)
