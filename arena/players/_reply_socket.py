"""A bot's stdout as a connected TCP loopback socket whose arena end the kernel stamps: each
segment carries its arrival time (``SO_TIMESTAMPNS``), so the arena can tell when a reply's last
byte arrived however late its event loop gets to read it (pipes and ``AF_UNIX`` stream sockets
carry no such stamp)."""

from __future__ import annotations

import socket

from ..sandbox import PrivateLoopback

#: ``SO_TIMESTAMPNS`` (Linux; Python's socket module does not name it)
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)


def open_reply_socket(loopback: PrivateLoopback | None = None) -> tuple[socket.socket, socket.socket]:
    """A connected TCP loopback pair ``(arena end, bot end)`` for a bot's stdout, made in
    ``loopback``'s network namespace when given (see ``arena.sandbox._loopback``: there it reaches nothing
    but the arena, however the bot re-connects it), else in the arena's own.

    The arena end is non-blocking and stamps what it receives (``SO_TIMESTAMPNS``); the bot
    end sends without Nagle's delay (``TCP_NODELAY``: a bot that writes a header and then a
    payload must not wait for an acknowledgement). The listener lives only until our own
    connection is accepted, and an accepted peer that is not our own socket (another process
    that connected in that window) is dropped. Raises :class:`OSError` where TCP on the
    loopback cannot be used; the caller then falls back to a pipe.
    """
    if loopback is not None:
        with loopback.inside():
            return open_reply_socket()
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        bot_end = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            bot_end.connect(listener.getsockname())
            ours = bot_end.getsockname()
            listener.settimeout(1.0)  # our connection is already queued: accept returns at once
            for _ in range(8):
                arena_end, peer = listener.accept()
                if peer == ours:
                    break
                arena_end.close()
            else:
                raise OSError("the reply socket's listener took only other connections")
            bot_end.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            arena_end.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
            arena_end.setblocking(False)
        except BaseException:
            bot_end.close()
            raise
    return arena_end, bot_end

