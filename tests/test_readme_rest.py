"""The README's curl lines (between ``<!-- rest-examples -->`` marks), sent to a live
``kgdiff serve --enable-sql`` on the demo's store: each is answered as its comment says
(200 unless a ``# NNN`` comment names another status), with a body."""

from __future__ import annotations

import json
import re
import shlex
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

from tests.paths import ROOT
from tests.rest_server import copy_store, serving

README = (ROOT / "README.md").read_text(encoding="utf-8")
BLOCK = re.compile(r"<!-- rest-examples -->\s*```sh\n(.*?)```", re.S)


@dataclass
class CurlLine:
    """One curl command of the README, as a request."""

    method: str
    path: str
    headers: dict[str, str] = field(default_factory=dict)
    body: object = None
    status: int = 200


def curl_lines(text: str) -> list[CurlLine]:
    """The curl commands of the README's REST block (continued lines joined)."""
    match = BLOCK.search(text)
    assert match, "the README has no <!-- rest-examples --> block"
    joined = match.group(1).replace("\\\n", " ")
    return [parse(line) for line in joined.splitlines() if line.strip().startswith("curl")]


def parse(line: str) -> CurlLine:
    """A curl line (``-s``, ``-X``, ``-H``, ``-d``, a URL on localhost:8000, a comment)."""
    command, _, comment = line.partition("#")
    words = shlex.split(command)[1:]
    request = CurlLine("GET", "")
    status = re.match(r"\s*(\d{3})\b", comment)
    request.status = int(status.group(1)) if status else 200
    while words:
        word = words.pop(0)
        if word == "-X":
            request.method = words.pop(0)
        elif word == "-H":
            name, _, value = words.pop(0).partition(":")
            request.headers[name.strip()] = value.strip()
        elif word == "-d":
            request.body = json.loads(words.pop(0))
        elif not word.startswith("-"):
            request.path = word.split("localhost:8000", 1)[1]
    return request


@pytest.fixture(scope="module")
def api(demo_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    store = copy_store(demo_store, tmp_path_factory.mktemp("readme-rest"))
    with serving(store, "--enable-sql") as client:
        yield client


def test_the_readme_has_the_routes_examples() -> None:
    paths = {line.path.split("?")[0] for line in curl_lines(README)}
    assert {"/health", "/v1/snapshots", "/v1/facts", "/v1/sql"} <= paths
    assert len(paths) >= 10


@pytest.mark.parametrize("request_", curl_lines(README), ids=lambda r: f"{r.method} {r.path}")
def test_each_curl_line_answers_as_the_readme_says(api: httpx.Client, request_: CurlLine) -> None:
    response = api.request(
        request_.method, request_.path, headers=request_.headers, json=request_.body
    )
    while response.status_code == 202:  # a classification being made: its job, then again
        api.get(response.headers["location"])
        time.sleep(0.5)
        response = api.request(
            request_.method, request_.path, headers=request_.headers, json=request_.body
        )
    assert response.status_code == request_.status, response.text
    assert response.content
