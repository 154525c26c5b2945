"""Each read-only folder of a bot's view as a filesystem mounted for that bot alone.

A folder bound into two bots' views is one set of inodes: its pages in the page cache, its
names in the dentry cache and the futexes on its mappings are the same for both, so one bot
can leave a mark there (look up a name nobody looked up, read a page) that the other times
(issue 32: 33,000-125,000 bits/s through the dentry cache, also from one rotation of a deal to
the next, when neither runs at once). Keeping every page resident (``_resident``) closes only
the page cache; the dentry cache cannot be filled in advance (the names a bot may look up and
not find are endless).

So, as root on Linux 6.12 or later, every folder bound read-only in a bot's view is an EROFS
image of it (made once per content, by ``mkfs.erofs`` from Debian's ``erofs-utils``), mounted
by the bot's own child in a mount namespace of its own just before bubblewrap runs
(:func:`mount_images`): a file-backed EROFS mount is a superblock of its own each time, with
its own inodes, dentries and page cache. What is shared between bots is the image file, whose
pages are locked in memory (``_resident``), so reading it tells a bot nothing.

An image is named by what its folder holds (every entry's name, kind, size, modification time,
owner, mode and inode), made under a lock by one arena process, and never changed. Images live
on disk, in :data:`IMAGES` (not under ``/run``, a tmpfs of a tenth of the memory on a usual
systemd machine), at most :data:`IMAGES_MAX` bytes of them: when another is made, images unused
for a day are removed (their folder changed, or its tournament is over), and then the least
recently used until the rest fit. Paths the organiser hides are left out of the image, not
covered. Folders that are the root or a top-level one (a build step's whole ``/usr``), or that
other users may not enter, are bound as they are (a bot's own uid could not read the latter).

Fail closed: a folder that cannot be an image (past the limits of ``_folders``: entries, bytes
counted once per inode, holes; or ``mkfs.erofs`` failed, the disk is full) refuses the bot
(:class:`~arena.sandbox._folders.ViewRefused`), never binds the folder as it is.
"""

from __future__ import annotations

import ctypes
import fcntl
import functools
import os
import platform
import shutil
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from ._folders import ViewRefused, survey

#: the first Linux whose EROFS mounts a regular file by itself (no loop device, whose block
#: device would be one superblock for every mount of it)
KERNEL = (6, 12)
#: images unused for this long are removed when another is made
STALE_S = 24 * 3600
#: where images are kept: on disk, as root (the only arena that makes them)
IMAGES = Path("/var/cache/pirate-arena/images")
#: the most bytes of images kept; past it the least recently used are removed (but those used
#: in the last :data:`IN_USE_S`, which another arena may be about to mount)
IMAGES_MAX = 16 << 30
IN_USE_S = 600

_CLONE_NEWNS = 0x00020000
_MS_RDONLY, _MS_NOSUID, _MS_NODEV, _MS_REC, _MS_PRIVATE = 1, 2, 4, 1 << 14, 1 << 18
_LIBC = ctypes.CDLL(None, use_errno=True)
_LIBC.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_void_p]
_LIBC.unshare.argtypes = [ctypes.c_int]


@dataclass(frozen=True)
class Image:
    """The image standing for ``source`` in a view: the ``file`` mounted at ``mount_point``."""

    source: Path
    file: Path
    mount_point: Path


def _kernel() -> tuple[int, int]:
    try:
        major, minor = platform.release().split(".")[:2]
        return int(major), int("".join(c for c in minor if c.isdigit()) or 0)
    except ValueError:
        return 0, 0


#: the probe :func:`images_missing` runs: mount a small image in a mount namespace of its own
_PROBE = r"""
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
if libc.unshare(0x20000) or libc.mount(b"none", b"/", None, (1 << 14) | (1 << 18), None):
    sys.exit("no private mount namespace: " + os.strerror(ctypes.get_errno()))
if libc.mount(sys.argv[1].encode(), sys.argv[2].encode(), b"erofs", 1 | 2 | 4, None):
    sys.exit("mounting an EROFS image failed: " + os.strerror(ctypes.get_errno()))
print(open(os.path.join(sys.argv[2], "probe")).read())
"""


