"""Shared pieces of the command line: the error contract, interrupts, option types, files.

The contract (docs/commands.md, "The command line"): every user mistake is one line ``error: ...`` on
stderr and exit code 2, never a traceback; Ctrl-C is one line ``interrupted: ...`` and exit
code 130. :class:`ArenaGroup` enforces it for every command, including typer's own usage
errors (unknown option, bad number, unknown command), so a command only raises.

This module is imported by ``arena --help`` and ``arena games``: it must stay cheap to import
(no trio, numpy or store here; see :func:`user_errors`).
"""

from __future__ import annotations

import contextlib
import copy
import enum
import functools
import inspect
import sys
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer
from typer.core import TyperGroup

from ..tournament import OPTIONS, RANGES

if TYPE_CHECKING:
    from ..sandbox import Sandbox

#: Exit codes of every command (documented in docs/commands.md).
EXIT_USER_ERROR = 2
EXIT_INTERRUPTED = 130


class UsageError(Exception):
    """A command-line value is wrong; the message says which and what to do."""


#: The exception classes that mean "the input is wrong", as (module, name). They are looked up
#: only in modules already imported (an exception cannot come from a module never loaded), so
#: that the cheap commands do not import the store, trio or numpy just to name them.
_USER_ERROR_CLASSES = [
    ("arena.cli._common", "UsageError"), ("engines", "EngineError"), ("arena.players._manifest", "ManifestError"),
    ("arena.match._replay_file", "ReplayFileError"), ("arena.tournament._config", "ConfigError"),
    ("arena.tournament._store", "StoreError"), ("arena.ratings", "ResultsFileError"),
    ("arena.tournament._ranges", "RangeError"), ("arena.report._frames", "ViewError"),
    ("arena.sandbox._sandbox", "SandboxError"), ("arena.players._startup", "StartupError"),
    ("arena.match._rerun", "RerunError"), ("arena.play._serve", "PlayError"),
]


def user_errors() -> tuple[type[BaseException], ...]:
    """The user-error classes of every module loaded so far."""
    found = []
    for module, name in _USER_ERROR_CLASSES:
        cls = getattr(sys.modules.get(module), name, None)
        if isinstance(cls, type) and issubclass(cls, BaseException):
            found.append(cls)
    return tuple(found)


def one_line(message: str) -> str:
    """``message`` on one line: a user error never spills onto a second line."""
    return " ".join(message.split()) or "unknown error"


def plural(number: int, noun: str) -> str:
    """``1 game``, ``2 games``, ``0 games``: counts in messages agree with their noun."""
    return f"{number} {noun}{'s' * (number != 1)}"


def fail(message: str) -> None:
    """Print ``error: message`` on stderr and exit with code 2."""
    typer.echo(f"error: {one_line(message)}", err=True)
    raise typer.Exit(EXIT_USER_ERROR)


def _first_user_error(error: BaseException) -> BaseException | None:
    """The user error that ``error`` is or holds (trio wraps errors of nurseries in groups)."""
    known = user_errors()
    if isinstance(error, known):
        return error
    if isinstance(error, OSError) and error.filename is not None:
        return error
    if isinstance(error, BaseExceptionGroup):
        for inner in error.exceptions:
            found = _first_user_error(inner)
            if found is not None:
                return found
    return None


def _describe(error: BaseException) -> str:
    if isinstance(error, OSError):
        return f"{error.filename}: {error.strerror or error}"
    return str(error)


def reports_errors(command: Callable) -> Callable:
    """Turn known input errors raised by ``command`` into ``error: ...`` and exit code 2.

    :class:`ArenaGroup` does the same for every command; this decorator keeps a command
    correct when it is called on its own (tests, other front ends).
    """

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except (Exception, BaseExceptionGroup) as error:
            found = _first_user_error(error)
            if found is None:
                raise
            fail(_describe(found))

    return wrapper


def is_interrupt(error: BaseException) -> bool:
    """Whether ``error`` is Ctrl-C: a KeyboardInterrupt, possibly inside trio's groups."""
    if isinstance(error, KeyboardInterrupt):
        return True
    return isinstance(error, BaseExceptionGroup) and error.split(KeyboardInterrupt)[0] is not None


@contextlib.contextmanager
def on_interrupt(describe: Callable[[], str]) -> Iterator[None]:
    """On Ctrl-C inside the block: print ``interrupted: <describe()>``, exit code 130.

    ``describe`` runs after the block has unwound (bots stopped, files closed), so what it
    reports (e.g. games stored) is final.
    """
    try:
        yield
    except BaseException as error:
        if not is_interrupt(error):
            raise
        typer.echo(f"interrupted: {describe()}", err=True)
        raise typer.Exit(EXIT_INTERRUPTED) from None


def _usage_message(error: typer.TyperException) -> str:
    # typer validates values with pydantic, whose messages start with "Value error, ".
    message = one_line(error.format_message()).removesuffix(".").replace(": Value error, ", ": ")
    if message[:1].isupper() and message[1:2].islower():
        message = message[0].lower() + message[1:]
    ctx = getattr(error, "ctx", None)
    if ctx is not None:
        message += f" (see '{ctx.command_path} --help')"
    return message


