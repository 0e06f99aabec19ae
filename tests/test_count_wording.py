"""A count reads as people write it and is asked in the year of its figure
(docs/benchmark-export.md#counts-and-their-year), on the export of the real samples: every
population, number of employees or revenue of 1,000 or more is written with thousands
separators (the dump's plain form still among the answers), and a record whose gold figures
all carry a point in time (P585) of one year asks in that year, the years read here from the
store's qualifier values themselves."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import kgdiff
from kgdiff.portable.answer_text import normalise
from kgdiff.portable.number_match import amounts, counted
from kgdiff.valuetext import amount_texts
from tests.benchmark_exports import SAMPLES_WINDOW, all_records, export

CURRENT_SNAPSHOT = "wd-2014-10"
"""The snapshot the window's current date (2014-10-11) reads its gold values from."""
_YEAR_KEY = re.compile(r"([+-]\d+)-\d\d-\d\dT[^|]*\|(\d+)\|.*")


@given(st.integers(-(10**15), 10**15), st.sampled_from(["", ".5", ".0625"]))
def test_an_amount_is_grouped_by_thousands_and_kept_as_the_dump_writes_it(
    whole: int, fraction: str
) -> None:
    dumped = f"{'+' if whole >= 0 else ''}{whole}{fraction}"
    texts = amount_texts(dumped)
    plain = dumped.removeprefix("+")
    assert texts[-1] == plain and texts[0].replace(",", "") == plain
    assert len(texts) == (2 if abs(whole) >= 1000 else 1)
    assert normalise(texts[0]) == normalise(plain)


def test_another_notation_is_kept_as_it_is() -> None:
    assert amount_texts("+1.2E+5") == ["1.2E+5"]


def _figure_years(store: Path, records: list[dict[str, Any]]) -> dict[tuple[str, str], set[int]]:
    """The years of the points in time (P585, at a year or finer) of each record's gold
    figures in the current snapshot, read from the qualifier values."""
    found: dict[tuple[str, str, str], int] = {}
    with kgdiff.open(store).connection() as connection:
        rows = connection.execute(
            "SELECT s.subject, s.pid, s.value, q.value FROM statements AS s "
            "JOIN qualifiers AS q ON q.snapshot = s.snapshot AND q.statement_id = s.statement_id "
            "WHERE s.snapshot = ? AND q.qualifier_pid = 'P585' AND s.rank <> 'deprecated' "
            "AND s.pid IN ('P1082', 'P1128', 'P2139')",
            [CURRENT_SNAPSHOT],
        ).fetchall()
    for subject, pid, value, point in rows:
        parsed = _YEAR_KEY.fullmatch(point or "")
        if parsed is not None and int(parsed.group(2)) >= 9:
            key = (subject, pid, value)
            found[key] = max(found.get(key, int(parsed.group(1))), int(parsed.group(1)))
    years: dict[tuple[str, str], set[int]] = defaultdict(set)
    for record in records:
        for value in record["latest"]:
            year = found.get((record["subject"], record["pid"], value))
            years[record["subject"], record["pid"]].add(year if year is not None else -1)
    return years


def test_counts_are_grouped_and_asked_in_the_year_of_their_figure(
    export_sample_store: Path, tmp_path: Path
) -> None:
    done = export(export_sample_store, tmp_path / "qa", **SAMPLES_WINDOW)
    counts = [r for r in all_records(done.out) if counted(r)]
    years = _figure_years(export_sample_store, counts)
    dated = undated = 0
    for record in counts:
        amount = amounts(record["latest"])[0]
        label = record["answer_labels"][0]
        assert float(label.replace(",", "")) == amount, record["id"]
        if amount >= 1000:
            assert "," in label and label.replace(",", "") in record["answers"], record["id"]
        figure_years = years[record["subject"], record["pid"]]
        if len(figure_years) == 1 and (year := next(iter(figure_years))) > 0:
            dated += 1
            assert record["question"].startswith(f"In {year}, "), record["id"]
            assert record["cloze"].startswith(f"In {year}, "), record["id"]
            assert record["tf_statement"].startswith(f"In {year}, "), record["id"]
        else:
            undated += 1
            assert not record["question"].startswith("In "), record["id"]
    # 2014-10 dates most of its figures (the United Kingdom's 63,705,000 in 2012), not France's
    assert dated >= 20 and undated >= 1
