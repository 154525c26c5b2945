"""Unpacking a submitted bot archive (``.zip``, ``.tar``, ``.tar.gz``) without trusting it.

An archive comes from anyone holding a ladder token, so every entry is checked before anything
is written, and sizes are counted while the data streams out of the decompressor:

- names: relative, no ``..``, no NUL or control characters, valid UTF-8, each path at most once
  (a later entry never overwrites or reinterprets an earlier one: ``a`` the file and ``a/b``
  conflict);
- kinds: regular files and folders only; symlinks, hardlinks, devices, fifos and sparse files
  are refused, so nothing written can point out of the destination;
- limits (:class:`ArchiveLimits`): the number of entries, each file's size and the total. A
  declared size over a limit is refused before its data is read; the bytes actually written
  are counted too, so an entry whose data runs past its declared size stops at the limit;
- headers: a tar header's extensions (a GNU long name or link name, a pax header) are read
  whole by :mod:`tarfile`, so their declared sizes are checked first (:data:`NAME_MAX_BYTES`,
  :data:`PAX_MAX_BYTES`, :data:`EXTENSIONS_MAX` in a row): a 10 KB ``.tar.xz`` whose long
  name unpacks to 64 MiB is refused before a byte of that name is read.

:func:`unpack` blocks (decompression, many system calls): the ladder runs it in a worker
thread, never in its event loop.

Files are written fresh (``O_EXCL | O_NOFOLLOW``) with modes the arena chooses (``0644``, or
``0755`` where the archive marks them executable; folders ``0755``), so bots running under their
own uid can read them and no setuid bit survives.
"""

from __future__ import annotations

import errno
import io
import lzma
import os
import stat
import tarfile
import zipfile
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import BinaryIO

MANIFEST = "bot.toml"
_CHUNK = 1 << 16
#: the longest name (or link name) an entry may have, in bytes: Linux's PATH_MAX, past which
#: no file of that name can be made anyway
NAME_MAX_BYTES = 4096
#: the most a pax header's records may hold together (a path and a link path of
#: :data:`NAME_MAX_BYTES` each, times, sizes, with room to spare)
PAX_MAX_BYTES = 16 * 1024
#: extension headers (pax, GNU long name or link name) in a row before one member: tarfile
#: reads each chain by recursion, and no archiver writes more than three
EXTENSIONS_MAX = 4
#: what a damaged or hostile compressed stream raises while being read
_READ_ERRORS = (zipfile.BadZipFile, tarfile.TarError, zlib.error, lzma.LZMAError, EOFError, OSError,
                NotImplementedError, RuntimeError, ValueError)


class ArchiveError(ValueError):
    """The archive is refused; the message names the problem (it is shown to the author)."""


@dataclass(frozen=True)
class ArchiveLimits:
    """Caps on what one archive may unpack to."""

    max_bytes: int = 50 * 2**20        # uncompressed total
    max_files: int = 2000              # entries, folders included
    max_file_bytes: int = 20 * 2**20   # one file, uncompressed


@dataclass(frozen=True)
class _Entry:
    """One archive member, as the format-specific readers describe it."""

    name: str
    is_dir: bool
    size: int                  # declared uncompressed size (0 for a folder)
    executable: bool
    open: Callable[[], BinaryIO] | None   # the data, for a file


def unpack(data: bytes, dest: Path, limits: ArchiveLimits = ArchiveLimits()) -> Path:
    """Unpack a .zip or .tar(.gz) held in ``data`` into the empty folder ``dest`` (created if
    missing); return the folder holding ``bot.toml``: ``dest`` itself, or the archive's single
    top-level folder. Raises :class:`ArchiveError` for anything wrong with the archive
    (what was written so far stays in ``dest``; the caller discards it) and ``ValueError`` if
    ``dest`` is not an empty folder."""
    dest.mkdir(parents=True, exist_ok=True)
    if any(dest.iterdir()):
        raise ValueError(f"{dest}: not an empty folder")
    entries = _zip_entries(data) if data[:2] == b"PK" else _tar_entries(data)
    seen: dict[PurePosixPath, bool] = {}   # path -> is a folder
    total = 0
    with _reading("the archive"):
        for count, entry in enumerate(entries, start=1):
            if count > limits.max_files:
                raise ArchiveError(f"more than {limits.max_files} entries (the limit)")
            path = _checked_name(entry.name)
            if path is None:
                continue  # "." or "./": the destination itself
            _claim(seen, path, entry.is_dir)
            if entry.is_dir:
                _mkdir(dest, path)
                continue
            if entry.size > limits.max_file_bytes:
                raise ArchiveError(f"{path}: {entry.size} bytes, over the limit of {limits.max_file_bytes} per file")
            if total + entry.size > limits.max_bytes:
                raise ArchiveError(f"{path}: the files add up to more than {limits.max_bytes} bytes (the limit)")
            room = min(limits.max_file_bytes, limits.max_bytes - total)
            total += _write(dest, path, entry, room, limits)
    return _manifest_folder(dest, seen)


