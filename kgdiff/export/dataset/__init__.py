"""The Hugging Face dataset folder an export writes: each config's columns
(:mod:`~kgdiff.export.dataset.schema`), its splits' frames (small splits from items:
:mod:`~kgdiff.export.dataset.splits`; large ones a batch at a time:
:mod:`~kgdiff.export.dataset.frame_chunks`), the card and ``kgdiff_build.json``
(:mod:`~kgdiff.export.dataset.card`), the folder written atomically
(:mod:`~kgdiff.export.dataset.writer`) and read back (:mod:`~kgdiff.export.dataset.folder`).

May import ``records`` and the packages below it (``rules``, ``distractors``, ``words``,
``core``, ``relations``, ``scoring``); never a config, nor ``tasks`` (the export adds the task
files through the writer's ``finish``).
"""