class ArenaGroup(TyperGroup):
    """The ``arena`` command group: runs a command and keeps the error contract.

    typer is run in non-standalone mode so that its exceptions come here instead of being
    drawn as boxes: usage errors become one ``error:`` line (exit 2), a group invoked without
    a command prints its help on stdout, Ctrl-C outside a command's own handling exits 130.
    """

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        _plain_help(self)

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra: Any):
        from typer._click.exceptions import NoArgsIsHelpError  # typer pinned in pyproject.toml

        try:
            try:
                result = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
                code = result if isinstance(result, int) else 0
            except NoArgsIsHelpError as error:
                typer.echo(error.format_message())
                code = 0
            except typer.TyperException as error:
                fail(_usage_message(error))
            except typer.Abort:
                typer.echo("interrupted", err=True)
                code = EXIT_INTERRUPTED
            except KeyboardInterrupt:
                typer.echo("interrupted", err=True)
                code = EXIT_INTERRUPTED
            except (Exception, BaseExceptionGroup) as error:
                if is_interrupt(error):
                    typer.echo("interrupted", err=True)
                    code = EXIT_INTERRUPTED
                else:
                    found = _first_user_error(error)
                    if found is None:
                        raise
                    fail(_describe(found))
        except typer.Exit as done:
            code = done.exit_code
        if standalone_mode:
            sys.exit(code)
        return code


def _plain_help(command: Any) -> None:
    """Help shows metavars (``N``, ``FILE``, ``a|b``), never Python types (``<str>``, ``<bool>``).

    typer's help puts a type beside every parameter; each parameter here says what it takes in
    its metavar and help text, so the type is replaced by the metavar or left out (instance
    attributes shadow typer's methods). typer 0.28 and 0.29 build that column differently;
    both are handled (pyproject.toml pins typer to the range checked).
    """
    for param in getattr(command, "params", ()):
        label = _metavar_of(param)
        if hasattr(param, "display_type_rich"):  # typer 0.29
            param.display_type_rich = lambda ctx, label=label: label
            if param.param_type_name == "argument":
                param._usage_display_name = lambda p=param: _usage_name(p)
        elif param.param_type_name == "argument":  # typer 0.28
            param.type = copy.copy(param.type)
            param.type.get_metavar = lambda param, ctx: ""
            param.make_metavar = lambda ctx, usage=False, p=param: _usage_name(p) if usage else p.metavar or p.name.upper()
        else:
            param.make_metavar = lambda ctx, label=label: label or ""
    if not getattr(command, "_arena_plain_help", False):
        command._arena_plain_help = True
        command.help = rewrap_help(command.help)
        show_help = command.get_help_option

        def get_help_option(ctx: Any) -> Any:
            option = show_help(ctx)
            if option is not None:
                option.display_type_rich = lambda ctx: None
            return option

        command.get_help_option = get_help_option
    for sub in getattr(command, "commands", {}).values():
        _plain_help(sub)


_EXAMPLES = ("Example:", "Examples:")


def rewrap_help(text: str | None) -> str | None:
    """A command's docstring as its help: each paragraph one line, which the terminal wraps
    at its width (typer keeps a docstring's line breaks after the first paragraph, so a help
    read on a narrower or wider terminal than the source had lines broken mid-sentence), but
    an ``Examples:`` paragraph line by line, indented, with rich's markup escaped.

    typer removes the indentation common to the lines after the first of the description:
    the examples keep theirs because a line at column 0 (a paragraph, or "Examples:" after
    one more line break) is always among them."""
    if not text:
        return text
    from rich.markup import escape

    paragraphs = [p.strip("\n") for p in inspect.cleandoc(text).split("\n\n") if p.strip()]
    out = []
    for index, paragraph in enumerate(paragraphs):
        lines = paragraph.splitlines()
        if lines[0].strip() in _EXAMPLES:
            lead = "\n" if index == 1 else ""  # see above: "Examples:" must not be the first line
            out.append(lead + "\n".join([lines[0].strip(), *("  " + escape(line.strip()) for line in lines[1:])]))
        else:
            out.append(" ".join(line.strip() for line in lines))
    return "\n\n".join(out)


def _metavar_of(param: Any) -> str | None:
    """What the help shows beside a parameter: its metavar, its choices, or nothing."""
    if param.param_type_name == "argument" or getattr(param, "is_flag", False) or getattr(param, "count", False):
        return None
    if param.metavar is not None:
        return param.metavar
    descriptor = getattr(param, "type_descriptor", None)  # typer 0.29; 0.28 has click's param.type
    choices = getattr(descriptor if descriptor is not None else getattr(param, "type", None), "choices", None)
    return "|".join(str(getattr(c, "value", c)) for c in choices) if choices else param.name.upper()


