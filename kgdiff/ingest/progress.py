"""How long-running library work reports progress (the CLI draws it with rich)."""

from __future__ import annotations

from typing import Protocol


class Progress(Protocol):
    """Receiver of progress events; every method must be cheap."""

    def begin(self, description: str, total_bytes: int) -> None:
        """Work over ``total_bytes`` of input starts."""

    def update(self, done_bytes: int, entities: int, statements: int) -> None:
        """``done_bytes`` of the input consumed; running totals."""

    def phase(self, description: str) -> None:
        """A new step without byte progress (e.g. sorting) starts."""

    def advance(self, done: float, total: float) -> None:
        """The current step has done ``done`` of ``total``, in its own unit (the sort:
        estimated bytes of rows)."""

    def end(self) -> None:
        """The work ended (successfully or not)."""


class NullProgress:
    """Progress that goes nowhere (library use, ``--quiet``)."""

    def begin(self, description: str, total_bytes: int) -> None:
        """Ignore."""

    def update(self, done_bytes: int, entities: int, statements: int) -> None:
        """Ignore."""

    def phase(self, description: str) -> None:
        """Ignore."""

    def advance(self, done: float, total: float) -> None:
        """Ignore."""

    def end(self) -> None:
        """Ignore."""


class Retitled:
    """Progress passed on to ``inner`` under another title: a step whose input is an
    intermediate file (an RDF file's converted JSON) is named for what it does, not for a
    file the user never gave."""

    def __init__(self, inner: Progress, title: str) -> None:
        self.inner, self.title = inner, title

    def begin(self, description: str, total_bytes: int) -> None:
        """Begin under this title."""
        self.inner.begin(self.title, total_bytes)

    def update(self, done_bytes: int, entities: int, statements: int) -> None:
        """Pass on."""
        self.inner.update(done_bytes, entities, statements)

    def phase(self, description: str) -> None:
        """Pass on."""
        self.inner.phase(description)

    def advance(self, done: float, total: float) -> None:
        """Pass on."""
        self.inner.advance(done, total)

    def end(self) -> None:
        """Pass on."""
        self.inner.end()
