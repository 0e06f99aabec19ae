"""A real MediaWiki (Debian's package) on loopback, built in a temporary directory.

Nothing outside that directory is written: ``install.php`` creates a SQLite wiki and its
LocalSettings.php there, a settings file of ours moves the caches, logs and uploads there too,
and every maintenance script and the ``php -S`` web server find that configuration through
the ``MW_CONFIG_FILE`` environment variable.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

MEDIAWIKI = Path("/usr/share/mediawiki")
ADMIN_USER = "Admin"
ADMIN_PASSWORD = "kgdiff-test-admin-password"
_EXTRA_SETTINGS = "KgdiffTestSettings.php"
_LOG_GROUPS = ("exception", "error", "fatal")


class MediaWikiSetupError(RuntimeError):
    """A step of the wiki's setup failed (the message carries the command's output)."""


@dataclass
class MediaWiki:
    """A running test wiki: where it answers, what it holds, and how to run its scripts."""

    root: Path
    port: int
    titles: tuple[str, ...] = ()
    setup_seconds: float = 0.0
    process: subprocess.Popen[bytes] | None = field(default=None, repr=False)

    @property
    def host(self) -> str:
        """``127.0.0.1:PORT``, as mwclient's ``Site(host, ...)`` wants it."""
        return f"127.0.0.1:{self.port}"

    @property
    def path(self) -> str:
        """The script path (api.php lives at the web root)."""
        return "/"

    @property
    def api_url(self) -> str:
        """The full URL of api.php."""
        return f"http://{self.host}{self.path}api.php"

    @property
    def settings(self) -> Path:
        """The LocalSettings.php every script of this wiki reads."""
        return self.root / "conf" / "LocalSettings.php"

    def maintenance(self, script: str, *args: str, timeout: float = 300) -> str:
        """Run ``maintenance/SCRIPT.php ARGS`` against this wiki and return its output."""
        command = ["php", str(MEDIAWIKI / "maintenance" / f"{script}.php"), *args]
        return _run(command, self.settings, timeout)

    def stop(self) -> None:
        """Stop the web server (its whole process group)."""
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)


def _run(command: list[str], settings: Path, timeout: float) -> str:
    env = {**os.environ, "MW_CONFIG_FILE": str(settings)}
    done = subprocess.run(
        command, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    if done.returncode != 0:
        tail = (done.stdout + done.stderr)[-2000:]
        raise MediaWikiSetupError(f"{' '.join(command)} failed ({done.returncode}): {tail}")
    return done.stdout


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nobody listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def install(wiki: MediaWiki) -> None:
    """Create the SQLite wiki and its settings under ``wiki.root``."""
    for folder in ("db", "conf", "cache", "images", "logs", "tmp"):
        (wiki.root / folder).mkdir(parents=True, exist_ok=True)
    command = [
        "php", str(MEDIAWIKI / "maintenance" / "install.php"),
        "--dbtype", "sqlite", "--dbpath", str(wiki.root / "db"), "--dbname", "kgdifftest",
        "--confpath", str(wiki.root / "conf"), "--server", f"http://{wiki.host}",
        "--scriptpath", "", "--lang", "en", "--pass", ADMIN_PASSWORD,
        "Kgdiff Test Wiki", ADMIN_USER,
    ]  # fmt: skip
    _run(command, wiki.settings, timeout=300)
    write_extra_settings(wiki)
    with wiki.settings.open("a", encoding="utf-8") as out:
        out.write(f'\nrequire_once __DIR__ . "/{_EXTRA_SETTINGS}";\n')


def write_extra_settings(wiki: MediaWiki) -> None:
    """Our overrides: server URL, every writable path inside the root, no rate limits."""
    root = wiki.root
    lines = [
        "<?php",
        f"$wgServer = {_php(f'http://{wiki.host}')};",
        f"$wgCacheDirectory = {_php(root / 'cache')};",
        f"$wgUploadDirectory = {_php(root / 'images')};",
        f"$wgTmpDirectory = {_php(root / 'tmp')};",
        f"$wgDBerrorLog = {_php(root / 'logs' / 'dberror.log')};",
        *(f'$wgDebugLogGroups["{g}"] = {_php(root / "logs" / f"{g}.log")};' for g in _LOG_GROUPS),
        # a throwaway wiki: no fsync per commit (imports run 5x faster on a real disk)
        '$wgDBservers = [["host" => "", "user" => "", "password" => "", "type" => "sqlite",',
        '    "dbname" => $wgDBname, "load" => 1, "variables" => ["synchronous" => "OFF"]]];',
        '$wgMetaNamespace = "Wikipedia";',  # imported enwiki pages keep their "Wikipedia:" titles
        "$wgRateLimits = [];",
        "$wgJobRunRate = 0;",
        "$wgEnableUploads = false;",
        "$wgEnableEmail = false;",
        "$wgShowExceptionDetails = true;",
        # the test setup hides revisions again that the imported dump had suppressed
        '$wgGroupPermissions["sysop"]["deleterevision"] = true;',
    ]
    (root / "conf" / _EXTRA_SETTINGS).write_text("\n".join(lines) + "\n", encoding="utf-8")


def _php(value: object) -> str:
    """A PHP single-quoted string literal (nothing in it is interpolated)."""
    text = str(value).replace("\\", "\\\\").replace("'", "\\'")
    return f"'{text}'"


def import_dump(wiki: MediaWiki, dump: Path, *, updates: bool = True) -> None:
    """Import an XML export (``--no-updates`` skips link tables: much faster)."""
    wiki.maintenance("importDump", *([] if updates else ["--no-updates"]), str(dump))


def serve(wiki: MediaWiki, attempts: int = 5) -> None:
    """Start ``php -S`` in its own process group and wait until api.php answers; a port
    taken in the meantime by someone else means another port."""
    for _ in range(attempts):
        log = (wiki.root / "logs" / "php-server.log").open("ab")
        env = {**os.environ, "MW_CONFIG_FILE": str(wiki.settings)}
        wiki.process = subprocess.Popen(
            ["php", "-S", wiki.host, "-t", str(MEDIAWIKI)],
            env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        log.close()
        if _wait_ready(wiki, timeout=30):
            return
        wiki.stop()
        wiki.port = free_port()
        write_extra_settings(wiki)
    raise MediaWikiSetupError(f"php -S never answered; see {wiki.root / 'logs'}")


def _wait_ready(wiki: MediaWiki, timeout: float) -> bool:
    url = f"{wiki.api_url}?action=query&meta=siteinfo&format=json"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if wiki.process is not None and wiki.process.poll() is not None:
            return False
        try:
            with urllib.request.urlopen(url, timeout=5) as answer:
                if "general" in json.load(answer).get("query", {}):
                    return True
        except (OSError, ValueError):
            pass
        time.sleep(0.1)
    return False
