"""The ladder server: a Starlette app on Hypercorn's trio worker, and the runner beside it.

Why this stack: the match runner, the workers' coordinator and the bot pools are trio code.
Hypercorn serves ASGI on trio natively (``hypercorn.trio.serve``), so the web server, the
vetting of submissions, the games and the rating fits run as tasks of *one* trio nursery in
one process, with no thread or second event loop between them; Starlette is a small ASGI
toolkit that runs on any ASGI event loop (it uses anyio, which runs on trio). Games are
played on worker processes, so a slow page never runs inside a bot's timed window.

Routes: ``/`` (leaderboard), ``/bots/NAME`` (a version or an author), ``/games``,
``/games/ID`` (the replay viewer), ``/submit`` (form), ``/submissions/ID``, and the same as
JSON under ``/api/`` (``/api/leaderboard``, ``/api/bots/NAME``, ``/api/games?bot=``,
``/api/games/ID``, ``/api/submissions/ID``, and ``POST /api/submissions``).
"""

from __future__ import annotations

import stat
import sys
from collections.abc import Callable
from pathlib import Path

import trio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from ..tournament import ConfigError
from . import _api, _pages
from ._config import LadderConfig
from ._serving import start_serving
from ._store import LadderStore, SubmissionRefused
from ._upload import drain, read_body

#: Multipart framing and the token field, on top of the archive's own size.
_FORM_SLACK = 64 * 1024
#: the most digits of an id in a URL, or of ``offset`` and ``limit``: SQLite's integers stop
#: at 2**63, and a longer number is no row's
_DIGITS_MAX = 15


def _bearer(request: Request) -> str | None:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def _number(text: str) -> int | None:
    """``text`` as a row id or count (decimal digits, at most :data:`_DIGITS_MAX`), or None."""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= _DIGITS_MAX else None