@functools.cache
def images_missing() -> str | None:
    """Why bots' folders cannot be images of their own here, or ``None`` where they can (a
    real image mounted the way a bot's child mounts them, once per process)."""
    if os.geteuid() != 0:
        return "needs the arena to run as root"
    if _kernel() < KERNEL:
        return f"needs Linux {KERNEL[0]}.{KERNEL[1]} or later (EROFS mounting a file), this is {platform.release()}"
    if shutil.which("mkfs.erofs") is None:
        return "needs mkfs.erofs (apt-get install erofs-utils)"
    folder = _images_folder() / f".probe-{os.getpid()}"
    try:
        shutil.rmtree(folder, ignore_errors=True)
        (folder / "source").mkdir(parents=True)
        (folder / "source" / "probe").write_text("mounted")
        (folder / "mounted").mkdir()
        made = subprocess.run(["mkfs.erofs", "--quiet", "-x-1", str(folder / "image"), str(folder / "source")],
                              capture_output=True, text=True, timeout=30)
        if made.returncode != 0:
            return f"mkfs.erofs failed: {made.stderr.strip()[-200:]}"
        probe = subprocess.run([sys.executable, "-c", _PROBE, str(folder / "image"), str(folder / "mounted")],
                               capture_output=True, text=True, timeout=30)
        if probe.stdout.strip() != "mounted":
            return (probe.stderr.strip().splitlines() or ["the probe's image did not mount"])[-1]
        return None
    except (OSError, subprocess.SubprocessError) as error:
        return f"could not try an image: {error}"
    finally:
        shutil.rmtree(folder, ignore_errors=True)


#: where images were kept before (a tmpfs on most machines): emptied once per process
_LEGACY = Path("/run/pirate-arena/images")


def _images_folder() -> Path:
    # Mounted by root alone, but bubblewrap, running as a bot's uid, binds their mount points:
    # the folder is passed through, never listed.
    IMAGES.mkdir(mode=0o711, parents=True, exist_ok=True)
    if IMAGES.stat().st_mode & 0o777 != 0o711:
        IMAGES.chmod(0o711)
    if _LEGACY.is_dir():
        shutil.rmtree(_LEGACY, ignore_errors=True)  # a bot that has one mounted keeps it
    return IMAGES


def eligible(folder: Path) -> bool:
    """Whether ``folder`` may stand in a view as an image: not the root or a top-level folder,
    and one other users may enter (a bot could not read one they may not)."""
    if len(folder.parts) <= 2:
        return False
    try:
        mode = os.stat(folder).st_mode
    except OSError:
        return False
    return stat.S_ISDIR(mode) and bool(mode & 0o001)


#: images of folders that never change (a farm is named by its content), by folder
_UNCHANGING: dict[Path, Image] = {}


def image_of(folder: Path, left_out: Sequence[Path] = (), unchanging: bool = False) -> Image | None:
    """The image of ``folder`` without ``left_out`` (paths inside it the organiser hides), made
    if missing, or ``None`` where the folder is bound as it is (not :func:`eligible`).
    ``unchanging``: the folder's name says what it holds (a farm), so it is surveyed once per
    process. Raises :class:`ViewRefused` where it cannot be an image (module docstring)."""
    if unchanging and folder in _UNCHANGING:
        image = _UNCHANGING[folder]
        try:
            # Used again: the sweep keeps what was used in the last IN_USE_S. Without this, a
            # process running longer (a ladder, a long tournament) had its farm's image swept
            # once the images passed IMAGES_MAX, and every later start failed to mount it.
            os.utime(image.file)
            return image
        except FileNotFoundError:
            del _UNCHANGING[folder]  # swept meanwhile (its room was needed): made again
    if not eligible(folder):
        return None
    inside = [path for path in left_out if str(path).startswith(str(folder).rstrip("/") + "/")]
    key, _ = survey(folder, inside)
    images = _images_folder()
    image = Image(folder, images / f"{key}.erofs", images / f"{key}.d")
    if not image.file.exists():
        _make(image, inside)
    else:
        os.utime(image.file)
    if unchanging:
        _UNCHANGING[folder] = image
    return image


