"""Questions narrowed the way the REST service asks them: the supporting revisions of one
subject, chains through some properties only."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from kgdiff.errors import UsageError
from kgdiff.ids import normalise_id
from kgdiff.query.answer import Answer, Day, Ids, id_list
from kgdiff.query.answers import Answers
from kgdiff.temporal.chains import Relations, load_relations
from kgdiff.temporal.dates import GapPolicy


def revisions_of(
    answers: Answers,
    subject: str,
    cutoff: Day,
    current: Day | None = None,
    pid: Ids = None,
    wiki: str = "enwiki",
    lang: str = "en",
    gap: GapPolicy | None = None,
) -> Answer:
    """The supporting revisions of ``subject``'s knowledge updates (the store's latest
    history of ``wiki``); a note when it has none."""
    qid = normalise_id(subject, "subject")
    answers.check_ids([qid])
    answer = answers.revisions(cutoff, current, pid, wiki, None, lang, gap)
    frame = answer.frame
    frame = frame.filter(pl.col("subject") == qid) if frame.height else frame
    notes = [] if frame.height else [f"no knowledge update of {qid} in this window"]
    return Answer(frame, answer.reads, [*answer.notes, *notes])


def relations_through(pids: Sequence[str]) -> Relations:
    """The default relation map (the relation catalogue's next hops) kept to hops between
    ``pids``: a chain then goes through these properties only; a usage error when no two of
    them link."""
    chosen = id_list(pids, "relations")
    kept = {
        first: [after for after in following if after in chosen]
        for first, following in load_relations().items()
        if first in chosen
    }
    kept = {first: following for first, following in kept.items() if following}
    if not kept:
        raise UsageError(
            f"relations {','.join(chosen)}: the relation map has no hop from one of them to "
            "another, so no chain goes through them only"
        )
    return kept