class Ladder:
    """The app's state: the reading connection, the limits, how to wake the vetting, and which
    duplicate blocks are still in play (their games are not shown yet)."""

    def __init__(self, store: LadderStore, config: LadderConfig, submitted: Callable[[], None],
                 in_play: Callable[[], frozenset[str]] = frozenset) -> None:
        self.store = store
        self.config = config
        self.submitted = submitted
        self.in_play = in_play

    async def accept(self, request: Request, token: str | None) -> tuple[int, str]:
        """Store an uploaded archive as a new version of the token's author (``token``: the
        bearer token; ``None``: the form's ``token`` field, its first). The token and the
        author's limits are checked before the archive is read. Raises
        :class:`HTTPException` 401 (bad token), 429 (over a limit), 413 (too large) or 400
        (no archive)."""
        limit = self.config.max_upload_bytes + _FORM_SLACK
        try:
            if token is not None:
                author = self._author(token)
                await read_body(request, limit)
            else:
                author = await read_body(request, limit, token_field=self._author)
        except HTTPException:
            await drain(request)  # so that a client still sending reads the refusal
            raise
        async with request.form(max_files=1, max_fields=4) as form:
            upload = form.get("archive")
            if upload is None or isinstance(upload, str):
                raise HTTPException(400, "the form needs the archive as the file field 'archive'")
            data = await upload.read()
        if len(data) > self.config.max_upload_bytes:
            raise HTTPException(413, f"the archive is larger than {self.config.max_upload_bytes // 2**20} MiB")
        if not data:
            raise HTTPException(400, "the archive is empty")
        try:
            number, entrant = self.store.add_submission(author, data, limits=self._limits())
        except SubmissionRefused as refusal:  # another upload of the author's came first
            raise HTTPException(429, str(refusal)) from None
        self.submitted()
        return number, entrant

    def _limits(self) -> tuple[int, int, int]:
        return (self.config.submissions_per_hour, self.config.max_pending_submissions,
                self.config.author_disk_bytes)

    def _author(self, token: str) -> str:
        """The token's author, if it may submit now; else 401 or 429."""
        author = self.store.author_of(token) if token else None
        if author is None:
            raise HTTPException(401, "a valid token is required (ask the organiser: arena ladder token add LADDER NAME)")
        refusal = self.store.submission_limit(author, *self._limits())
        if refusal is not None:
            raise HTTPException(429, refusal)
        return author

    # -- JSON -----------------------------------------------------------------------------------

    async def api_submit(self, request: Request) -> Response:
        number, entrant = await self.accept(request, _bearer(request) or "")
        return JSONResponse({"id": number, "entrant": entrant, "status": "pending",
                             "url": f"/submissions/{number}"}, status_code=202)

    async def api_leaderboard(self, request: Request) -> Response:
        return JSONResponse(_api.leaderboard(self.store, self.in_play()))

    async def api_bot(self, request: Request) -> Response:
        return JSONResponse(self._bot(request))

    async def api_games(self, request: Request) -> Response:
        return JSONResponse(self._games(request))

    async def api_game(self, request: Request) -> Response:
        meta, replay = self._game(request)
        return JSONResponse({**meta, "replay": replay})

    async def api_submission(self, request: Request) -> Response:
        return JSONResponse(self._submission(request))

    # -- HTML -----------------------------------------------------------------------------------

    async def leaderboard(self, request: Request) -> Response:
        return HTMLResponse(_pages.leaderboard_page(_api.leaderboard(self.store, self.in_play())))

    async def bot(self, request: Request) -> Response:
        return HTMLResponse(_pages.bot_page(self._bot(request)))

    async def games(self, request: Request) -> Response:
        return HTMLResponse(_pages.games_page(self._games(request)))

    async def game(self, request: Request) -> Response:
        from engines import Replay

        from ..report import ViewError, viewer_html

        meta, replay = self._game(request)
        try:
            page = viewer_html(Replay.from_dict(replay), {**meta, "bots": meta["seats"]})
        except ViewError as error:
            raise HTTPException(500, f"this game's replay cannot be shown: {error}") from None
        return HTMLResponse(page)

    async def submit_form(self, request: Request) -> Response:
        return HTMLResponse(_pages.submit_page())

    async def submit(self, request: Request) -> Response:
        number, _ = await self.accept(request, None)  # the token is a field of the form
        return RedirectResponse(f"/submissions/{number}", status_code=303)

    async def submission(self, request: Request) -> Response:
        return HTMLResponse(_pages.submission_page(self._submission(request)))

    # -- helpers --------------------------------------------------------------------------------

    @staticmethod
    def _found(value, what: str):
        if value is None:
            raise HTTPException(404, what)
        return value

    def _bot(self, request: Request) -> dict:
        return self._found(_api.bot(self.store, request.path_params["name"], self.in_play()), "no such bot")

    def _game(self, request: Request) -> tuple[dict, dict]:
        number = self._found(_number(request.path_params["id"]), "no such game")
        # A game of a block in play answers as one that does not exist: anything else (even
        # "not shown yet") would tell a watcher which deal is being played right now.
        return self._found(self.store.game(number, self.in_play()), "no such game")

    def _submission(self, request: Request) -> dict:
        number = self._found(_number(request.path_params["id"]), "no such submission")
        return self._found(_api.submission(self.store, number), "no such submission")

    def _games(self, request: Request) -> dict:
        offset = _number(request.query_params.get("offset", "0"))
        limit = _number(request.query_params.get("limit", "50"))
        if offset is None or limit is None:
            raise HTTPException(400, f"offset and limit must be whole numbers of at most {_DIGITS_MAX} digits")
        bot = request.query_params.get("bot") or None
        if bot is not None and self.store.entrant(bot) is None:
            raise HTTPException(404, "no such bot")
        return _api.games(self.store, bot, offset, limit, self.in_play())


async def _error(request: Request, error: HTTPException) -> Response:
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": error.detail}, status_code=error.status_code)
    return HTMLResponse(_pages.error_page(error.status_code, error.detail), status_code=error.status_code)


