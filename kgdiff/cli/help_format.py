"""How the commands' ``--help`` names what they take, whatever typer's version.

Newer typers print a flag with a type it never takes (``--json <bool>``), a repeatable option
as a list (``--split <list[str]>``) and a required argument in braces (``kgdiff score
[OPTIONS] {predictions}``), and keep a docstring's line breaks. Every kgdiff command and group
is made of :class:`Command` and :class:`Group`, which show a flag bare, a repeated option by
one value's type, an argument as command lines name one (``PREDICTIONS``,
``[SUBJECTS]...``), and each paragraph of help wrapped to the terminal.
"""

from __future__ import annotations

import inspect
import re
from typing import Any

from typer.core import TyperCommand, TyperGroup


def plain(param: Any, ctx: Any) -> Any:
    """``param`` named as help should show it: a flag without a value's type, a repeatable
    option with the type of one value, an argument by its upper-case name (unless it has a
    metavar of its own)."""
    if param.metavar is not None:
        return param
    if param.param_type_name == "argument" and param.name:
        param.metavar = param.name.upper()
    elif getattr(param, "is_flag", False):
        param.metavar = ""  # a flag takes no value: no type to show
    elif getattr(param, "multiple", False) and hasattr(param, "display_type"):
        param.metavar = re.sub(r"^<list\[(.*)\]>$", r"<\1>", param.display_type(ctx))
    return param


def usage_pieces(command: Any, ctx: Any) -> list[str]:
    """The usage line's pieces after the command's name: ``[OPTIONS]``, then each argument
    as ``NAME``, ``[NAME]`` when optional, with ``...`` when it takes several."""
    pieces = [command.options_metavar] if command.options_metavar else []
    for param in command.get_params(ctx):
        if param.param_type_name != "argument":
            pieces.extend(param.get_usage_pieces(ctx))
            continue
        name = param.metavar if param.required else f"[{param.metavar}]"
        pieces.append(name + ("..." if param.nargs != 1 else ""))
    return pieces


def reflowed(text: str | None) -> str | None:
    """A docstring's paragraphs each as one line, for the terminal to wrap: rich help keeps
    a docstring's line breaks, which at 80 columns leave a few words alone on a line."""
    if not text:
        return text
    blocks = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(" ".join(line.strip() for line in block.splitlines()) for block in blocks)


class Command(TyperCommand):
    """A kgdiff command (see the module's docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.help = reflowed(self.help)

    def get_params(self, ctx: Any) -> list[Any]:
        return [plain(param, ctx) for param in super().get_params(ctx)]

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        return usage_pieces(self, ctx)


class Group(TyperGroup):
    """A kgdiff group of commands: its own options (``--help``, ``--version``) as
    :class:`Command` shows them."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.help = reflowed(self.help)

    def get_params(self, ctx: Any) -> list[Any]:
        return [plain(param, ctx) for param in super().get_params(ctx)]
