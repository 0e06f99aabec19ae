"""A snapshot as RDF in Wikidata's own mapping (the "RDF Dump Format"): entities, terms,
sitelinks, statements with their value nodes, ranks and qualifiers, and the truthy ``wdt:``
triples. N-Triples are written line by line from the store's tables read in chunks
(:mod:`kgdiff.export.rdf.writer`); Turtle, for a few entities, goes through rdflib.
"""
