"""``docker-compose.yml`` and the ``Dockerfile``: the compose file is valid (checked by
Debian's ``docker-compose``, which needs no engine), and the exact command its ``api`` service
runs, with its environment, serves the demo store and passes its own healthcheck."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from tests.paths import ROOT
from tests.rest_server import copy_store, free_port

COMPOSE = shutil.which("docker-compose")


def compose_config(port: int) -> dict[str, Any]:
    """The compose file as docker-compose reads it (validated, interpolated for ``port``)."""
    if COMPOSE is None:
        pytest.fail("docker-compose is missing: scripts/system-packages test installs it")
    done = subprocess.run(
        [COMPOSE, "config"], cwd=ROOT, capture_output=True, text=True, check=False,
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "KGDIFF_PORT": str(port)},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    config: dict[str, Any] = yaml.safe_load(done.stdout)
    return config


def test_the_compose_file_is_valid_and_complete() -> None:
    config = compose_config(8000)
    services = config["services"]
    assert set(services) == {"api", "demo", "ingest"}
    api = services["api"]
    assert api["build"]["context"] == str(ROOT) and api["image"] == "kgdiff:latest"
    assert (
        api["command"][:2] == ["kgdiff", "serve"] and api["environment"]["KGDIFF_STORE"] == "/data"
    )
    assert any(v.startswith("kgdiff-data:/data") for v in api["volumes"])
    assert "/health" in " ".join(api["healthcheck"]["test"])
    for one_shot, first in (("demo", ["kgdiff", "demo"]), ("ingest", ["kgdiff", "ingest"])):
        assert services[one_shot]["profiles"] == [one_shot]
        assert services[one_shot]["command"][: len(first)] == first
        assert services[one_shot]["environment"]["KGDIFF_STORE"] == "/data"
    assert "kgdiff-data" in config["volumes"]


def test_the_dockerfile_builds_the_native_row_builder_and_serves_by_default() -> None:
    text = (ROOT / "Dockerfile").read_text()
    assert "libsimdjson-dev" in text and "import kgdiff._native" in text
    assert 'CMD ["kgdiff", "serve", "--host", "0.0.0.0", "--port", "8000"]' in text
    assert compose_config(8000)["services"]["api"]["command"] == [
        "kgdiff", "serve", "--host", "0.0.0.0", "--port", "8000",
    ]  # fmt: skip


def test_the_api_services_command_serves_the_demo_store(demo_store: Path, tmp_path: Path) -> None:
    """The store stands in for the volume at /data; everything else is the compose file's."""
    port = free_port()
    api = compose_config(port)["services"]["api"]
    environment = {k: str(v) for k, v in api["environment"].items()}
    environment |= {"KGDIFF_STORE": str(copy_store(demo_store, tmp_path))}
    environment |= {"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin", "HOME": str(tmp_path)}
    server = subprocess.Popen(api["command"], env=environment, cwd=tmp_path)
    try:
        health = wait_for_health(port)
        assert health == {
            "status": "ok",
            "snapshots": 3,
            "version": health["version"],
            "problems": [],
        }
        listed = httpx.get(f"http://127.0.0.1:{port}/v1/snapshots", trust_env=False).json()
        assert [s["name"] for s in listed["snapshots"]] == [
            "wd-2013-12",
            "wd-2014-10",
            "wd-2014-12",
        ]
        check = api["healthcheck"]["test"]
        assert check[0] == "CMD"
        probe = subprocess.run(check[1:], env=environment, check=False, timeout=30)
        assert probe.returncode == 0
    finally:
        server.terminate()
        server.wait(15)


def wait_for_health(port: int) -> dict[str, Any]:
    """``/health``'s answer once the server is up (a minute at most)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            response = httpx.get(f"http://127.0.0.1:{port}/health", trust_env=False, timeout=2)
            if response.status_code == 200:
                answer: dict[str, Any] = response.json()
                return answer
        except httpx.TransportError:
            pass
        time.sleep(0.3)
    raise AssertionError("the api service's command did not answer /health within 60 s")
