"""Which aliases are accepted answers (docs/benchmark-export.md#answers-and-aliases), on the
real samples: a vandalised alias that lasted two dumps, epithets that are not names of their
entity, demonyms and parts are left out; names in other languages, official names, initials
and full names with their middle names are kept; and what is left out is left out of every
config's answers and outdated answers alike."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest

import kgdiff
from kgdiff.export.benchmark import BenchmarkExport
from kgdiff.export.words.names import Names
from kgdiff.temporal.dates import GapPolicy
from tests.benchmark_exports import export, records

CURRENT = date(2014, 10, 11)
VANDALISED = "Miguel Juan Sebastián Piñera de La mancha Dinero Echenique"


@pytest.fixture(scope="module")
def names(export_demo_store: Path) -> Names:
    """The names the samples' export reads, as of wd-2014-10 (where the vandalised alias of
    Sebastián Piñera (Q306) is, as in wd-2013-12: wd-2014-12 does not hold Q306)."""
    wanted = ["Q306", "Q345", "Q597", "Q30", "Q145", "Q159", "Q38", "Q76", "Q183", "Q192"]
    with kgdiff.open(export_demo_store).connection() as connection:
        return Names.read(connection, wanted, "wd-2014-10", "en")


@pytest.fixture(scope="module")
def exported(export_demo_store: Path, tmp_path_factory: pytest.TempPathFactory) -> BenchmarkExport:
    """The samples' export of the blind read: Chile's head of state Piñera (outdated) then
    Bachelet, and chains through Chile read at the cutoff, when Piñera held the office."""
    out = tmp_path_factory.mktemp("aliases") / "bench"
    dates = {"init": date(2013, 12, 21), "cutoff": date(2013, 12, 25), "current": CURRENT}
    return export(
        export_demo_store, out, configs=("qa", "multi_hop"), gap=GapPolicy(allow=True), **dates
    )


def test_a_vandalised_alias_that_lasted_two_dumps_is_no_name(
    export_demo_store: Path, names: Names
) -> None:
    with kgdiff.open(export_demo_store).connection() as connection:
        held = connection.execute(
            "SELECT list(DISTINCT snapshot ORDER BY snapshot) FROM labels"
            " WHERE qid = 'Q306' AND kind = 'alias' AND lang = 'en' AND value = $v",
            {"v": VANDALISED},
        ).fetchone()
    assert held == (["wd-2013-12", "wd-2014-10"],)  # the one-snapshot rule cannot see it
    assert names.texts("Q306") == ["Sebastián Piñera"]


def test_epithets_demonyms_and_parts_are_no_names(names: Names) -> None:
    mary = names.texts("Q345")
    for epithet in ("Lady", "Majesty", "Mistress", "Most Holy", "Most Pure", "Star of the Sea"):
        assert epithet not in mary, epithet
    assert {"Mary", "Blessed Virgin Mary", "Saint Mary"} <= set(mary)
    lisbon = names.texts("Q597")
    for other in ("Lisboner", "Lisboners", "Parishes of Lisbon", "UN/LOCODE:PTLIS"):
        assert other not in lisbon, other
    assert {"Lisbon", "Lisboa", "Lissabon", "Lisbon, Portugal"} <= set(lisbon)


def test_names_in_other_languages_official_names_initials_and_full_names_are_kept(
    names: Names,
) -> None:
    assert {"USA", "U.S.A.", "US", "United States", "the States"} <= set(names.texts("Q30"))
    assert {"UK", "Britain"} <= set(names.texts("Q145"))
    assert "Russian Federation" in names.texts("Q159")
    assert {"Italia", "Italian Republic"} <= set(names.texts("Q38"))
    assert "Barack Hussein Obama II" in names.texts("Q76")
    assert "David William Donald Cameron" in names.texts("Q192")


def test_the_rules_on_the_words_of_real_names() -> None:
    """The rules alone, on words as sql/export/entity_names.sql splits them."""
    from kgdiff.export.words.alias_names import OtherNames, names_it

    lisbon = OtherNames(
        frozenset({"lisbon", "lisboa", "lissabon", "lisbonne"}),
        ("lisbon",),
        frozenset({"lisbon", "lisboa", "lissabon", "lisbonne"}),
    )
    assert names_it(["lisbon", "portugal"], lisbon)
    assert not names_it(["lisboners"], lisbon)
    assert not names_it(["parishes", "of", "lisbon"], lisbon)
    assert names_it(["lisb"], lisbon)  # an abbreviation
    jesus = OtherNames(frozenset({"jesus", "christ"}), ("jesus", "christ"), frozenset())
    assert names_it(["jesus", "of", "nazareth"], jesus)  # "Jesus" is a label's word
    pinera = OtherNames(
        frozenset({"sebastian", "pinera"}),
        ("sebastian", "pinera"),
        frozenset({"sebastian", "pinera", "miguel", "juan", "echenique"}),
        (("miguel", "juan", "sebastian", "pinera", "echenique"),),
    )
    vandalised = ["miguel", "juan", "sebastian", "pinera", "de", "la", "mancha", "dinero"]
    assert not names_it([*vandalised, "echenique"], pinera)
    assert names_it(["miguel", "juan", "sebastian", "pinera", "echenique"], pinera)
    usa = OtherNames(
        frozenset({"united", "states", "of", "america"}), ("united", "states", "of", "america"),
        frozenset({"united", "states", "of", "america"}),
    )  # fmt: skip
    assert names_it(["u", "s", "a"], usa) and names_it(["usa"], usa)
    assert not names_it(["us"], usa)  # "US" needs the alias "United States" beside it
    assert names_it(["us"], usa, [["united", "states"]])


def test_no_answer_of_any_config_is_an_alias_that_names_nothing(
    exported: BenchmarkExport,
) -> None:
    found: list[dict[str, Any]] = []
    for config, splits in exported.configs.items():
        for split in splits:
            found += records(exported.out, split, config)
    texts = [
        text
        for record in found
        for field in ("answers", "outdated_answers")
        for text in record.get(field) or []
    ]
    assert texts and VANDALISED not in texts
    assert not {"Lady", "Majesty", "Lisboners"} & set(texts)
    chile = [r for r in found if r["id"] == "qa/Q298/P35"]
    assert chile and chile[0]["outdated_answers"] == ["Sebastián Piñera"]
    chains = [r for r in found if r["id"].startswith("multi_hop/") and "Q306" in r["latest"]]
    assert chains and all(r["answers"] == ["Sebastián Piñera"] for r in chains)