@contextmanager
def _reading(what: str) -> Iterator[None]:
    """Turn what a broken or hostile stream raises into an :class:`ArchiveError`."""
    try:
        yield
    except ArchiveError:
        raise
    except _READ_ERRORS as error:
        if isinstance(error, OSError) and error.errno in (errno.ENOSPC, errno.EDQUOT, errno.EACCES, errno.EROFS):
            raise  # the arena's disk, not the archive
        raise ArchiveError(f"{what} is damaged or not a zip or tar archive ({error})") from None


def _zip_entries(data: bytes) -> Iterator[_Entry]:
    with _reading("the zip archive"):
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    for info in infos:
        kind = stat.S_IFMT(info.external_attr >> 16)
        if kind not in (0, stat.S_IFREG, stat.S_IFDIR):
            raise ArchiveError(f"{info.filename}: {_KIND_NAMES.get(kind, 'a special file')}; "
                               f"only regular files and folders are allowed")
        if info.flag_bits & 0x1:
            raise ArchiveError(f"{info.filename}: encrypted entries are not allowed")
        yield _Entry(info.filename, info.is_dir(), info.file_size, bool((info.external_attr >> 16) & 0o111),
                     (lambda info=info: archive.open(info)))


_KIND_NAMES = {stat.S_IFLNK: "a symlink", stat.S_IFCHR: "a device", stat.S_IFBLK: "a device",
               stat.S_IFIFO: "a fifo", stat.S_IFSOCK: "a socket"}


def _tar_entries(data: bytes) -> Iterator[_Entry]:
    # Stream mode ("r|*"): members are read strictly in order, so a member's data is only
    # decompressed when it is written, and a refused member stops everything.
    with _reading("the archive"):
        archive = tarfile.open(fileobj=io.BytesIO(data), mode="r|*", tarinfo=_BoundedTarInfo)
    with archive:
        for member in archive:
            if member.issym() or member.islnk():
                raise ArchiveError(f"{member.name}: a {'symlink' if member.issym() else 'hardlink'} "
                                   f"(to {member.linkname}); links are not allowed")
            if member.issparse() or not (member.isfile() or member.isdir()):
                what = "a fifo" if member.isfifo() else "a device" if member.isdev() else "a special file"
                raise ArchiveError(f"{member.name}: {what}; only regular files and folders are allowed")
            yield _Entry(member.name, member.isdir(), member.size, bool(member.mode & 0o111),
                         (lambda member=member: archive.extractfile(member)))


class _BoundedTarInfo(tarfile.TarInfo):
    """A tar header whose extensions are checked before :mod:`tarfile` reads them whole.

    ``_proc_member`` is where tarfile (3.11 to 3.13) turns to the reader of each header kind,
    once the 512-byte header block is parsed and before the extension's data is read; the
    public ``tarinfo=`` argument of :func:`tarfile.open` is the way in."""

    def _proc_member(self, archive: tarfile.TarFile):  # noqa: ANN202 - tarfile's own signature
        chain = getattr(archive, "_arena_extensions", 0)
        if self.type in (tarfile.GNUTYPE_LONGNAME, tarfile.GNUTYPE_LONGLINK):
            what = "long name" if self.type == tarfile.GNUTYPE_LONGNAME else "long link name"
            if self.size > NAME_MAX_BYTES:
                raise ArchiveError(f"a GNU {what} of {self.size} bytes, over the limit of {NAME_MAX_BYTES} "
                                   f"(a path is at most {NAME_MAX_BYTES} bytes)")
        elif self.type in (tarfile.XHDTYPE, tarfile.XGLTYPE, tarfile.SOLARIS_XHDTYPE):
            if self.size > PAX_MAX_BYTES:
                raise ArchiveError(f"a pax header of {self.size} bytes, over the limit of {PAX_MAX_BYTES}")
        elif self.type == tarfile.GNUTYPE_SPARSE:  # its map of blocks has no bound; refused anyway
            raise ArchiveError(f"{_shown(self.name)}: a sparse file; only regular files and folders are allowed")
        else:
            archive._arena_extensions = 0
            return super()._proc_member(archive)
        if chain >= EXTENSIONS_MAX:
            raise ArchiveError(f"more than {EXTENSIONS_MAX} extension headers (pax, GNU long names) in a row")
        archive._arena_extensions = chain + 1
        return super()._proc_member(archive)


