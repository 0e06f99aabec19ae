"""Build the command line with only the modules the invoked command needs.

Every ``kgdiff`` command (and every ingest worker, which re-imports the console script as
its ``__main__``) would otherwise load the whole library at start-up: requests, the page-view
client, the temporal layer, pyarrow, DuckDB: ~0.6 s of CPU before anything useful happens.
Commands are therefore registered by name as ``module:attribute``; a command's module is
imported only when the command line names it, or when it has to list every command (help, an
unknown name).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any

import typer
from typer.core import TyperCommand

from kgdiff.cli.help_format import Command, Group


@dataclass(frozen=True)
class CommandGroup:
    """A sub-command group (``kgdiff ingest ...``): its help and its commands."""

    help: str
    commands: Mapping[str, str | CommandGroup]


def load_target(target: str) -> Any:
    """The object named by ``module:attribute``: a typer command function or a typer app."""
    module_name, _, attribute = target.partition(":")
    return getattr(importlib.import_module(module_name), attribute)


def add_commands(
    app: typer.Typer, commands: Mapping[str, str | CommandGroup], args: Sequence[str]
) -> None:
    """Register on ``app`` the command ``args`` name, or all of ``commands`` when none is named."""
    named = args[0] if args and args[0] in commands else None
    for name, target in commands.items():
        if named is not None and name != named:
            continue
        if isinstance(target, CommandGroup):
            group = typer.Typer(help=target.help, no_args_is_help=True, cls=Group)
            add_commands(group, target.commands, args[1:])
            app.add_typer(group, name=name)
            continue
        obj = load_target(target)
        if isinstance(obj, typer.Typer):
            app.add_typer(obj, name=name, cls=group_class(obj))
        else:
            app.command(name, cls=Command)(obj)


def group_class(app: typer.Typer) -> type[Group]:
    """The class of a module's sub-command group (its own, else :class:`Group`); its commands
    are made :class:`Command` unless they name a class of their own."""
    for info in app.registered_commands:
        if info.cls in (None, TyperCommand):  # typer's default, not a class of the module's
            info.cls = Command
    own = app.info.cls
    return own if isinstance(own, type) and issubclass(own, Group) else Group


def build_app(
    commands: Mapping[str, str | CommandGroup], args: Sequence[str], **options: Any
) -> typer.Typer:
    """The typer app for the command line ``args`` (without the program name)."""
    app = typer.Typer(cls=Group, **options)
    # A callback keeps the app a group: with a single registered command typer would
    # otherwise run that command directly and read its name as the first argument.
    app.callback()(_top_options)
    if list(args[:1]) != ["--version"]:  # the version needs no command
        add_commands(app, commands, args)
    return app


def _print_version(asked: bool) -> None:
    if asked:
        from kgdiff import __version__

        typer.echo(f"kgdiff {__version__}")
        raise typer.Exit


def _top_options(
    version: Annotated[
        bool,
        typer.Option(
            "--version", is_eager=True, callback=_print_version, help="Print kgdiff's version."
        ),
    ] = False,
) -> None:
    """The top level's only option of its own: ``--version``."""
