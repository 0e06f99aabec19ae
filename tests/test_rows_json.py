"""Answers whose rows polars writes (api/rows_json.py) are the JSON the route's pydantic
model gives for the same rows, on real answers of the samples' store."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from pydantic import BaseModel

import kgdiff
from api.models.common import reads
from api.models.entities import EntityFacts, FactAt, Timeline, TimelineRow
from api.models.facts import FactGroup, FactsPage
from api.rows_json import rows_response
from kgdiff.query.graph import KnowledgeGraph

SUBJECTS = ["Q64", "Q183", "Q84", "Q42", "Q228"]


def _both(
    model: type[BaseModel],
    row_model: type[BaseModel],
    envelope: dict[str, Any],
    frame: pl.DataFrame,
) -> tuple[Any, Any]:
    fast = json.loads(bytes(rows_response(model, row_model, envelope, frame).body))
    rows = frame.select(list(row_model.model_fields)).to_dicts()
    slow = model.model_validate({**envelope, "items": rows}).model_dump(mode="json")
    return fast, slow


@pytest.fixture(scope="module")
def graph(sample_store: Path) -> KnowledgeGraph:
    return kgdiff.open(sample_store)


def test_timelines_and_entity_facts_are_the_models_json(graph) -> None:
    rows = 0
    for qid in SUBJECTS:
        timeline = graph.answers.timeline(qid)
        envelope: dict[str, Any] = {"qid": qid, "notes": timeline.notes}
        fast, slow = _both(Timeline, TimelineRow, envelope, timeline.frame)
        assert fast == slow and len(fast["items"]) == timeline.frame.height
        for day, mode in ((date(2014, 6, 1), "valid"), (date(2014, 12, 31), "record")):
            facts = graph.answers.facts_at(day, mode, qid)
            envelope = {"qid": qid, "date": day, "mode": mode, "notes": facts.notes}
            envelope["reads"] = reads(facts.reads)
            fast, slow = _both(EntityFacts, FactAt, envelope, facts.frame)
            assert fast == slow and len(fast["items"]) == facts.frame.height
            rows += facts.frame.height
    assert rows > 50


def test_a_page_of_groups_is_the_models_json(graph) -> None:
    answer = graph.answers.classify("2014-06-01", "2014-01-01", "2014-12-31", mode="both")
    frame = answer.frame.head(300)
    envelope: dict[str, Any] = {"init": date(2014, 1, 1), "cutoff": date(2014, 6, 1)}
    envelope |= {"current": date(2014, 12, 31), "mode": "both", "lang": "en", "limit": 300}
    envelope |= {"reads": reads(answer.reads), "next_cursor": None}
    fast, slow = _both(FactsPage, FactGroup, envelope, frame)
    assert fast == slow and len(fast["items"]) == 300


def test_an_envelope_holding_the_marker_is_still_right(graph) -> None:
    timeline = graph.answers.timeline("Q64")
    envelope = {"qid": "Q64", "notes": ['"items":[]']}
    fast, slow = _both(Timeline, TimelineRow, envelope, timeline.frame)
    assert fast == slow and fast["notes"] == ['"items":[]']
