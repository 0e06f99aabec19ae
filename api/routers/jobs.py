"""``GET /v1/jobs/{id}``: how a background classification stands."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path
from fastapi.responses import JSONResponse

from api.deps import Graph, JobsDep
from api.models.facts import Job
from api.problems import problem, responses
from api.public_text import public_text

router = APIRouter(tags=["facts"])


@router.get("/v1/jobs/{job_id}", response_model=Job, responses=responses(404, 422))
def job(
    jobs: JobsDep,
    graph: Graph,
    job_id: Annotated[str, Path(pattern=r"^[0-9a-f]{20}$", description="Job id")],
) -> Any:
    """A job's status; once done, ``result`` is where its answer is read."""
    state = jobs.state(job_id)
    if state is None:
        return problem(404, "unknown-job", "Unknown job", f"no job {job_id} in this service")
    error = public_text(state.error, graph.layout.root) if state.error is not None else None
    body = Job(
        id=state.id,
        status=state.status,
        result=state.result,
        error_kind=state.error_kind,
        error=error,
    )
    return JSONResponse(body.model_dump(), headers={"Cache-Control": "no-store"})
