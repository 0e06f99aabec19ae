"""Answer matching that travels with a benchmark folder: standard library only.

kgdiff scores answers with these modules (``kgdiff score``, :mod:`kgdiff.export.scoring`), and
:func:`kgdiff.export.tasks.writer.write_tasks` copies them, unchanged, into the folder's
``tasks/lm_eval/kgdiff_portable/`` and ``tasks/inspect/kgdiff_portable/``, where the task files
load them (docs/benchmark-tasks.md): the lm-eval and Inspect tasks score an answer with the very
code ``kgdiff score`` does, where kgdiff is not installed. So these modules import nothing but
the standard library and each other, by relative imports (the folder loads them as a package of
another name): answer normalisation and the exact and token matches
(:mod:`~kgdiff.portable.answer_text`), dates and durations (:mod:`~kgdiff.portable.date_match`)
read against the gold dates of time value keys (:mod:`~kgdiff.portable.time_keys`, which
:mod:`kgdiff.timevalue` parses with too), counts (:mod:`~kgdiff.portable.number_match`), and
a free-text answer's scores (:mod:`~kgdiff.portable.generation`).
"""
