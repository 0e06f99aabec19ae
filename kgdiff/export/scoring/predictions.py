"""Reading predictions: JSON lines ``{"id": "...", "prediction": "..."}`` (docs/scoring.md).

``prediction`` is one string, or a list of strings for several sampled answers to the same item
(the ``pools`` scoring reads them as ChroKnowBench's answer set). Other keys are ignored.
"""

from __future__ import annotations

from pathlib import Path

import msgspec

from kgdiff.errors import InputError

Prediction = str | list[str]


class PredictionLine(msgspec.Struct, frozen=True):
    """One line of a predictions file."""

    id: str
    prediction: Prediction


_DECODER = msgspec.json.Decoder(PredictionLine)


def read_predictions(path: Path) -> dict[str, Prediction]:
    """The predictions of a JSON lines file by id. Blank lines are skipped; a line that is not
    such an object, or repeats an id, is an :class:`~kgdiff.errors.InputError` naming the file
    and the line."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc}); check the path") from exc
    found: dict[str, Prediction] = {}
    first_line: dict[str, int] = {}
    for number, line in enumerate(data.splitlines(), start=1):
        if not line.strip():
            continue
        item = _decoded(path, number, line)
        if item.id in first_line:
            raise InputError(
                f"{path}:{number}: id {item.id!r} was already predicted on line "
                f"{first_line[item.id]}; keep one prediction per id"
            )
        first_line[item.id] = number
        found[item.id] = item.prediction
    return found


def _decoded(path: Path, number: int, line: bytes) -> PredictionLine:
    try:
        return _DECODER.decode(line)
    except msgspec.ValidationError as exc:
        raise InputError(
            f"{path}:{number}: {exc}; each line must be "
            '{"id": "…", "prediction": "…" or ["…", …]}'
        ) from exc
    except msgspec.DecodeError as exc:
        message = f"{path}:{number}: not JSON ({exc}); each line is one JSON object"
        raise InputError(message) from exc
