"""How a command is registered and loaded: lazily, with cheap option parsing, and with the options every command
shares (`--no-color`, `-h`).

Three costs of a naive Typer app are avoided here, each measured by `benchmarks/startup.py`:
- importing every command module (the engine, numpy, pydantic models) to print `--help`: the group lists the
  commands of `cli.app.COMMANDS` and imports a module only when its command is resolved to run or complete;
- Typer (0.29) building a pydantic TypeAdapter for every parameter while parsing (importing pydantic alone is
  most of it): the plain annotations wasplan uses (str, bool, numbers, enums, paths, lists of them) get a
  small coercer with the same semantics and messages (`_Coercer`); anything else stays Typer's;
- rich-rendered help (about 0.08 s to import rich's help layout): help is Click's plain formatter, which also
  wraps to the terminal instead of cutting lines.
Followed: typer/core.py (TyperGroup, _TyperParameter.get_runtime_param) and typer/_coercion.py of typer 0.29.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

import typer
from typer import _click
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption, _TyperParameter

from wasplan.cli import terminal
from wasplan.cli.app import COMMANDS
from wasplan.cli.helpfmt import Formatter

_CONTEXT = {"help_option_names": ["-h", "--help"]}


@dataclass(frozen=True)
class _Coercer:
    """Typer's RuntimeParam contract (`coerce(value, param, ctx)`) for one plain leaf type, without pydantic."""

    leaf: Any
    info: Any

    def coerce(self, value: Any, param: Any, ctx: Any) -> Any:
        multi = param.multiple or param.nargs == -1
        if value is None:
            return () if multi else None
        if multi:
            if isinstance(value, str):
                raise _click.exceptions.BadParameter("Value must be an iterable.", ctx=ctx, param=param)
            return [self._one(v, param, ctx) for v in value]
        return self._one(value, param, ctx)

    def _one(self, value: Any, param: Any, ctx: Any) -> Any:
        from typer import _param_types as pt

        leaf = self.leaf
        try:
            if isinstance(leaf, type) and issubclass(leaf, Enum):
                return pt.coerce_cli_choice(value, choices=list(leaf), case_sensitive=self.info.case_sensitive, ctx=ctx)
            if leaf is Path:
                return pt.coerce_cli_path(value if isinstance(value, Path) else Path(value), self.info,
                                          path_type=Path, param=param, ctx=ctx)
            if leaf in (int, float):
                return self._number(_parse_number(leaf, value))
            if leaf is bool:
                return value if isinstance(value, bool) else _bool(value)
            return value if isinstance(value, str) else str(value)
        except ValueError as exc:
            raise _click.exceptions.BadParameter(str(exc), ctx=ctx, param=param) from None

    def _number(self, number: float) -> float:
        lo, hi = self.info.min, self.info.max
        if (lo is not None and number < lo) or (hi is not None and number > hi):
            low = lo is not None and number < lo
            bound = f"greater than or equal to {lo}" if low else f"less than or equal to {hi}"
            raise ValueError(f"Input should be {bound}")
        return number


def _parse_number(leaf: type, value: Any) -> float:
    try:
        return leaf(value)
    except (TypeError, ValueError):
        what = "a valid integer, unable to parse string as an integer" if leaf is int else \
            "a valid number, unable to parse string as a number"
        raise ValueError(f"Input should be {what}") from None


def _bool(text: str) -> bool:
    lowered = text.strip().lower()
    if lowered in ("1", "true", "t", "yes", "y", "on"):
        return True
    if lowered in ("0", "false", "f", "no", "n", "off", ""):
        return False
    raise ValueError("Input should be a valid boolean, unable to interpret input")


def _plain_leaf(annotation: Any) -> Any:
    """The element type when `annotation` is one of the plain forms `_Coercer` handles, else None."""
    from typing import get_args, get_origin

    if get_origin(annotation) is list:
        (annotation,) = get_args(annotation)
    if annotation in (str, bool, int, float, Path):
        return annotation
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return annotation
    return None


def fast_params(command: _click.Command) -> _click.Command:
    """Give every plain Typer parameter of `command` a `_Coercer`, so parsing never builds a TypeAdapter; the
    help option (`-h/--help`, made by Click on first use) is made here for that too."""
    for param in command.params:
        fast_params_one(param)
    if getattr(command, "_help_option", False) is None and command.add_help_option:
        from typer._click.decorators import help_option

        help_option(_CONTEXT["help_option_names"])(command)
        command._help_option = fast_params_one(command.params.pop())
    return command


def fast_params_one(param: Any) -> Any:
    if isinstance(param, _TyperParameter) and getattr(param, "_runtime_param", False) is None:
        desc = param.type_descriptor
        leaf = _plain_leaf(desc.annotation)
        if leaf is not None and desc.file_annotation is None and desc.parameter_info.parser is None:
            param._runtime_param = _Coercer(leaf, desc.parameter_info)
    return param


def _no_color_option() -> TyperOption:
    from typer._coercion import bool_flag_type_descriptor

    return TyperOption(param_decls=["--no-color"], type_descriptor=bool_flag_type_descriptor(), is_flag=True,
                       default=False, expose_value=False, is_eager=True,
                       callback=lambda ctx, param, value: terminal.set_no_color(True) if value else None,
                       help="No colour (also: the NO_COLOR environment variable).")


