"""One rule for a question's dates on every face (issue 39, items 2 and 3): init and current
default to the first and the latest snapshot's dates in ``kgdiff classify`` and ``audit`` as
in ``export benchmark``, the REST service and the Python API; and every command, route and
method refuses a date with one message: what is wrong with the date the user gave (a
default named as one), the store's snapshots, what to do."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import kgdiff
from api.problems import as_query_params
from kgdiff.errors import BeyondDataError, UsageError
from kgdiff.temporal.dates import GapPolicy
from tests.paths import run_kgdiff
from tests.rest_server import serving

CUTOFF = "2014-10-11"
LATE = "2016-01-01"
VIEW = "classified_20131221_20141011_20141231_record"
LISTING = "Snapshots: wd-2013-12 (2013-12-21), wd-2014-10 (2014-10-11), wd-2014-12 (2014-12-31)."
BEYOND = (
    f"cutoff {LATE} is 366 days after the latest snapshot, wd-2014-12 (2014-12-31), more than"
    f" the 31 days allowed. {LISTING} Choose dates the snapshots answer, or pass --allow-gap to"
    " answer anyway (the output carries the gap) or --max-gap DAYS"
)
"""How every face refuses the cutoff 2016-01-01 on the sample store."""
ORDER = (
    f"cutoff {LATE} is not before current 2014-12-31 (the latest snapshot's date, by default)."
    f" {LISTING} Choose dates in the order {{roles}}: --cutoff before 2014-12-31, or --current"
    f" after {LATE}"
)
"""How every face refuses the same cutoff when the gap is allowed: the default current
(the latest snapshot's date) comes before it."""
WINDOW = "init < cutoff < current"
COMMANDS = {
    "classify": (["classify"], WINDOW),
    "audit": (["audit"], WINDOW),
    "export benchmark": (["export", "benchmark", "--out", "{tmp}/bench"], WINDOW),
    "spark classify": (["spark", "classify"], WINDOW),
    "updates": (["updates"], "cutoff < current"),
    "revisions": (["revisions"], "cutoff < current"),
}


@pytest.fixture(scope="module")
def store(sample_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the sample store (the classifications made here are its own)."""
    copy = tmp_path_factory.mktemp("date-window") / "store"
    shutil.copytree(sample_store, copy)
    return copy


def _run(name: str, tmp_path: Path, store: Path, *extra: str) -> tuple[str, int]:
    words, _ = COMMANDS[name]
    args = [word.replace("{tmp}", str(tmp_path)) for word in words]
    done = run_kgdiff(*args, "--cutoff", LATE, *extra, "--store", str(store))
    assert len(done.stderr.splitlines()) == 1, done.stderr
    return done.stderr.strip().removeprefix("error: "), done.returncode


def test_classify_and_audit_take_the_first_and_the_latest_snapshot_by_default(
    store: Path,
) -> None:
    classified = run_kgdiff("classify", "--cutoff", CUTOFF, "--store", str(store))
    assert classified.returncode == 0, classified.stderr
    assert VIEW in classified.stdout
    assert "init 2013-12-21: record time reads wd-2013-12" in classified.stdout
    assert "current 2014-12-31: record time reads wd-2014-12" in classified.stdout
    audited = run_kgdiff("audit", "--cutoff", CUTOFF, "--store", str(store))
    assert audited.returncode == 0, audited.stderr
    assert "init 2013-12-21: record time reads wd-2013-12" in audited.stdout
    # the same build as the Python API's defaults, and as the dates given in full
    kg = kgdiff.open(store)
    assert kg.answers.classification(CUTOFF).params.view_name == VIEW
    given = ["--init", "2013-12-21", "--current", "2014-12-31"]
    again = run_kgdiff("classify", "--cutoff", CUTOFF, *given, "--store", str(store))
    assert again.returncode == 0 and f"reused {store}" in again.stdout


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_refuses_a_date_beyond_the_data_alike(
    store: Path, tmp_path: Path, name: str
) -> None:
    message, code = _run(name, tmp_path, store)
    assert code == 2 and message == BEYOND
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_refuses_dates_out_of_order_alike(
    store: Path, tmp_path: Path, name: str
) -> None:
    """Past the data by choice, the cutoff comes after the default current: the message
    says the current was a default, never "(got …)" dates the user did not give."""
    message, code = _run(name, tmp_path, store, "--allow-gap")
    assert code == 2 and message == ORDER.format(roles=COMMANDS[name][1])
    assert list(tmp_path.iterdir()) == []


def test_an_order_between_given_dates_names_them(store: Path) -> None:
    dates = ["--init", "2014-11-01", "--cutoff", CUTOFF]
    done = run_kgdiff("classify", *dates, "--store", str(store))
    assert done.returncode == 2
    assert done.stderr.strip() == (
        f"error: init 2014-11-01 is not before cutoff {CUTOFF}. {LISTING} Choose dates in the"
        f" order {WINDOW}: --init before {CUTOFF}, or --cutoff after 2014-11-01"
    )


def test_the_python_api_refuses_as_the_command_line(store: Path) -> None:
    kg = kgdiff.open(store)
    with pytest.raises(BeyondDataError) as beyond:
        kg.classify(LATE)
    assert str(beyond.value) == BEYOND
    with pytest.raises(BeyondDataError) as updates:
        kg.updates(LATE)
    assert str(updates.value) == BEYOND
    with pytest.raises(UsageError) as order:
        kg.answers.classification(LATE, gap=GapPolicy(allow=True))
    assert str(order.value) == ORDER.format(roles=WINDOW)


def test_the_rest_service_refuses_as_the_command_line(store: Path) -> None:
    with serving(store) as api:
        beyond = api.get(f"/v1/facts?cutoff={LATE}")
        order = api.get(f"/v1/facts?cutoff={LATE}&allow_gap=true")
    assert beyond.status_code == order.status_code == 422
    # the same words, the options named as the query's parameters
    assert beyond.json()["detail"] == as_query_params(BEYOND)
    assert order.json()["detail"] == as_query_params(ORDER.format(roles=WINDOW))
