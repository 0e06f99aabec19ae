"""The relation catalogue (docs/relations.md): per Wikidata property its label, its objects'
type and class, the templates of its questions and what may follow it in a chain; the shipped
catalogue and a user's file over it (:mod:`~kgdiff.export.relations.catalogue`), its model,
fields and templates, the templates rendered for a whole frame
(:mod:`~kgdiff.export.relations.columns`), and the English they are written in: articles, dates
and plural agreement (:mod:`~kgdiff.export.relations.phrasing`,
:mod:`~kgdiff.export.relations.agreement`).

Imports nothing else of :mod:`kgdiff.export`.
"""