def _make(image: Image, left_out: Sequence[Path]) -> None:
    """Make ``image`` under a lock (another arena process may be making it). Raises
    :class:`ViewRefused` where ``mkfs.erofs`` fails (the disk is full, the folder changed)."""
    _sweep(image.file.parent)  # first: the room this one needs may be in images no one uses
    with open(image.file.with_suffix(".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if image.file.exists():
            return
        building = image.file.with_suffix(f".{os.getpid()}.{threading.get_ident()}.building")
        excluded = [f"--exclude-path={os.path.relpath(path, image.source)}" for path in left_out]
        try:
            made = subprocess.run(["mkfs.erofs", "--quiet", "-x-1", "--preserve-mtime", *excluded,
                                   str(building), str(image.source)], capture_output=True, text=True)
        except OSError as error:
            raise ViewRefused(f"{image.source}: no image could be made of it ({error.strerror or error})") from None
        if made.returncode != 0:
            building.unlink(missing_ok=True)
            said = (made.stderr.strip().splitlines() or [f"exit code {made.returncode}"])[-1]
            raise ViewRefused(f"{image.source}: no image could be made of it (mkfs.erofs: {said})")
        image.mount_point.mkdir(mode=0o755, exist_ok=True)
        os.chmod(building, 0o600)  # mounted by root; nobody else needs to read it
        building.rename(image.file)


def _sweep(images: Path, now: float | None = None) -> None:
    """Remove images unused for :data:`STALE_S`, then the least recently used while all of them
    hold more than :data:`IMAGES_MAX` bytes, but those used in the last :data:`IN_USE_S` (a bot
    that has one mounted keeps it: the mount holds the file)."""
    now = time.time() if now is None else now
    kept = []
    for entry in images.glob("*.erofs"):
        try:
            info = entry.stat()
        except OSError:
            continue
        if now - info.st_mtime > STALE_S:
            _remove(entry)
        else:
            kept.append((info.st_mtime, info.st_blocks * 512, entry))
    total = sum(size for _, size, _ in kept)
    for used, size, entry in sorted(kept):
        if total <= IMAGES_MAX or now - used < IN_USE_S:
            break
        _remove(entry)
        total -= size


def _remove(image: Path) -> None:
    try:
        image.unlink()
        image.with_suffix(".lock").unlink(missing_ok=True)
        shutil.rmtree(image.with_suffix(".d"), ignore_errors=True)
    except OSError:
        pass


def mount_images(images: Sequence[Image]) -> None:
    """In a bot's child before it runs bubblewrap (as root): a mount namespace of its own, and
    each image mounted read-only at its mount point there. Raises ``OSError``."""
    if not images:
        return
    if _LIBC.unshare(_CLONE_NEWNS) != 0 or _LIBC.mount(b"none", b"/", None, _MS_REC | _MS_PRIVATE, None) != 0:
        error = ctypes.get_errno()
        raise OSError(error, f"no mount namespace of its own: {os.strerror(error)}")
    mounted = set()
    for image in images:
        if image.mount_point in mounted:
            continue  # two folders holding the same: one image, mounted once
        mounted.add(image.mount_point)
        if _LIBC.mount(os.fsencode(image.file), os.fsencode(image.mount_point), b"erofs",
                       _MS_RDONLY | _MS_NOSUID | _MS_NODEV, None) != 0:
            error = ctypes.get_errno()
            raise OSError(error, f"could not mount the image of {image.source}: {os.strerror(error)}")


#: how many words each of the options :func:`arena.sandbox._view.view` gives takes, itself included
_WIDTH = {"--ro-bind": 3, "--ro-bind-try": 3, "--bind": 3, "--symlink": 3, "--dev": 2, "--proc": 2,
          "--tmpfs": 2, "--size": 2, "--remount-ro": 2}


def _options(arguments: Sequence[str]) -> Iterator[list[str]]:
    """The options of view ``arguments`` one at a time, each with its words."""
    index = 0
    while index < len(arguments):
        option = arguments[index]
        if option not in _WIDTH:
            raise ValueError(f"not an option of a view: {option!r}")
        yield list(arguments[index:index + _WIDTH[option]])
        index += _WIDTH[option]


def bound(arguments: Sequence[str]) -> list[tuple[str, str]]:
    """The (host path, place in the view) of every read-only bind in view ``arguments``."""
    return [(words[1], words[2]) for words in _options(arguments) if words[0] in ("--ro-bind", "--ro-bind-try")]


def through_images(arguments: Sequence[str], images: Sequence[Image]) -> list[str]:
    """bubblewrap's view ``arguments`` (:func:`arena.sandbox._view.view`) with each folder that
    has an image bound from where its image is mounted instead, and the covers of hidden paths
    inside such a folder dropped (its image left them out)."""
    by_source = {str(image.source): image for image in images}
    imaged: list[str] = []  # the places of the view that images show, as they are on the host
    result: list[str] = []
    for words in _options(arguments):
        option = words[0]
        if option in ("--ro-bind", "--ro-bind-try") and words[1] in by_source:
            if words[1] == words[2]:
                imaged.append(words[2])
            words[1] = str(by_source[words[1]].mount_point)
        elif option == "--tmpfs" or (option == "--ro-bind" and words[1] == "/dev/null"):
            if any(words[-1].startswith(place.rstrip("/") + "/") for place in imaged):
                continue  # a hidden path the image left out
        result += words
    return result
