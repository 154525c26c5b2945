"""Which sandbox this machine supports: each protection probed once at start
(:func:`detect_sandbox`), bubblewrap run as bots will run it."""

from __future__ import annotations

import os
import platform
import shutil
import signal
import stat
import subprocess

from ._cgroups import find_cgroups
from ._images import images_missing
from ._mounts import namespaces_work
from ._sandbox import Sandbox
from ._seccomp import bot_filter, probe
from ._sysinfo import answered_here
from ._userns import enter_own_namespace, own_namespaces_work


#: the uid the bubblewrap probe runs as when the arena is root (bots run bwrap unprivileged)
_PROBE_UID = 65534


def _probe_bwrap(path: str, sizes: bool = False, own_namespace: bool = False, limit_s: float = 60.0) -> bool:
    """Whether bubblewrap works here, as bots will run it: unprivileged (as ``nobody`` when the
    arena is root; a kernel without unprivileged user namespaces fails only then), inside a
    user namespace of its own where ``own_namespace`` (``_userns``); ``sizes``: with a
    size-capped tmpfs (``--size``, bubblewrap 0.5 and later); ``limit_s``: how long it may take.
    """
    user = {"user": _PROBE_UID, "group": _PROBE_UID, "extra_groups": []} if os.geteuid() == 0 else {}
    size = ["--size", str(2**20)] if sizes else []
    inside = {"preexec_fn": enter_own_namespace} if own_namespace else {}
    try:
        probe = subprocess.Popen(
            [path, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", *size, "--tmpfs", "/tmp",
             "--unshare-all", "--die-with-parent", "--", "/bin/true"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd="/",
            start_new_session=True, **user, **inside,
        )
    except OSError:
        return False
    # It takes milliseconds; a minute on a machine loaded enough to starve it (10 s were not
    # enough at load 20, and the arena then ran without bubblewrap). Past that, its whole group:
    # the sandbox's init, left by a bubblewrap killed alone, waited for it forever.
    try:
        return probe.wait(timeout=limit_s) == 0
    except subprocess.TimeoutExpired:
        os.killpg(probe.pid, signal.SIGKILL)
        probe.wait()
        return False


def detect_sandbox(mode: str = "auto", allow_root: bool = False) -> Sandbox:
    """The strongest sandbox this machine supports.

    ``mode``: ``"auto"`` (use bubblewrap if it works), ``"bwrap"`` (require it; raises
    ``RuntimeError`` if it does not work), ``"strict"`` (require every protection of
    :meth:`Sandbox.describe`, the prize recipe; raises ``RuntimeError`` naming those missing
    here), ``"none"`` (limits and uid only).
    ``allow_root``: run as root the bots that cannot have their own uid, instead of refusing.
    """
    if mode not in ("auto", "bwrap", "strict", "none"):
        raise ValueError(f"sandbox mode must be auto, bwrap, strict or none, got {mode!r}")
    if mode == "strict":
        sandbox = detect_sandbox("bwrap", allow_root)
        missing = [name for name, active, _ in sandbox.describe() if not active]
        if missing:
            sandbox.close()
            raise RuntimeError(f"--sandbox strict: {len(missing)} protection(s) missing here ({'; '.join(missing)}); "
                               f"`arena doctor` says how to get each")
        return sandbox
    bwrap, sizes, declined = None, False, None
    own = own_namespaces_work()
    if mode == "none":
        declined = shutil.which("bwrap")
    else:
        path = shutil.which("bwrap")
        if path and own and not _probe_bwrap(path, own_namespace=True):
            own = False  # bubblewrap works only outside one: its process cap is reported missing
        if path and _probe_bwrap(path, own_namespace=own):
            bwrap = path
            sizes = _probe_bwrap(path, sizes=True, own_namespace=own)
        elif mode == "bwrap":
            raise RuntimeError("bubblewrap is required but does not work here (apt-get install bubblewrap)")
    cgroups = find_cgroups()
    if cgroups is not None:
        cgroups.sweep_stale()
    root = os.geteuid() == 0
    program = bot_filter()
    missing = probe(program) if program is not None else (
        f"no system-call table for {platform.machine()} here (x86_64 and aarch64 have one)")
    if bwrap is not None and os.stat(bwrap).st_mode & stat.S_ISUID:
        sysinfo = "bubblewrap is set-uid here, and the filter needs no_new_privs, under which it would not be"
    else:
        sysinfo = answered_here()
    sandbox = Sandbox(bwrap=bwrap, drop_privileges=root, bwrap_sizes=sizes, cgroups=cgroups,
                      namespaces=root and namespaces_work(), allow_root=allow_root, private_network=root,
                      own_namespaces=own, bwrap_declined=declined, sysinfo_missing=sysinfo,
                      seccomp=program if missing is None else None, seccomp_missing=missing or "",
                      images_missing=images_missing() if bwrap is not None else "needs bubblewrap")
    if sandbox.loopback is None:
        sandbox.private_network = False
    return sandbox
