"""Snapshots as RDF in Wikidata's own mapping (the "RDF Dump Format"): entities, terms,
sitelinks, statements with their value nodes, ranks and qualifiers, and the truthy ``wdt:``
triples, written entity by entity; N-Triples and N-Quads line by line from the store's
tables read a subject range at a time (:mod:`kgdiff.export.rdf.writer`); Turtle and TriG, for
a few entities, through rdflib; a classification in kgdiff's own vocabulary beside them
(:mod:`kgdiff.export.rdf.classification`).
"""
