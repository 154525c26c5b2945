"""Reading the arena's TOML files (manifests, tournament files) with errors that name them."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any


def read_toml(path: Path, what: str, error: type[Exception]) -> dict[str, Any]:
    """The table in ``path``; an unreadable or invalid file raises ``error`` naming it and ``what`` it is."""
    if path.exists() and not path.is_dir() and not path.is_file():
        # A FIFO or a device: reading it could block for ever or never end.
        raise error(f"{path}: cannot read {what} (not a regular file)")
    if path.is_dir():
        raise error(f"{path}: is a folder, not a {what}{'' if what.endswith('file') else ' file'}")
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as problem:
        raise error(f"{path}: cannot read {what} ({problem.strerror or problem})") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as problem:
        raise error(f"{path}: not valid TOML ({problem})") from None


def describe_value(value: Any) -> str:
    """A TOML value as an error message names it, in the file's words rather than Python's:
    ``the number 5``, ``true``, ``a list``, ``a table``, ``an empty string``, ``'text'``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return repr(value) if value else "an empty string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    return f"a {type(value).__name__}"  # dates and times


#: what a key of each Python type must be, in the file's words
KIND_NAMES = {str: "a string", int: "an integer", bool: "true or false", list: "a list", dict: "a table",
              float: "a number"}
