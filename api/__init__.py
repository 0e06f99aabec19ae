"""kgdiff's REST service (issue 23): FastAPI routes over the query layer (:mod:`kgdiff.query`).

``kgdiff serve`` runs it with uvicorn (``api.app:create_app``); the routes parse, ask
``kgdiff.open(store)`` and shape the answer, and hold no SQL and no business logic.
"""
