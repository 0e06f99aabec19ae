"""What the store says of the subjects and the people an export's distractors are drawn
for, read once (:func:`~kgdiff.export.distractors.subject_truths.read_subject_values`): what each
subject holds (no distractor may be), the roles and sex of the people, and the roles typical of each
relation's people."""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from kgdiff.export.distractors.human_roles import person_roles, role_keys, typical_roles
from kgdiff.export.distractors.subject_truths import SubjectTruths, kin_groups
from kgdiff.export.relations.model import RelationCatalogue


@dataclass(frozen=True)
class StoreFacts:
    """The subjects' truths, each person's role keys (``value``, ``keys``:
    :func:`~kgdiff.export.distractors.human_roles.role_keys`) and each relation's typical roles."""

    truths: SubjectTruths
    role_keys: pl.DataFrame
    typical: pl.DataFrame

    @classmethod
    def of(cls, values: pl.DataFrame, catalogue: RelationCatalogue) -> StoreFacts:
        """The facts of ``values`` (``subject``, ``pid``, ``value``: every item a subject
        holds under the catalogue's item relations and the people's roles)."""
        roles = person_roles(values)
        pids = kin_groups(catalogue).get_column("pid").to_list()
        typical = typical_roles(values, roles, pids)
        return cls(SubjectTruths.of(values, catalogue), role_keys(roles), typical)
