"""Reading an upload: a request body bounded in size, and the form's token before its archive.

The submission form (``POST /submit``) cannot send the token as a header, so it is a form
field; but an author without a valid token must not make the server read (and hold) a 20 MiB
body. The form puts ``token`` first, browsers send fields in the form's order, so
:func:`read_body` reads the body only up to the end of that first field, asks the caller to
check it, and reads the rest only if the check passed.

A refused upload (too large by its Content-Length, a bad token, an author over a limit) is
decided before the body is read; :func:`drain` then reads and drops what the client is still
sending, at most :data:`DRAIN_MAX` bytes for :data:`DRAIN_S` seconds, never kept, and the
refusal goes out: a client closed on while it sends sees a broken pipe, not the answer (`arena
ladder submit` was told "Broken pipe" instead of "larger than 20 MiB"; the server closes the
connection as soon as it has answered a request whose body it did not read).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

import trio
from starlette.exceptions import HTTPException
from starlette.requests import Request

#: the most of a form read before its token field must have ended (the part's headers and
#: the token: a token is 43 characters)
HEAD_MAX = 8 * 1024
_BOUNDARY = re.compile(r'boundary=(?:"([^"]+)"|([^\s;]+))', re.IGNORECASE)
_TOKEN_PART = re.compile(rb'content-disposition:\s*form-data;\s*name="?token"?\s*(?:;|\r\n|$)', re.IGNORECASE)

#: what of a refused upload is read and dropped so that its client reads the refusal
DRAIN_MAX = 64 * 2**20
DRAIN_S = 3.0

T = TypeVar("T")


async def drain(request: Request) -> None:
    """Read and drop what is left of a refused request's body, before the refusal is sent:
    within :data:`DRAIN_MAX` bytes and :data:`DRAIN_S` seconds (a declared length past the
    bound is not read at all). Nothing when :func:`read_body` read it to the end."""
    if getattr(request.state, "body_read", False):
        return
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > DRAIN_MAX):
        return
    dropped = 0
    with trio.move_on_after(DRAIN_S):
        while dropped <= DRAIN_MAX:
            message = await request.receive()
            if message["type"] != "http.request" or not message.get("more_body", False):
                return
            dropped += len(message.get("body", b""))


def _too_large(limit: int) -> HTTPException:
    return HTTPException(413, f"the upload is larger than {limit // 2**20} MiB")


async def read_body(request: Request, limit: int, token_field: Callable[[str], T] | None = None) -> T | None:
    """Read the request body, refusing (413) one over ``limit`` bytes before reading it all,
    and keep it where Starlette's ``request.form()`` parses it from.

    ``token_field``: the body is a multipart form whose first field is ``token``; once that
    field is read, ``token_field(value)`` is called (it raises to refuse: 401, 429) before
    the rest is read, and its result returned. A form whose first field is not ``token`` is
    refused (400)."""
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > limit:
        raise _too_large(limit)
    boundary = None
    if token_field is not None:
        found = _BOUNDARY.search(request.headers.get("content-type", ""))
        if found is None:
            raise HTTPException(400, "the upload must be a multipart form (enctype=\"multipart/form-data\")")
        boundary = (found.group(1) or found.group(2)).encode("latin-1")
    chunks, size, result, checked = [], 0, None, token_field is None
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise _too_large(limit)
        chunks.append(chunk)
        if not checked:
            head = b"".join(chunks)
            chunks = [head]
            token = _first_field(head, boundary)
            if token is not None:
                result, checked = token_field(token), True
    if not checked:
        token = _first_field(b"".join(chunks), boundary, complete=True)
        result = token_field(token)
    request.state.body_read = True
    request._body = b"".join(chunks)  # Starlette's own cache: form() parses it from here
    return result


def _first_field(head: bytes, boundary: bytes, complete: bool = False) -> str | None:
    """The value of the form's first field, ``token``, once ``head`` holds all of it; ``None``
    while more is needed. Raises 400 for a form that does not start with it (``complete``:
    ``head`` is the whole body)."""
    refused = HTTPException(400, "the form's first field must be 'token', before the archive")
    delimiter = b"--" + boundary
    if len(head) < len(delimiter) + 2:
        if complete:
            raise refused
        return None
    if not head.startswith(delimiter + b"\r\n"):
        raise refused
    headers_end = head.find(b"\r\n\r\n")
    if headers_end >= 0 and not _TOKEN_PART.search(head[len(delimiter) + 2:headers_end + 2]):
        raise refused
    value_end = head.find(b"\r\n" + delimiter, headers_end + 4) if headers_end >= 0 else -1
    if value_end < 0:
        if complete or len(head) > HEAD_MAX:
            raise refused
        return None
    return head[headers_end + 4:value_end].decode("utf-8", "replace").strip()
