"""The six templates of a relation, the placeholders each one takes, and their rendering.

A template is text with ``{subject}``, ``{object}`` and ``{year}`` where the labels and the
year go (``{{`` and ``}}`` for a literal brace). Every template kind takes a fixed set of
placeholders and must use each of them: a question without ``{subject}`` cannot name what it
asks about, and a true/false statement without ``{object}`` cannot be false. The check runs
when a catalogue is read (:func:`template_problem`), so rendering a catalogue's template
never fails and never leaves a placeholder behind.
"""

from __future__ import annotations

from string import Formatter

PLACEHOLDERS = ("subject", "object", "year")
"""Every placeholder a template may use, in the order messages list them."""

TEMPLATE_FIELDS: dict[str, tuple[str, ...]] = {
    "question": ("subject",),
    "cloze": ("subject",),
    "statement": ("subject", "object"),
    "question_at": ("subject", "year"),
    "cloze_at": ("subject", "year"),
    "statement_at": ("subject", "object", "year"),
}
"""Per template kind (the field name in a catalogue), the placeholders it takes."""


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


def template_problem(kind: str, template: str) -> str | None:
    """What is wrong with ``template`` as a template of ``kind``, as the rest of a one-line
    message (the problem, then what to do); None when it is fine."""
    wanted = TEMPLATE_FIELDS[kind]
    if not template.strip():
        return f"the template is empty; write one that uses {_listed(wanted)}"
    try:
        names = placeholders(template)
    except ValueError as exc:
        return f"{exc}; write placeholders as {_listed(wanted)} and a literal brace as {{{{ or }}}}"
    for name in names:
        if name not in wanted:
            return f"unknown placeholder {{{name}}}; a {kind} template takes {_listed(wanted)}"
    for name in wanted:
        if name not in names:
            return (
                f"the template lacks {{{name}}}; a {kind} template uses {_listed(wanted)} "
                f"(write {{{name}}} where its value goes)"
            )
    return None


def render(template: str, *, subject: str, object: str = "", year: int | str = "") -> str:
    """``template`` with its placeholders filled (a checked template: every placeholder it
    has is one of ``subject``, ``object`` and ``year``)."""
    return template.format_map({"subject": subject, "object": object, "year": str(year)})
