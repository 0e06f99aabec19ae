"""What routes take besides their own parameters (``Annotated`` dependencies): the graph,
the facts pages, the jobs, the gap policy and the label language; and the parameter types
the routes share. The dependencies are ``async``: none blocks, and FastAPI would run a plain
function in a worker thread, a thread hop per dependency per request."""

from __future__ import annotations

from typing import Annotated, Literal, get_args

from fastapi import Depends, Path, Query, Request
from pydantic import StringConstraints

from kgdiff.query.curves import StalenessCurves
from kgdiff.query.fact_pages import FactPages
from kgdiff.query.graph import KnowledgeGraph
from kgdiff.query.jobs import Jobs
from kgdiff.temporal.dates import DEFAULT_MAX_GAP, GapPolicy
from kgdiff.temporal.levels import LEVELS

ID_PATTERN = r"^[QPLqpl][1-9][0-9]{0,11}$"
PID_PATTERN = r"^[Pp][1-9][0-9]{0,11}$"
LANG_PATTERN = r"^[a-z]{2,3}(-[a-z0-9]{1,8})*$"


async def _graph(request: Request) -> KnowledgeGraph:
    graph: KnowledgeGraph = request.app.state.graph
    return graph


async def _facts(request: Request) -> FactPages:
    facts: FactPages = request.app.state.facts
    return facts


async def _curves(request: Request) -> StalenessCurves:
    curves: StalenessCurves = request.app.state.curves
    return curves


async def _jobs(request: Request) -> Jobs:
    jobs: Jobs = request.app.state.jobs
    return jobs


async def _gap(
    allow_gap: Annotated[
        bool, Query(description="Answer dates beyond the data anyway (the answer says the gap).")
    ] = False,
    max_gap: Annotated[
        int, Query(ge=0, le=36500, description="Days a date may lie after the latest snapshot.")
    ] = DEFAULT_MAX_GAP,
) -> GapPolicy:
    return GapPolicy(max_gap, allow_gap)


Graph = Annotated[KnowledgeGraph, Depends(_graph)]
Facts = Annotated[FactPages, Depends(_facts)]
Curves = Annotated[StalenessCurves, Depends(_curves)]
JobsDep = Annotated[Jobs, Depends(_jobs)]
Gap = Annotated[GapPolicy, Depends(_gap)]
Lang = Annotated[
    str, Query(pattern=LANG_PATTERN, max_length=20, description="Language of the labels.")
]
Qid = Annotated[str, Path(pattern=ID_PATTERN, description="An entity id such as Q42.")]
Subject = Annotated[str, Query(pattern=ID_PATTERN, description="An entity id such as Q42.")]
Pid = Annotated[str | None, Query(pattern=PID_PATTERN, description="A property id such as P39.")]
Mode = Annotated[Literal["record", "valid"], Query(description="record or valid time.")]
ClassifyMode = Annotated[
    Literal["record", "valid", "both"],
    Query(description="record or valid time, or both (each view's level, and backfilled)."),
]
IdItem = Annotated[str, StringConstraints(pattern=ID_PATTERN)]
PidItem = Annotated[str, StringConstraints(pattern=PID_PATTERN)]
Level = Literal[
    "stable", "evolved", "uncharted", "recent", "retracted", "ambiguous", "not_covered"
]  # fmt: skip
assert get_args(Level) == LEVELS, "the levels changed: update Level"
