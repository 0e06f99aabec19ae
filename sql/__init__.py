"""kgdiff's SQL statements, one per file (loaded by name: ``kgdiff/sqlfiles.py``).

setup.py installs this folder as the package ``kgdiff.sql``, so a wheel carries the
statements and ``kgdiff/resources.py`` finds them, installed or in a checkout alike.
"""