def _usage_name(param: Any) -> str:
    name = param.metavar or param.name.upper()
    return (name if param.required else f"[{name}]") + ("..." if param.nargs != 1 else "")


# -- options shared by several commands ---------------------------------------------------------

class SandboxMode(enum.StrEnum):
    AUTO = "auto"
    BWRAP = "bwrap"
    STRICT = "strict"
    NONE = "none"


SandboxOption = Annotated[SandboxMode, typer.Option(
    "--sandbox", metavar="MODE",
    help="auto: bubblewrap if it works; bwrap: require it; strict: every protection of `arena doctor`; none: no "
         "bubblewrap.")]

OutputOption = Annotated[Optional[Path], typer.Option(
    "--output", "-o", metavar="FILE", help="Write to this file instead of stdout.")]

#: A stored game's key (``arena replay DB`` lists them). ``--game`` is a game id everywhere
#: (``check-bot --game karibik``); the key was ``--game`` in ``view`` and ``board`` before, and
#: that spelling still works there, hidden (:data:`OldKeyOption`).
KeyOption = Annotated[Optional[str], typer.Option(
    "--key", metavar="KEY", help="With a database: the key of the stored game (see `arena replay DB`).")]
OldKeyOption = Annotated[Optional[str], typer.Option(
    "--game", metavar="KEY", hidden=True, help="The old name of --key (still accepted).")]

GameOptionOption = Annotated[list[str], typer.Option(
    "--option", metavar="NAME=VALUE", help="A game option (see `arena games`); repeatable.")]


def parse_options(pairs: list[str]) -> dict[str, Any]:
    """``["characters=false", "target=3000"]`` → ``{"characters": False, "target": 3000}``."""
    options = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        if not sep or not key:
            raise UsageError(f"--option must look like NAME=VALUE, got {pair!r}")
        try:
            options[key] = tomllib.loads(f"v = {text}")["v"]
        except tomllib.TOMLDecodeError:
            options[key] = text
    return options


def parse_bot_seeds(text: str, seats: int) -> list[int]:
    """``--bot-seeds A,B,...``: one ``start.bot_seed`` per seat, each in 0..2^64-1."""
    parts = [part.strip() for part in text.split(",")]
    if len(parts) != seats:
        raise UsageError(f"--bot-seeds needs one seed per seat ({seats}), separated by commas; got {len(parts)}: {text!r}")
    seeds = []
    for seat, part in enumerate(parts):
        try:
            seed = int(part, 10)
        except ValueError:
            seed = -1
        if not 0 <= seed < 2**64:
            raise UsageError(f"--bot-seeds: the seed of seat {seat} must be an integer in 0..{2**64 - 1}, got {part!r}")
        seeds.append(seed)
    return seeds


def number_option(option: str, help: str, metavar: str = "N") -> Any:
    """A numeric option taken as text: :func:`arena.tournament._ranges.parse_option` then reports a bad
    value in one ``error:`` line naming the option and its range (typer's would name no
    range). The help shows the range from :data:`arena.tournament._ranges.RANGES`."""
    return typer.Option(option, metavar=metavar, help=f"{help} Range {RANGES[OPTIONS[option]]}.")


AllowRootOption = Annotated[bool, typer.Option(
    "--allow-root-bots", help="Run as root the bots that cannot have their own uid (arena run as root), "
                              "instead of refusing them; the output then warns.")]


def root_bots_warning(sandbox: Sandbox) -> str | None:
    """The warning line to print with results when some bots ran as root, or ``None``."""
    if not sandbox.root_bots:
        return None
    return (f"warning: {', '.join(sorted(sandbox.root_bots))} ran as root (--allow-root-bots): "
            f"they could have changed these results or harmed other bots")


# -- files the user names -----------------------------------------------------------------------

def _file_problem(path: Path, error: OSError, action: str) -> UsageError:
    if isinstance(error, IsADirectoryError) or path.is_dir():
        reason = "is a folder, not a file"
    elif isinstance(error, FileNotFoundError) and not path.parent.exists():
        reason = f"folder {path.parent} does not exist"
    else:
        reason = error.strerror or str(error)
    return UsageError(f"{path}: cannot {action} ({reason})")


def check_writable(path: Path) -> None:
    """Fail early (before any work) when ``path`` is a folder or its folder is missing."""
    if path.is_dir():
        raise UsageError(f"{path}: cannot write (is a folder, not a file)")
    if not path.resolve().parent.is_dir():
        raise UsageError(f"{path}: cannot write (folder {path.parent} does not exist)")


def write_text_file(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to a file the user named; errors are one-line :class:`UsageError`."""
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise _file_problem(path, error, "write") from None


def read_text_file(path: Path, what: str = "file") -> str:
    """Read a UTF-8 text file the user named; a missing, binary or folder path is a UsageError."""
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise UsageError(f"{path}: not a UTF-8 text {what} (byte {error.start})") from None
    except OSError as error:
        raise _file_problem(path, error, "read") from None
