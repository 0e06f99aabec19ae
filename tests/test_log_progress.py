"""Progress on a console that is not a terminal: plain lines, in order, every interval."""

from __future__ import annotations

import io
import re
from pathlib import Path

from rich.console import Console

from kgdiff.cli.log_progress import LogProgress
from kgdiff.cli.progress import RichProgress, progress_for
from tests.paths import SAMPLES, run_kgdiff


class StepClock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _plain_console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, force_terminal=False, width=60), out


def test_a_line_at_the_start_every_interval_and_at_the_end() -> None:
    console, out = _plain_console()
    clock = StepClock()
    progress = LogProgress(console, interval=30, clock=clock)
    progress.begin("parsing dump.json", 4_000_000_000)
    clock.now += 10
    progress.update(500_000_000, 1_000, 20_000)  # within the interval: kept, not printed
    clock.now += 20
    progress.update(1_000_000_000, 2_000, 40_000)
    clock.now += 5
    progress.update(1_100_000_000, 2_100, 41_000)
    clock.now += 35
    progress.phase("sorting and writing tables")
    progress.end()
    lines = out.getvalue().splitlines()
    assert lines == [
        "parsing dump.json: 4,000.0 MB",
        "parsing dump.json:  25.0% (1,000.0 of 4,000.0 MB), 2,000 entities, 40,000"
        " statements, 33.3 MB/s, 0:00:30 elapsed, about 0:01:30 left",
        "parsing dump.json: 100.0% (4,000.0 of 4,000.0 MB), 2,100 entities, 41,000"
        " statements, 57.1 MB/s, 0:01:10 elapsed",
        "sorting and writing tables…",
    ]


def test_an_empty_input_and_a_run_without_a_phase() -> None:
    console, out = _plain_console()
    clock = StepClock()
    progress = LogProgress(console, "pages", "revisions", interval=1, clock=clock)
    progress.begin("parsing empty.xml", 0)
    clock.now += 2
    progress.update(0, 0, 0)
    progress.begin("reading pages.xml", 2_000_000)
    clock.now += 1
    progress.update(500_000, 10, 30)
    progress.end()  # no phase (or a failure): where it got to
    progress.end()
    progress.phase("next")  # after the end, only the step is announced
    assert out.getvalue().splitlines() == [
        "parsing empty.xml: 0.0 MB",
        "parsing empty.xml: 100.0% (0.0 of 0.0 MB), 0 pages, 0 revisions, 0.0 MB/s, 0:00:02"
        " elapsed",
        "reading pages.xml: 2.0 MB",
        "reading pages.xml:  25.0% (0.5 of 2.0 MB), 10 pages, 30 revisions, 0.5 MB/s, 0:00:01"
        " elapsed, about 0:00:03 left",
        "reading pages.xml:  25.0% (0.5 of 2.0 MB), 10 pages, 30 revisions, 0.5 MB/s, 0:00:01"
        " elapsed, about 0:00:03 left",
        "next…",
    ]


def test_a_step_reports_its_share_every_interval_and_at_the_end() -> None:
    console, out = _plain_console()
    clock = StepClock()
    progress = LogProgress(console, interval=30, clock=clock)
    progress.begin("parsing dump.json", 1_000_000)
    progress.update(1_000_000, 5, 50)
    progress.phase("sorting and writing tables")
    clock.now += 10
    progress.advance(100e6, 800e6)  # within the interval: not printed
    clock.now += 30
    progress.advance(200e6, 800e6)
    clock.now += 80
    progress.advance(800e6, 800e6)
    progress.end()
    assert out.getvalue().splitlines()[2:] == [
        "sorting and writing tables…",
        "sorting and writing tables:  25.0% (200.0 of 800.0 MB of rows), 0:00:40 elapsed,"
        " about 0:02:00 left",
        "sorting and writing tables: 100.0% (800.0 of 800.0 MB of rows), 0:02:00 elapsed",
    ]


def test_a_step_with_nothing_to_do() -> None:
    console, out = _plain_console()
    clock = StepClock()
    progress = LogProgress(console, interval=1, clock=clock)
    progress.phase("sorting and writing tables")
    clock.now += 5
    progress.advance(0, 0)  # an input with no rows: estimates of zero bytes
    progress.end()
    assert out.getvalue().splitlines() == [
        "sorting and writing tables…",
        "sorting and writing tables: 100.0% (0.0 of 0.0 MB of rows), 0:00:05 elapsed",
    ]


def test_the_live_bars_of_the_parse_and_of_the_step() -> None:
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=110, color_system=None)
    progress = progress_for(console)
    progress.begin("parsing x.json", 1000)
    progress.update(500, 10, 20)
    progress.phase("sorting and writing tables")
    progress.advance(60, 60)
    progress.end()
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", out.getvalue())
    frames = [frame.strip() for frame in re.split(r"[\r\n]", text) if frame.strip()]
    parse = [frame for frame in frames if frame.startswith("parsing x.json")]
    assert "1.0/1.0 kB" in parse[-1]  # completed by the phase
    assert frames[-1].startswith("sorting and writing tables…") and "100%" in frames[-1]


def test_a_terminal_gets_the_live_bar_and_anything_else_lines() -> None:
    assert isinstance(progress_for(Console(file=io.StringIO(), force_terminal=True)), RichProgress)
    assert isinstance(progress_for(_plain_console()[0]), LogProgress)


def test_an_ingest_through_a_pipe_reports_in_order(tmp_path: Path) -> None:
    source = SAMPLES / "testDump_json_2014-12.json.bz2"
    store = str(tmp_path)
    result = run_kgdiff("ingest", "wikidata", str(source), "--date", "2014-12-01", "--store", store)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith("parsing testDump")]
    assert len(starts) == 2 and "100.0%" in lines[starts[1]]
    assert lines[starts[1] + 1] == "sorting and writing tables…"
    assert lines[starts[1] + 2].startswith("sorting and writing tables: 100.0% (")
    assert any(line.startswith("published snapshot") for line in lines[starts[1] + 3 :])
