"""Vetting a ladder's submissions: each stored one unpacked, built and checked, off the request path.

:func:`arena.ladder._intake.admit` on each pending submission, oldest first (unpack, build,
check-bot). A passed version enters (each author's newest ``active_versions`` stay active); a
refused one keeps its report and loses its folder. A submission whose vetting was cut short by
a kill is still ``pending`` in the store, so it is vetted again on restart, up to
:data:`VETTING_ATTEMPTS` times in all.

No error in vetting one submission ends the ladder: one that is the arena's (a full disk, no
free uid) is retried after :data:`RETRY_VETTING_S`; any other refuses that submission, saying so
in its report (the traceback goes to the log), and the vetting goes on with the next. Removing
a folder, whatever a build left in it, is iterative and runs in a worker thread
(:func:`arena.ladder._tree.remove_tree`).
"""

from __future__ import annotations

import errno
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import trio

from ..sandbox import Sandbox, UidError
from ._build import BuildCaps
from ._config import LadderConfig
from ._intake import admit
from ._store import DETAIL_MAX, LadderStore, cap_text
from ._tree import disk_usage, remove_tree

#: A vetting that failed on the arena's side (not the submission's) is tried again after this.
RETRY_VETTING_S = 10.0
#: A submission whose vetting started this many times without a verdict (the server was
#: killed while vetting it, each time) is refused instead of being vetted again.
VETTING_ATTEMPTS = 3
#: A full disk is the arena's problem, not the submission's: the vetting is tried again later.
_DISK_FULL = (errno.ENOSPC, errno.EDQUOT)


def hide_submissions(sandbox: Sandbox, workdir: Path) -> Sandbox:
    """``sandbox`` hiding the submissions' folder ``workdir``: under bubblewrap a bot sees its
    own submission only (the sandbox shows a bot the entry of a hidden folder that holds its
    own), not the code of the other authors, nor of a submission unpacked or vetted after it
    started."""
    return sandbox.with_hidden([workdir] if workdir.is_dir() else [])


@dataclass
class Vetting:
    """Vets the pending submissions of ``store`` (the writer connection), one at a time;
    ``admitted()`` is called after a batch in which one passed (the active set changed)."""

    config: LadderConfig
    store: LadderStore
    workdir: Path
    #: what vetting runs in: a sandbox mode, or the server's sandbox hiding the ladder's files;
    #: each vetting also hides the other submissions' folders (:func:`hide_submissions`)
    sandbox: str | Sandbox
    admitted: Callable[[], None]
    _submitted: trio.Event = field(default_factory=trio.Event)

    def submitted(self) -> None:
        """A submission was stored: wake the vetting task."""
        self._submitted.set()

    async def run(self) -> None:
        """Vet until cancelled: the pending submissions, oldest first, then each one stored."""
        await trio.to_thread.run_sync(self._sweep_refused)
        while True:
            pending = self.store.pending()
            if not pending:
                await self._submitted.wait()
                self._submitted = trio.Event()
                continue
            admitted = False
            for submission, entrant, archive in pending:
                verdict = await self._vet(submission, entrant, archive)
                if verdict is None:  # the arena's side: later, from the oldest again
                    await trio.sleep(RETRY_VETTING_S)
                    break
                admitted = admitted or verdict
            if admitted:
                # Once per batch: each change of the active set restarts the workers' bot pools.
                self.store.activate(self.config.active_versions)
                self.admitted()

    async def _vet(self, submission: int, entrant: str, archive: bytes) -> bool | None:
        """Vet one submission and store the verdict: whether it passed; ``None`` if the arena
        could not vet it now (then it stays pending). Raises nothing but cancellation."""
        folder = self.workdir / str(submission)
        attempts = self.store.start_vetting(submission)
        try:
            await trio.to_thread.run_sync(_empty_folder, folder)
            if attempts > VETTING_ATTEMPTS:
                admission = None
                report = (f"not checked: its check was cut short {attempts - 1} times (the ladder stopped while "
                          f"checking it); tell the organiser")
            else:
                box = self.sandbox if isinstance(self.sandbox, str) else hide_submissions(self.sandbox, self.workdir)
                caps = BuildCaps(max_bytes=self.config.build_max_bytes, max_files=self.config.build_max_files)
                admission = await admit(archive, folder, self.config.game, self.config.players,
                                        build_timeout_s=self.config.build_timeout_s, sandbox=box, caps=caps,
                                        time_control=self.config.play.settings.time_control)
                report = admission.report
        except (UidError, OSError) as error:
            if isinstance(error, OSError) and error.errno not in _DISK_FULL:
                return await self._refuse(submission, entrant, folder, error)
            print(f"warning: vetting {entrant} failed on the arena's side ({error}); trying again "
                  f"in {RETRY_VETTING_S:.0f} s", file=sys.stderr)
            self.store.start_vetting(submission, -1)  # not the submission's doing
            return None
        except Exception as error:  # noqa: BLE001 - whatever a submission makes happen, the ladder goes on
            return await self._refuse(submission, entrant, folder, error)
        passed = admission is not None and admission.passed and admission.bot_dir is not None
        manifest = admission.bot_dir / "bot.toml" if passed else None
        if not passed:  # before the verdict: whoever reads it finds the folder gone
            await self._remove(folder)
        size = await trio.to_thread.run_sync(disk_usage, folder) if passed else 0
        self.store.decide(submission, passed, report, manifest, size)
        return passed

    async def _refuse(self, submission: int, entrant: str, folder: Path, error: BaseException) -> bool:
        """Refuse a submission whose vetting raised ``error``; the traceback goes to the log."""
        detail = cap_text(f"{type(error).__name__}: {error}", DETAIL_MAX // 4)
        print(f"warning: vetting {entrant} raised {detail}; it is refused\n"
              + "".join(traceback.format_exception(error)), file=sys.stderr)
        await self._remove(folder)
        self.store.decide(submission, False, f"not checked: the ladder failed while checking it ({detail}); "
                                             f"tell the organiser", None)
        return False

    async def _remove(self, folder: Path) -> None:
        """Remove a refused submission's folder (its report stays in the store)."""
        try:
            await trio.to_thread.run_sync(remove_tree, folder)
        except OSError as error:
            print(f"warning: cannot remove {folder} ({error.strerror or error})", file=sys.stderr)

    def _sweep_refused(self) -> None:
        """Remove the folders that refused submissions left (before they were removed at once)."""
        for submission in self.store.failed():
            try:
                remove_tree(self.workdir / str(submission))
            except OSError as error:
                print(f"warning: cannot remove {self.workdir / str(submission)} ({error.strerror or error})",
                      file=sys.stderr)


def _empty_folder(folder: Path) -> None:
    """Make ``folder`` an empty folder that bots (other uids) can enter (what a killed vetting
    left in it is removed, however deep)."""
    remove_tree(folder)
    folder.mkdir(parents=True)
    folder.chmod(0o755)
