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

import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path

import trio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from ..tournament._config import ConfigError
from . import _api, _pages
from ._config import LadderConfig
from ._store import LadderStore

#: Multipart framing and the token field, on top of the archive's own size.
_FORM_SLACK = 64 * 1024


async def _read_body(request: Request, limit: int) -> None:
    """Read the request body, refusing (413) one over ``limit`` bytes before reading it all."""
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > limit:
        raise HTTPException(413, f"the upload is larger than {limit // 2**20} MiB")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise HTTPException(413, f"the upload is larger than {limit // 2**20} MiB")
        chunks.append(chunk)
    request._body = b"".join(chunks)  # Starlette's own cache: form() parses it from here


def _bearer(request: Request) -> str | None:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


class Ladder:
    """The app's state: the reading connection, the limits, and how to wake the vetting."""

    def __init__(self, store: LadderStore, config: LadderConfig, submitted: Callable[[], None]) -> None:
        self.store = store
        self.config = config
        self.submitted = submitted

    async def accept(self, request: Request, token: str | None) -> tuple[int, str]:
        """Store an uploaded archive as a new version of the token's author (``token``: the
        bearer token; ``None``: the form's ``token`` field); raises :class:`HTTPException`
        401 (bad token), 413 (too large) or 400 (no archive)."""
        if token is not None:
            self._author(token)  # refused before the body is read
        await _read_body(request, self.config.max_upload_bytes + _FORM_SLACK)
        async with request.form(max_files=1, max_fields=4) as form:
            if token is None:
                field = form.get("token")
                token = field if isinstance(field, str) else ""
            author = self._author(token)
            upload = form.get("archive")
            if upload is None or isinstance(upload, str):
                raise HTTPException(400, "the form needs the archive as the file field 'archive'")
            data = await upload.read()
        if len(data) > self.config.max_upload_bytes:
            raise HTTPException(413, f"the archive is larger than {self.config.max_upload_bytes // 2**20} MiB")
        if not data:
            raise HTTPException(400, "the archive is empty")
        number, entrant = self.store.add_submission(author, data)
        self.submitted()
        return number, entrant

    def _author(self, token: str) -> str:
        author = self.store.author_of(token) if token else None
        if author is None:
            raise HTTPException(401, "a valid token is required (ask the organiser: arena ladder token add LADDER NAME)")
        return author

    # -- JSON -----------------------------------------------------------------------------------

    async def api_submit(self, request: Request) -> Response:
        number, entrant = await self.accept(request, _bearer(request) or "")
        return JSONResponse({"id": number, "entrant": entrant, "status": "pending",
                             "url": f"/submissions/{number}"}, status_code=202)

    async def api_leaderboard(self, request: Request) -> Response:
        return JSONResponse(_api.leaderboard(self.store))

    async def api_bot(self, request: Request) -> Response:
        return JSONResponse(self._found(_api.bot(self.store, request.path_params["name"]), "no such bot"))

    async def api_games(self, request: Request) -> Response:
        return JSONResponse(self._games(request))

    async def api_game(self, request: Request) -> Response:
        meta, replay = self._found(self.store.game(request.path_params["id"]), "no such game")
        return JSONResponse({**meta, "replay": replay})

    async def api_submission(self, request: Request) -> Response:
        return JSONResponse(self._found(_api.submission(self.store, request.path_params["id"]), "no such submission"))

    # -- HTML -----------------------------------------------------------------------------------

    async def leaderboard(self, request: Request) -> Response:
        return HTMLResponse(_pages.leaderboard_page(_api.leaderboard(self.store)))

    async def bot(self, request: Request) -> Response:
        return HTMLResponse(_pages.bot_page(self._found(_api.bot(self.store, request.path_params["name"]), "no such bot")))

    async def games(self, request: Request) -> Response:
        return HTMLResponse(_pages.games_page(self._games(request)))

    async def game(self, request: Request) -> Response:
        from engines import Replay

        from ..report import ViewError, viewer_html

        meta, replay = self._found(self.store.game(request.path_params["id"]), "no such game")
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
        data = self._found(_api.submission(self.store, request.path_params["id"]), "no such submission")
        return HTMLResponse(_pages.submission_page(data))

    # -- helpers --------------------------------------------------------------------------------

    @staticmethod
    def _found(value, what: str):
        if value is None:
            raise HTTPException(404, what)
        return value

    def _games(self, request: Request) -> dict:
        try:
            offset = int(request.query_params.get("offset", "0"))
            limit = int(request.query_params.get("limit", "50"))
        except ValueError:
            raise HTTPException(400, "offset and limit must be integers") from None
        bot = request.query_params.get("bot") or None
        if bot is not None and self.store.entrant(bot) is None:
            raise HTTPException(404, "no such bot")
        return _api.games(self.store, bot, offset, limit)


