"""The JSON dump framing: chunking never changes the lines, and the framing check is exact."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgdiff.errors import InputError
from kgdiff.readers.chunking import split_chunks
from kgdiff.readers.json_dump import DumpFraming, LineLayout, iter_entity_lines

ENTITY = st.builds(
    lambda n, pad: f'{{"id":"Q{n}","type":"item","labels":{{"en":{{"value":"{"x" * pad}"}}}}}}',
    st.integers(1, 10**9),
    st.integers(0, 300),
)


def array_dump(entities: list[str], blank_before_close: bool = False) -> bytes:
    """The real dump layout: '[', entity lines ending with ',', the last without, ']'."""
    body = ",\n".join(entities)
    gap = "\n" if blank_before_close else ""
    return f"[\n{body}\n{gap}]\n".encode()


def read_all(data: bytes, chunk_bytes: int) -> tuple[list[tuple[int, int, bytes]], DumpFraming]:
    framing = DumpFraming("dump.json")
    layouts: list[LineLayout] = []
    lines: list[tuple[int, int, bytes]] = []
    for chunk in split_chunks(io.BytesIO(data), framing, chunk_bytes):
        layout = LineLayout()
        lines.extend(iter_entity_lines(chunk, layout))
        layouts.append(layout)
    framing.check(layouts)
    return lines, framing


@settings(max_examples=60)
@given(st.lists(ENTITY, min_size=1, max_size=40), st.integers(16, 4096), st.booleans())
def test_chunk_size_never_changes_the_lines(
    entities: list[str], chunk_bytes: int, blank: bool
) -> None:
    data = array_dump(entities, blank)
    lines, framing = read_all(data, chunk_bytes)
    assert [text.decode() for _, _, text in lines] == entities
    assert framing.kind == "array"
    for line_no, offset, text in lines:
        # line numbers and offsets point at the entity in the original bytes
        assert data.split(b"\n")[line_no - 1].startswith(text)
        assert data[offset : offset + len(text)] == text


@settings(max_examples=40)
@given(st.lists(ENTITY, min_size=1, max_size=30), st.integers(16, 2048))
def test_json_lines_need_no_brackets(entities: list[str], chunk_bytes: int) -> None:
    data = "".join(f"{e}\n" for e in entities).encode()
    lines, framing = read_all(data, chunk_bytes)
    assert framing.kind == "lines"
    assert [text.decode() for _, _, text in lines] == entities


@settings(max_examples=40)
@given(st.lists(ENTITY, min_size=2, max_size=20), st.integers(16, 2048), st.data())
def test_any_cut_of_an_array_dump_is_refused(
    entities: list[str], chunk_bytes: int, data: st.DataObject
) -> None:
    dump = array_dump(entities)
    cut = data.draw(st.integers(2, len(dump.rstrip()) - 1))
    with pytest.raises(InputError, match=r"dump\.json: offset \d+: "):
        read_all(dump[:cut], chunk_bytes)


@pytest.mark.parametrize(
    ("mangle", "message"),
    [
        (lambda d: d + d, "a second"),
        (lambda d: d + b"garbage\n", "after the closing"),
        (lambda d: d.replace(b"[\n", b"", 1), "a ']' line in a JSON-lines file"),
        (lambda d: b"", "holds no data"),
        (lambda d: b"\x89PNG\r\n", "not a Wikidata JSON dump"),
    ],
)
def test_broken_framing(mangle: object, message: str) -> None:
    dump = array_dump(['{"id":"Q1"}', '{"id":"Q2"}'])
    assert callable(mangle)
    with pytest.raises(InputError, match=message):
        read_all(mangle(dump), 64)
