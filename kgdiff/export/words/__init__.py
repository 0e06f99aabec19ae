"""The words of the values a benchmark names: labels, aliases that are names, classes and kinds
of entities and other values, read once per export and streamed in chunks
(:mod:`~kgdiff.export.words.names`, :mod:`~kgdiff.export.words.name_stream`), as frames for
records built column by column (:mod:`~kgdiff.export.words.word_frames`), their normalised forms,
and which texts a model could say (:mod:`~kgdiff.export.words.answer_hygiene`).

May import ``relations`` (the English of names: :mod:`kgdiff.export.relations.phrasing`) and
``scoring`` (the normalisation answers are compared by); never a config.
"""
