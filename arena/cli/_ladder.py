"""Command line: ``arena ladder serve|token|submit`` (the ladder server, :mod:`arena.ladder`).

The web stack and the store are imported inside the commands: ``arena --help`` loads this
module and must stay fast.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated, Optional

import typer

from ._common import AllowRootOption, SandboxOption, UsageError, on_interrupt, reports_errors

ladder_app = typer.Typer(help="Run a ladder: a server where authors submit bots and a leaderboard is always up to date.",
                         no_args_is_help=True)
token_app = typer.Typer(help="Tokens: who may submit bots to a ladder.", no_args_is_help=True)

LadderArgument = Annotated[Path, typer.Argument(metavar="LADDER", help="The ladder file (TOML).")]
AuthorArgument = Annotated[str, typer.Argument(metavar="NAME", help="The author the token is for.")]


def _store(ladder: Path):
    from ..ladder import load_ladder, LadderStore

    config = load_ladder(ladder)
    return LadderStore.open(config.database, config.game, config.players)


@ladder_app.command("serve")
@reports_errors
def serve_command(
    ladder: LadderArgument,
    host: Annotated[Optional[str], typer.Option(metavar="HOST", help="Listen on HOST (default: the file's, 127.0.0.1).")] = None,
    port: Annotated[Optional[int], typer.Option(metavar="PORT", help="Listen on PORT, 0..65535 (0: any free one; "
                                                "default: the file's, 8000).")] = None,
    sandbox: SandboxOption = "auto",
    allow_root_bots: AllowRootOption = False,
) -> None:
    """Serve the ladder (pages, API, submissions) and keep its games playing until Ctrl-C.

    Examples:
      arena ladder serve examples/ladder.toml
      arena ladder serve ladder.toml --host 0.0.0.0 --port 8080
    """
    import dataclasses

    import trio

    from ..ladder import serve_ladder, load_ladder, until_interrupted

    config = load_ladder(ladder)
    if port is not None and not 0 <= port <= 65535:
        raise UsageError(f"--port must be an integer in 0..65535, got {port}")
    config = dataclasses.replace(config, host=host or config.host, port=config.port if port is None else port)
    with on_interrupt(lambda: f"the ladder stopped; its games and submissions are kept in {config.database}"):
        trio.run(until_interrupted, lambda: serve_ladder(config, str(sandbox), allow_root_bots))


@token_app.command("add")
@reports_errors
def token_add_command(ladder: LadderArgument, author: AuthorArgument) -> None:
    """Issue a token for NAME and print it (once: only its hash is kept).

    Example:
      arena ladder token add examples/ladder.toml alice
    """
    from ..ladder import check_author

    check_author(author, "token")
    store = _store(ladder)
    try:
        token = store.add_token(author)
    finally:
        store.close()
    typer.echo(token)
    typer.echo(f"token for {author!r}: shown only now; the author submits with it "
               f"(ARENA_LADDER_TOKEN=... arena ladder submit URL bot.toml)", err=True)


@token_app.command("list")
@reports_errors
def token_list_command(ladder: LadderArgument) -> None:
    """List the authors with tokens and whether each is revoked.

    Example:
      arena ladder token list examples/ladder.toml
    """
    store = _store(ladder)
    try:
        rows = store.tokens()
    finally:
        store.close()
    for author, created, revoked in rows:
        when = time.strftime("%Y-%m-%d %H:%M", time.gmtime(created))
        typer.echo(f"{author}\tissued {when} UTC" + ("\trevoked" if revoked else ""))


@token_app.command("revoke")
@reports_errors
def token_revoke_command(ladder: LadderArgument, author: AuthorArgument) -> None:
    """Revoke NAME's token: it can no longer submit (its versions keep playing).

    Example:
      arena ladder token revoke examples/ladder.toml alice
    """
    store = _store(ladder)
    try:
        revoked = store.revoke_token(author)
    finally:
        store.close()
    if not revoked:
        raise UsageError(f"{author!r} has no live token in {ladder}")
    typer.echo(f"revoked the token of {author!r}")


def pack_bot(manifest: Path) -> bytes:
    """The folder of ``manifest`` as a .tar.gz with the manifest as ``bot.toml`` at its top
    (in place of a ``bot.toml`` the folder may hold); ``__pycache__`` and ``.git`` are left
    out, and links are refused (the ladder would refuse them too)."""
    import io
    import tarfile

    if not manifest.is_file():
        raise UsageError(f"{manifest}: no such manifest file")
    folder = manifest.resolve().parent
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for path in sorted(folder.rglob("*")):
            relative = path.relative_to(folder)
            if any(part in ("__pycache__", ".git") for part in relative.parts) or path == manifest.resolve():
                continue
            if relative == Path("bot.toml"):
                continue  # the manifest given takes this name in the archive
            if path.is_symlink():
                raise UsageError(f"{path}: is a link; the ladder accepts no links, copy the file instead")
            archive.add(path, arcname=str(relative), recursive=False)
        archive.add(manifest.resolve(), arcname="bot.toml")
    return buffer.getvalue()


def _post(url: str, token: str, data: bytes) -> dict:
    import urllib.request
    import uuid

    boundary = uuid.uuid4().hex
    body = (f'--{boundary}\r\nContent-Disposition: form-data; name="archive"; filename="bot.tar.gz"\r\n'
            f'Content-Type: application/gzip\r\n\r\n').encode() + data + f"\r\n--{boundary}--\r\n".encode()
    request = urllib.request.Request(url.rstrip("/") + "/api/submissions", data=body, method="POST", headers={
        "Authorization": f"Bearer {token}", "Content-Type": f"multipart/form-data; boundary={boundary}"})
    return _json(request)


def _json(request: "urllib.request.Request | str") -> dict:
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as error:
        try:
            detail = json.loads(error.read()).get("error", "")
        except ValueError:
            detail = ""
        raise UsageError(f"the ladder refused the submission: {error.code} {detail or error.reason}") from None
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise UsageError(f"cannot reach the ladder at {getattr(request, 'full_url', request)}: {reason}") from None


@ladder_app.command("submit")
@reports_errors
def submit_command(
    url: Annotated[str, typer.Argument(metavar="URL", help="The ladder's address, e.g. http://127.0.0.1:8000.")],
    manifest: Annotated[Path, typer.Argument(metavar="BOT.TOML", help="The bot's manifest; its folder is uploaded.")],
    token: Annotated[Optional[str], typer.Option(
        metavar="TOKEN", envvar="ARENA_LADDER_TOKEN", show_envvar=True,
        help="Your token (better in the environment: a command line is visible to other users).")] = None,
    wait: Annotated[bool, typer.Option("--wait", help="Wait for the checks and print the report; exit 1 if refused.")] = False,
) -> None:
    """Pack a bot's folder and submit it as a new version; print its submission page.

    Examples:
      arena ladder submit http://ladder.example:8080 my-bot/bot.toml --wait
      arena ladder submit http://127.0.0.1:8080 bot.toml --token "$TOKEN"
    """
    if not url.startswith(("http://", "https://")):
        raise UsageError(f"URL must start with http:// or https://, got {url!r}")
    if not token:
        raise UsageError("no token: set ARENA_LADDER_TOKEN (or --token); the organiser issues one with "
                         "`arena ladder token add LADDER NAME`")
    answer = _post(url, token, pack_bot(manifest))
    typer.echo(f"submitted {answer['entrant']}: {url.rstrip('/')}{answer['url']}")
    if not wait:
        return
    with on_interrupt(lambda: "stopped waiting; the submission is still being checked"):
        while (state := _json(f"{url.rstrip('/')}/api/submissions/{answer['id']}"))["status"] == "pending":
            time.sleep(1)
    typer.echo(state["report"])
    typer.echo(f"{answer['entrant']}: {state['status']}")
    if state["status"] != "passed":
        raise typer.Exit(1)


ladder_app.add_typer(token_app, name="token")


def register(app: typer.Typer) -> None:
    app.add_typer(ladder_app, name="ladder")



