"""The sample dumps the demo ingests (``samples.json``, ``wikipedia_samples.json``).

setup.py installs this folder as the package ``kgdiff.snapshots``, so a wheel carries the
samples and ``kgdiff/resources.py`` finds them, installed or in a checkout alike.
"""
