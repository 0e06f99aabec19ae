"""The ``qa`` config's records built column by column (the rules of
:func:`kgdiff.export.qa_records.qa_item`, for a batch of groups at once): the subject's label,
the answers' words, the options and the true/false statement, the relation's templates, the
evidence sentence and the popularity are joins and expressions over the batch."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

import polars as pl

from kgdiff.export.answer_frames import answer_columns
from kgdiff.export.contexts import Context
from kgdiff.export.noise_frames import NoiseTiers
from kgdiff.export.option_frames import choice_columns, mc_question
from kgdiff.export.relation_model import RelationCatalogue
from kgdiff.export.seeded import record_digests
from kgdiff.export.template_frames import rendered

CONTEXT_SCHEMA = pl.Schema(
    {
        "subject": pl.String(),
        "pid": pl.String(),
        "context": pl.String(),
        "context_page": pl.String(),
        "context_revision": pl.Int64(),
        "context_sentence": pl.Int64(),
    }
)


@dataclass(frozen=True)
class FrameSetting:
    """What every record of an export shares, as frames: the values' words
    (:func:`kgdiff.export.word_frames.value_words`), the subjects' labels, the distractors'
    tiers, the relations, the evidence sentences and the popularity."""

    dates: Mapping[str, str]
    seed: int
    options: int
    catalogue: RelationCatalogue
    words: pl.DataFrame
    labels: pl.DataFrame
    tiers: NoiseTiers
    contexts: pl.DataFrame
    popularity: pl.DataFrame

    def relations(self) -> pl.DataFrame:
        """``pid``, its ``relation`` label, object ``kind`` and ``object_class``."""
        found = list(self.catalogue)
        return pl.DataFrame(
            {
                "pid": [relation.pid for relation in found],
                "relation": [relation.label for relation in found],
                "kind": [relation.object_type.value for relation in found],
                "object_class": [relation.object_class for relation in found],
            },
            schema={name: pl.String() for name in ("pid", "relation", "kind", "object_class")},
        )


def context_frame(contexts: Mapping[tuple[str, str], Context]) -> pl.DataFrame:
    """The evidence sentences of (subject, pid) groups as a frame."""
    rows = [
        (subject, pid, found.sentence, found.page, found.revision, found.index)
        for (subject, pid), found in contexts.items()
    ]
    return pl.DataFrame(rows, schema=CONTEXT_SCHEMA, orient="row")


def popularity_frame(popularity: Mapping[str, float]) -> pl.DataFrame:
    """Subjects' popularity as a frame."""
    return pl.DataFrame(
        {"subject": list(popularity), "popularity": list(popularity.values())},
        schema={"subject": pl.String(), "popularity": pl.Float64()},
    )


def _counted(tally: Counter[str], reason: str, before: int, after: pl.DataFrame) -> None:
    if before > after.height:
        tally[reason] += before - after.height


def _answered(rows: pl.DataFrame, setting: FrameSetting, tally: Counter[str]) -> pl.DataFrame:
    """The rows whose subject is labelled and whose latest objects have words, with their
    answers' words, relation and the correct value's classes."""
    labelled = rows.join(setting.labels.drop_nulls("subject_label"), on="subject", how="inner",
                         maintain_order="left")  # fmt: skip
    _counted(tally, "unlabelled_subject", rows.height, labelled)
    answered = answer_columns(labelled, setting.words).filter(pl.col("correct").is_not_null())
    _counted(tally, "no_answer_text", labelled.height, answered)
    classes = setting.words.select(pl.col("value").alias("correct_value"), "classes")
    answered = answered.join(setting.relations(), on="pid", maintain_order="left")
    answered = answered.join(classes, on="correct_value", how="left", maintain_order="left")
    none = pl.lit([], pl.List(pl.String()))
    own_class = pl.concat_list(pl.col("object_class")).list.drop_nulls()
    preferred = pl.concat_list(pl.col("classes").fill_null(none), own_class)
    ids = answered.get_column("_id")
    return answered.with_columns(
        preferred.alias("classes"),
        record_digests(None, ids, "noise").alias("noise_digest"),
        record_digests(setting.seed, ids, "options").alias("options_digest"),
    )


def qa_frame(rows: pl.DataFrame, setting: FrameSetting, tally: Counter[str]) -> pl.DataFrame:
    """The records of classified groups (``_id`` and ``subject``, ``pid``, ``level``,
    ``change_kind``, ``latest``, ``outdated``, ``all_answers``), in their order, with
    ``_other``; why a group has none is counted in ``tally``."""
    answered = _answered(rows, setting, tally)
    built, too_few = choice_columns(answered, setting.tiers, setting.options)
    if too_few:
        tally["too_few_options"] += too_few
    subject, correct, wrong = pl.col("subject_label"), pl.col("correct"), pl.col("wrong")
    built = rendered(built, setting.catalogue, {
        "question": ("question", {"subject": subject}),
        "cloze": ("cloze", {"subject": subject}),
        "_true": ("statement", {"subject": subject, "object": correct}),
        "_false": ("statement", {"subject": subject, "object": wrong}),
    })  # fmt: skip
    built = built.join(setting.contexts, on=["subject", "pid"], how="left", maintain_order="left")
    built = built.join(setting.popularity, on="subject", how="left", maintain_order="left")
    truth = pl.col("truth")
    return built.with_columns(
        pl.col("_id").alias("id"),
        pl.when(pl.col("level") == "evolved").then(pl.col("change_kind")).alias("change_kind"),
        mc_question(pl.col("question")).alias("mc_question"),
        pl.when(truth).then(pl.col("_true")).otherwise(pl.col("_false")).alias("tf_statement"),
        truth.alias("tf_label"),
        pl.when(truth).then(pl.col("_false")).otherwise(pl.col("_true")).alias("_other"),
        *[pl.lit(value).alias(name) for name, value in setting.dates.items()],
    )