async def _error(request: Request, error: HTTPException) -> Response:
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": error.detail}, status_code=error.status_code)
    return HTMLResponse(_pages.error_page(error.status_code, error.detail), status_code=error.status_code)


def build_app(store: LadderStore, config: LadderConfig, submitted: Callable[[], None]) -> Starlette:
    """The ASGI app over ``store`` (a reading connection); ``submitted()`` is called after a
    submission is stored."""
    ladder = Ladder(store, config, submitted)
    routes = [
        Route("/", ladder.leaderboard), Route("/bots/{name}", ladder.bot), Route("/games", ladder.games),
        Route("/games/{id:int}", ladder.game), Route("/submit", ladder.submit_form, methods=["GET"]),
        Route("/submit", ladder.submit, methods=["POST"]), Route("/submissions/{id:int}", ladder.submission),
        Route("/api/leaderboard", ladder.api_leaderboard), Route("/api/bots/{name}", ladder.api_bot),
        Route("/api/games", ladder.api_games), Route("/api/games/{id:int}", ladder.api_game),
        Route("/api/submissions", ladder.api_submit, methods=["POST"]),
        Route("/api/submissions/{id:int}", ladder.api_submission),
    ]
    return Starlette(routes=routes, exception_handlers={HTTPException: _error})


async def serve_ladder(config: LadderConfig, sandbox_mode: str = "auto", allow_root: bool = False,
                       fit_every_s: float = 30.0) -> None:
    """Run the ladder until cancelled: the web server and the runner in one nursery.

    Prints ``ladder: serving GAME on URL`` on stderr once the port is bound.
    Raises :class:`arena.tournament._store.StoreError` for a database that is not this ladder's.
    """
    from hypercorn.config import Config
    from hypercorn.trio import serve

    from ..sandbox._open import cgroups_warning, open_sandbox
    from ._runner import LadderRunner, worker_executor

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
                      f"(the key of every deal) and the other authors' submissions; install bubblewrap",
                      file=sys.stderr)
            elif sandbox.bwrap is None:
                print("warning: without bubblewrap, bots and build steps (under their own uids) can read the other "
                      "authors' submissions; install bubblewrap", file=sys.stderr)
            if cgroups_warning(sandbox):
                print(cgroups_warning(sandbox), file=sys.stderr)
            # The games and the vetting (build and check-bot) hide the same: the ladder's files
            # here, and every submission's folder but the bot's own (hide_submissions).
            ladder_box = sandbox.with_hidden(hidden)
            executor = worker_executor(config.play.workers, ladder_box, logs, workdir)
            runner = LadderRunner(config, writer, executor, workdir, ladder_box, fit_every_s)
            runner.enter_house_bots()
            web = Config()
            web.bind = [f"{config.host}:{config.port}"]
            web.accesslog = None
            web.loglevel = "WARNING"  # our own line says where it listens
            async with trio.open_nursery() as nursery:
                app = build_app(reader, config, runner.submitted)
                try:
                    urls = await nursery.start(partial(serve, app, web, shutdown_trigger=trio.sleep_forever))
                except* OSError as group:
                    error = group.exceptions[0]
                    while isinstance(error, BaseExceptionGroup):
                        error = error.exceptions[0]
                    raise ConfigError(f"{config.path}: cannot listen on {config.host}:{config.port} "
                                      f"({error.strerror or error}); choose another 'port' or --port") from None
                print(f"ladder: serving {config.game} on {urls[0]} (database {database})", file=sys.stderr, flush=True)
                nursery.start_soon(runner.run)
    finally:
        reader.close()
        writer.close()
