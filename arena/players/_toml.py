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
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as problem:
        raise error(f"{path}: cannot read {what} ({problem.strerror or problem})") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as problem:
        raise error(f"{path}: not valid TOML ({problem})") from None
