"""The machine's sandbox warnings, taken out of a command's stderr so that a test asserts its own lines.

``arena tournament run`` and ``resume`` (``arena/cli/_tournament.py``) and ``arena ladder serve``
(``arena/ladder/_app.py``) start a run with a warning line for each protection this machine does
not give the bots: ``warning: without bubblewrap ...`` where bots run without bubblewrap (as
the arena's own user when it is not root) and ``warning: missing protections (...`` where some
cgroup controller cannot be used (not root, or not delegated; ``arena/sandbox/_open.py``).
Which of them appear depends on who runs the tests and where, not on what a test does: as root
on a machine with bubblewrap and cgroups there are none, as a normal user one or two. A test of a command's own
output (one ``error:`` line, an ``interrupted:`` line, a warning of its own) compares what is left
once they are removed, so it checks the same lines as root and as a normal user; a test of these
warnings themselves (``tests/arena/ladder/test_vetting.py``) compares them to
:func:`cgroups_warning_here` and the bubblewrap line expected for its user.
"""

from __future__ import annotations

#: how each of the machine's sandbox warnings starts, and no other line of the arena's
SANDBOX_WARNINGS = ("warning: without bubblewrap", "warning: missing protections (")


def sandbox_warnings(stderr: str) -> list[str]:
    """The machine's sandbox warning lines of ``stderr``, in order, without their newlines."""
    return [line for line in stderr.splitlines() if line.startswith(SANDBOX_WARNINGS)]


def without_sandbox_warnings(stderr: str) -> str:
    """``stderr`` without the machine's sandbox warning lines; every other line is kept as it
    was, newline included, so ``== "error: ...\\n"`` and ``count("\\n")`` still hold.

    Fails the test when one kind of sandbox warning appears more than once: a run says each
    once, before its games, so a second is a fault of the command's, not of the machine."""
    found = sandbox_warnings(stderr)
    for prefix in SANDBOX_WARNINGS:
        assert sum(line.startswith(prefix) for line in found) <= 1, stderr
    return "".join(line for line in stderr.splitlines(keepends=True) if not line.startswith(SANDBOX_WARNINGS))


def cgroups_warning_here(mode: str = "none") -> list[str]:
    """The ``missing protections`` line a run with ``--sandbox MODE`` prints on this machine, as
    this test's user, in a list; ``[]`` where every cgroup protection is there."""
    from arena.sandbox._open import cgroups_warning, open_sandbox

    with open_sandbox(mode) as sandbox:
        line = cgroups_warning(sandbox)
    return [] if line is None else [line]