class WordedOption(TyperOption):
    """An option whose help shows its value as a word (`FILE`, `NAME=BOOL,...`) or its choices, never a Python
    type (`<list[str]>`)."""

    def display_type(self, ctx: _click.Context) -> str:
        if self.is_flag:
            return ""
        if self.metavar:
            return self.metavar
        choices = self.type_descriptor.choices
        if choices:
            return "|".join(c.value if isinstance(c, Enum) else str(c) for c in choices)
        return self.name.upper()


class WordedArgument(TyperArgument):
    """An argument shown by its metavar (`PATH...`) in usage and help, as written."""

    def display_type(self, ctx: _click.Context) -> str:
        return ""

    def _usage_display_name(self) -> str:
        return self.metavar if self.required else f"[{self.metavar}]"


def worded(param: Any) -> Any:
    """`param` shown in words. Typer builds its own parameter classes and takes no class to use, so the built
    object is re-classed to a subclass that changes only how help names its value."""
    if type(param) is TyperOption:
        param.__class__ = WordedOption
    elif type(param) is TyperArgument:
        if param.metavar is None:
            param.metavar = param.name.upper() + ("..." if param.nargs != 1 else "")
        param.__class__ = WordedArgument
    return param


class HelpContext(_click.Context):
    """Every context of the app (the group's and, inherited, each command's) formats help with `Formatter`."""

    formatter_class = Formatter


def _prepare(command: _click.Command) -> _click.Command:
    """What every loaded command gets: cheap parsing and the shared options."""
    fast_params(command)
    command.params = [worded(p) for p in command.params]
    command.context_class = HelpContext
    if not any("--no-color" in getattr(p, "opts", ()) for p in command.params):
        command.params.append(fast_params_one(_no_color_option()))
    return command


class LazyGroup(TyperGroup):
    """A TyperGroup whose commands come from `COMMANDS` and are imported on first real use."""

    context_class = HelpContext

    def __init__(self, **attrs: Any) -> None:
        attrs["commands"] = {name: _prepare(cmd) for name, cmd in dict(attrs.get("commands") or {}).items()}
        super().__init__(**attrs)

    def parse_args(self, ctx: _click.Context, args: list[str]) -> list[str]:
        fast_params(self)  # here, not in __init__: Typer appends the completion options after building the group
        return super().parse_args(ctx, args)

    def list_commands(self, ctx: _click.Context) -> list[str]:
        return list(dict.fromkeys([*COMMANDS, *self.commands]))

    def get_command(self, ctx: _click.Context, cmd_name: str) -> _click.Command | None:
        """The loaded command, or for listing (help, completion of names) a stand-in carrying its summary."""
        if cmd_name in self.commands:
            return self.commands[cmd_name]
        if cmd_name in COMMANDS:
            summary = COMMANDS[cmd_name][1]
            return TyperCommand(cmd_name, help=summary, short_help=summary, rich_markup_mode=None)
        return None

    def resolve_command(self, ctx: _click.Context, args: list[str]):
        if args and args[0] in COMMANDS and args[0] not in self.commands:
            self.commands[args[0]] = _prepare(load(args[0]))
        try:
            return super().resolve_command(ctx, args)
        except _click.exceptions.UsageError as exc:  # Typer suggests only loaded commands; suggest them all
            from difflib import get_close_matches

            matches = get_close_matches(args[0], self.list_commands(ctx)) if args else []
            if matches and "Did you mean" not in exc.message:
                exc.message = f"{exc.message.rstrip('.')}. Did you mean {', '.join(map(repr, matches))}?"
            raise


def load(name: str) -> _click.Command:
    """Import the module of command `name` and build its Click command from what the module registered."""
    from wasplan.cli.app import app

    importlib.import_module(f"wasplan.cli.{COMMANDS[name][0]}")
    for info in app.registered_commands:
        if (info.name or typer.main.get_command_name(info.callback.__name__)) == name:
            return typer.main.get_command_from_info(info, pretty_exceptions_short=app.pretty_exceptions_short,
                                                    rich_markup_mode=app.rich_markup_mode)
    raise LookupError(f"wasplan.cli.{COMMANDS[name][0]} does not register a command named {name!r}")


def load_all() -> None:
    """Import every command module (tests that drive the app in-process, and the help-text checks)."""
    for module in dict.fromkeys(m for m, _ in COMMANDS.values()):
        importlib.import_module(f"wasplan.cli.{module}")


def _version(value: bool) -> None:
    if value:
        from wasplan import __version__

        typer.echo(f"wasplan {__version__}")
        raise typer.Exit(0)


def build_app() -> typer.Typer:
    app = typer.Typer(name="wasplan", cls=LazyGroup, no_args_is_help=True, add_completion=True,
                      pretty_exceptions_enable=False, rich_markup_mode=None, context_settings=_CONTEXT,
                      help="Validate, migrate and dry-run plan Kubernetes workload-aware scheduling manifests, "
                           "offline.")

    @app.callback()
    def _root(
        version: bool = typer.Option(False, "--version", "-V", callback=_version, is_eager=True,
                                     help="Print the version and exit."),
        no_color: bool = typer.Option(False, "--no-color", help="No colour (also: the NO_COLOR environment "
                                                                 "variable; FORCE_COLOR forces it)."),
    ) -> None:
        """wasplan: workload-aware scheduling for Kubernetes 1.36/1.37, offline."""
        terminal.set_no_color(no_color)

    return app
