"""The templates of a relation, the placeholders each one takes, and their rendering.

A template is text with ``{subject}``, ``{object}``, ``{when}`` and ``{year}`` where the
labels, the date and the year go (``{{`` and ``}}`` for a literal brace). Every template kind
takes a fixed set of placeholders and must use each of them: a question without ``{subject}``
cannot name what it asks about, and a true/false statement without its object cannot be
false. ``{when}`` is a time relation's object as a person says when something happened ("in
1630", "on 4 October 1830": :func:`kgdiff.export.relations.phrasing.date_phrase`); a statement may
name its object either way. The check runs when a catalogue is read
(:func:`template_problem`), so rendering a catalogue's template never fails and never leaves
a placeholder behind.

The six required kinds are present tense (and anchored in a year, ``_at``); the three
``_past`` kinds are optional: the question, cloze and statement about a subject that no longer
exists (a person who died, a body dissolved), for relations whose present wording would not
fit it ("Which country was Elvis Presley a citizen of?").
"""

from __future__ import annotations

from string import Formatter

from kgdiff.export.relations.phrasing import sentence_start

PLACEHOLDERS = ("subject", "object", "when", "year")
"""Every placeholder a template may use, in the order messages list them."""

TEMPLATE_FIELDS: dict[str, tuple[str, ...]] = {
    "question": ("subject",),
    "cloze": ("subject",),
    "statement": ("subject", "object"),
    "question_at": ("subject", "year"),
    "cloze_at": ("subject", "year"),
    "statement_at": ("subject", "object", "year"),
}
"""Per required template kind (the field name in a catalogue), the placeholders it takes."""
PAST_FIELDS: dict[str, str] = {
    "question_past": "question",
    "cloze_past": "cloze",
    "statement_past": "statement",
}
"""The optional past-tense kinds, and the present kind each stands in for (whose
placeholders it takes)."""
ALL_FIELDS: dict[str, tuple[str, ...]] = {
    **TEMPLATE_FIELDS,
    **{kind: TEMPLATE_FIELDS[present] for kind, present in PAST_FIELDS.items()},
}
"""Every template kind a catalogue may give, with its placeholders."""
WHEN = "when"
"""The placeholder that names a time object as a date phrase, instead of ``{object}``."""


def _listed(names: tuple[str, ...]) -> str:
    shown = [f"{{{name}}}" for name in names]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} and {shown[-1]}"


def placeholders(template: str) -> list[str]:
    """The placeholders of ``template`` in order of appearance (repeats kept).

    A ``ValueError`` says what is malformed: an unbalanced brace, or a placeholder with a
    conversion or format (``{subject!r}``, ``{year:04}``), which a label cannot take.
    """
    names = []
    for _text, name, spec, conversion in Formatter().parse(template):
        if name is None:
            continue
        if spec or conversion:
            raise ValueError(f"{{{name}}} carries a format or conversion")
        names.append(name)
    return names


def _unknown(name: str, kind: str, wanted: tuple[str, ...], dated: bool) -> str | None:
    if name == WHEN and "object" in wanted:
        if dated:
            return None
        return (
            "{when} is a date's object as a phrase ('in 1630'); only a time relation's "
            "templates take it: write {object}"
        )
    if name not in wanted:
        return f"unknown placeholder {{{name}}}; a {kind} template takes {_listed(wanted)}"
    return None


def template_problem(kind: str, template: str, dated: bool = False) -> str | None:
    """What is wrong with ``template`` as a template of ``kind`` (of a time relation when
    ``dated``: its statements may write ``{when}`` for ``{object}``), as the rest of a
    one-line message (the problem, then what to do); None when it is fine."""
    wanted = ALL_FIELDS[kind]
    if not template.strip():
        return f"the template is empty; write one that uses {_listed(wanted)}"
    try:
        names = placeholders(template)
    except ValueError as exc:
        return f"{exc}; write placeholders as {_listed(wanted)} and a literal brace as {{{{ or }}}}"
    for name in names:
        problem = _unknown(name, kind, wanted, dated)
        if problem:
            return problem
    for name in wanted:
        if name not in names and not (name == "object" and WHEN in names):
            return (
                f"the template lacks {{{name}}}; a {kind} template uses {_listed(wanted)} "
                f"(write {{{name}}} where its value goes)"
            )
    return None


def starts_with_name(template: str) -> bool:
    """Whether the template's sentence starts with a name (``{subject}``, ``{object}``):
    an article added to it is then capitalised."""
    first = next(iter(Formatter().parse(template)), None)
    return first is not None and first[0] == "" and first[1] in ("subject", "object")


def render(
    template: str,
    *,
    subject: str,
    object: str = "",
    year: int | str = "",
    when: str = "",
) -> str:
    """``template`` with its placeholders filled (a checked template: every placeholder it
    has is one of ``subject``, ``object``, ``when`` and ``year``); a sentence that starts with
    a name whose article kgdiff added starts with "The"."""
    values = {"subject": subject, "object": object, "year": str(year), "when": when}
    if starts_with_name(template):
        first = next(iter(Formatter().parse(template)))[1]
        assert first is not None
        values[first] = sentence_start(values[first])
    return template.format_map(values)