def build_app(store: LadderStore, config: LadderConfig, submitted: Callable[[], None],
              in_play: Callable[[], frozenset[str]] = frozenset) -> Starlette:
    """The ASGI app over ``store`` (a reading connection); ``submitted()`` is called after a
    submission is stored; ``in_play()`` names the duplicate blocks not wholly stored yet,
    whose games are not shown (:meth:`arena.ladder._runner.LadderRunner.in_play`)."""
    ladder = Ladder(store, config, submitted, in_play)
    # Ids are matched as text and read by _number: Starlette's int convertor takes any length,
    # and SQLite raises OverflowError (a 500) for a number past 2**63.
    routes = [
        Route("/", ladder.leaderboard), Route("/bots/{name}", ladder.bot), Route("/games", ladder.games),
        Route("/games/{id}", ladder.game), Route("/submit", ladder.submit_form, methods=["GET"]),
        Route("/submit", ladder.submit, methods=["POST"]), Route("/submissions/{id}", ladder.submission),
        Route("/api/leaderboard", ladder.api_leaderboard), Route("/api/bots/{name}", ladder.api_bot),
        Route("/api/games", ladder.api_games), Route("/api/games/{id}", ladder.api_game),
        Route("/api/submissions", ladder.api_submit, methods=["POST"]),
        Route("/api/submissions/{id}", ladder.api_submission),
    ]
    return Starlette(routes=routes, exception_handlers={HTTPException: _error})


def _check_reachable(workdir: Path, config: LadderConfig) -> None:
    """Raise :class:`ConfigError` if a folder above the submissions' folder ``workdir`` is closed
    to other users: bots and builds run under their own uids (as root), so every submission
    would fail to start, for no fault of its author (and be vetted again and again)."""
    for folder in reversed(workdir.resolve().parents):
        mode = folder.stat().st_mode
        if not mode & 0o001:
            raise ConfigError(f"{folder}: other users cannot enter this folder (mode {stat.S_IMODE(mode):04o}), and "
                              f"the ladder's bots and builds run under their own uids: `chmod o+x {folder}`, or keep "
                              f"the ladder's file and database under a folder that others can enter")


async def serve_ladder(config: LadderConfig, sandbox_mode: str = "auto", allow_root: bool = False,
                       fit_every_s: float = 30.0) -> None:
    """Run the ladder until cancelled: the web server and the runner in one nursery.

    Prints ``ladder: serving GAME on URL`` on stderr once the port is bound.
    Raises :class:`arena.tournament._store.StoreError` for a database that is not this ladder's.
    """
    from ..sandbox import cgroups_warning, open_sandbox
    from ._executor import worker_executor
    from ._runner import LadderRunner

    database = config.database.resolve()
    logs = database.with_name(database.name + ".logs")
    workdir = database.with_name(database.name + ".bots")
    writer = LadderStore.open(database, config.game, config.players)
    reader = LadderStore.open(database)
    for folder, mode in ((logs, 0o700), (workdir, 0o755)):
        folder.mkdir(mode=mode, exist_ok=True)
    hidden = [config.path, database, Path(f"{database}-wal"), Path(f"{database}-shm"), logs]
    try:
        with open_sandbox(sandbox_mode, allow_root) as sandbox:
            if sandbox.bwrap is None and not sandbox.drop_privileges:
                print(f"warning: without bubblewrap (or root), bots run as your user: they can read {database} "
                      f"(the key of every deal) and the other authors' submissions; {sandbox.bwrap_advice()}",
                      file=sys.stderr)
            elif sandbox.bwrap is None:
                print("warning: without bubblewrap, bots and build steps (under their own uids) can read the other "
                      f"authors' submissions; {sandbox.bwrap_advice()}", file=sys.stderr)
            if sandbox.drop_privileges:
                _check_reachable(workdir, config)
            if cgroups_warning(sandbox):
                print(cgroups_warning(sandbox), file=sys.stderr)
            # The games and the vetting (build and check-bot) hide the same: the ladder's files
            # here, and every submission's folder but the bot's own (hide_submissions).
            ladder_box = sandbox.with_hidden(hidden)
            executor = worker_executor(config.play.workers, ladder_box, logs, workdir)
            runner = LadderRunner(config, writer, executor, workdir, ladder_box, fit_every_s, log_dir=logs)
            runner.enter_house_bots()
            async with trio.open_nursery() as nursery:
                app = build_app(reader, config, runner.submitted, runner.in_play)
                try:
                    url = await start_serving(nursery, app, config.host, config.port)
                except OSError as error:
                    raise ConfigError(f"{config.path}: cannot listen on {config.host}:{config.port} "
                                      f"({error.strerror or error}); choose another 'port' or --port") from None
                print(f"ladder: serving {config.game} on {url} (database {database})", file=sys.stderr, flush=True)
                nursery.start_soon(runner.run)
    finally:
        reader.close()
        writer.close()
