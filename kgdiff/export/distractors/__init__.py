"""Distractors of the gold's kind (docs/benchmark-export.md#option-kind-agreement), drawn for a
whole frame of records at once from tiers of candidates
(:mod:`~kgdiff.export.distractors.noise_frames`, in the order of
:mod:`~kgdiff.export.distractors.noise_plan`, each tier bounded:
:mod:`~kgdiff.export.distractors.tier_caps`): people of the gold's role and sex, alive in the
year asked (``human_*``, ``lifespans``), members of small classes, never a value the subject
holds (``subject_truths``, ``store_facts``).

May import ``core`` and ``relations``; never a config.
"""
