"""Shared pieces of the command line: error reporting and option parsing."""

from __future__ import annotations

import contextlib
import functools
import tomllib
from collections.abc import Iterator
from typing import Annotated, Any

import typer

import engines

from ._config import ConfigError
from ._manifest import ManifestError
from ._replay_view import ReplayFileError
from ._sandbox import Sandbox, detect_sandbox
from ._store import StoreError
from .ratings import ResultsFileError


class UsageError(Exception):
    """A command-line value is wrong; the message says which and what to do."""


#: Errors that mean "the input is wrong": one line on stderr, exit code 2, no traceback.
USER_ERRORS: tuple[type[Exception], ...] = (
    UsageError, engines.EngineError, ManifestError, ReplayFileError, ConfigError, StoreError,
    ResultsFileError,
)


def fail(message: str) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def reports_errors(command):
    """Turn known input errors into ``error: ...`` on stderr and exit code 2."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except USER_ERRORS as error:
            fail(str(error))
        except BaseExceptionGroup as group:
            # trio wraps errors raised inside nurseries; report the first input error.
            matched, _ = group.split(USER_ERRORS)
            if matched is None:
                raise
            first = matched
            while isinstance(first, BaseExceptionGroup):
                first = first.exceptions[0]
            fail(str(first))

    return wrapper


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


SandboxOption = Annotated[str, typer.Option(
    "--sandbox", help="auto: bubblewrap when it works | bwrap: require it | none: limits and uid only")]


@contextlib.contextmanager
def open_sandbox(mode: str) -> Iterator[Sandbox]:
    """The sandbox for ``--sandbox MODE``, cleaned up (cgroup folders) on exit."""
    try:
        sandbox = detect_sandbox(mode)
    except (ValueError, RuntimeError) as error:
        raise UsageError(str(error)) from None
    try:
        yield sandbox
    finally:
        sandbox.close()