def _shown(name: str) -> str:
    """``name`` as an error message shows it: quoted, and cut to its first 200 characters."""
    return repr(name[:200]) + ("..." if len(name) > 200 else "")


def _checked_name(name: str) -> PurePosixPath | None:
    """The entry's relative path, or ``None`` for the archive's own top (``./``)."""
    size = len(name.encode("utf-8", "surrogateescape"))
    if size > NAME_MAX_BYTES:
        raise ArchiveError(f"{_shown(name)}: a name of {size} bytes, over the limit of {NAME_MAX_BYTES}")
    shown = repr(name)
    if any(ord(char) < 32 or ord(char) == 127 for char in name):
        raise ArchiveError(f"{shown}: control characters (or NUL) in a name")
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        raise ArchiveError(f"{shown}: the name is not valid UTF-8") from None
    if name.startswith("/"):
        raise ArchiveError(f"{name}: an absolute path; entries must be relative to the archive's top")
    parts = [part for part in name.split("/") if part not in ("", ".")]
    if ".." in parts:
        raise ArchiveError(f"{name}: '..' in a path; entries must stay inside the archive's top")
    return PurePosixPath(*parts) if parts else None


def _claim(seen: dict[PurePosixPath, bool], path: PurePosixPath, is_dir: bool) -> None:
    """Record ``path``; refuse a second entry for it, or a file where a folder must be."""
    for parent in list(path.parents)[:-1]:  # the last is ".", the destination itself
        if seen.get(parent) is False:
            raise ArchiveError(f"{path}: {parent} is a file earlier in the archive")
        seen.setdefault(parent, True)
    if path in seen and not (is_dir and seen[path]):
        raise ArchiveError(f"{path}: appears twice in the archive (or as both a file and a folder)")
    seen[path] = is_dir


def _mkdir(dest: Path, path: PurePosixPath) -> Path:
    folder = dest.joinpath(*path.parts)
    try:
        folder.mkdir(mode=0o755, parents=True, exist_ok=True)
    except OSError as error:
        if error.errno != errno.ENAMETOOLONG:
            raise
        raise ArchiveError(f"{path}: the name is too long") from None
    return folder


def _write(dest: Path, path: PurePosixPath, entry: _Entry, room: int, limits: ArchiveLimits) -> int:
    """Write one file, counting the bytes as they stream; returns how many were written.
    ``room``: the most this file may hold (the per-file or remaining total limit)."""
    if path.parent != PurePosixPath("."):
        _mkdir(dest, path.parent)
    target = dest.joinpath(*path.parts)
    try:
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                     0o755 if entry.executable else 0o644)
    except OSError as error:
        if error.errno != errno.ENAMETOOLONG:
            raise
        raise ArchiveError(f"{path}: the name is too long") from None
    written = 0
    with os.fdopen(fd, "wb") as out:
        os.fchmod(fd, 0o755 if entry.executable else 0o644)  # whatever the umask
        assert entry.open is not None
        with _reading(str(path)), entry.open() as source:
            while chunk := source.read(_CHUNK):
                written += len(chunk)
                if written > room:
                    which = ("per file" if room == limits.max_file_bytes
                             else f"in total ({limits.max_bytes} bytes)")
                    raise ArchiveError(f"{path}: unpacks to more than its declared {entry.size} bytes "
                                       f"and past the limit {which}")
                out.write(chunk)
    return written


def _manifest_folder(dest: Path, seen: dict[PurePosixPath, bool]) -> Path:
    top = PurePosixPath(MANIFEST)
    if seen.get(top) is False:
        return dest
    roots = {path.parts[0] for path in seen}
    if len(roots) == 1:
        [root] = roots
        if seen.get(PurePosixPath(root, MANIFEST)) is False:
            return dest / root
    raise ArchiveError(f"no {MANIFEST} at the top of the archive or in its single top-level folder")
