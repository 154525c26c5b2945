"""The wire between the coordinator and a worker process: length-prefixed pickles.

Both ends are this arena's own code (:mod:`arena.tournament._workers` and
:mod:`arena.tournament._worker_process`, or :mod:`arena.tournament._dask`'s socket); no bot byte
is ever unpickled unchecked.
"""

from __future__ import annotations

import pickle
import struct

import trio

_HEADER = struct.Struct(">I")


def frame(message: tuple) -> bytes:
    payload = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return _HEADER.pack(len(payload)) + payload


class FrameReader:
    """Whole messages from a byte stream; ``None`` at its end."""

    def __init__(self, stream: trio.abc.ReceiveStream) -> None:
        self.stream = stream
        self.buffer = bytearray()

    async def receive(self) -> tuple | None:
        while True:
            if len(self.buffer) >= _HEADER.size:
                (size,) = _HEADER.unpack_from(self.buffer)
                if len(self.buffer) >= _HEADER.size + size:
                    payload = bytes(self.buffer[_HEADER.size:_HEADER.size + size])
                    del self.buffer[:_HEADER.size + size]
                    return pickle.loads(payload)
            try:
                data = await self.stream.receive_some(1 << 16)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                data = b""
            if not data:
                return None
            self.buffer += data
