"""Errors of the wire protocol. Each names what was wrong with the bytes or the message."""


class ProtocolError(Exception):
    """A peer broke the protocol: bad frame, bad msgpack, or a wrong message."""


class FrameTooLarge(ProtocolError):
    """A frame header declared more bytes than the configured limit."""

    def __init__(self, declared: int, limit: int) -> None:
        super().__init__(f"frame of {declared} bytes exceeds the limit of {limit} bytes")
        self.declared = declared
        self.limit = limit


class MalformedFrame(ProtocolError):
    """A frame's payload is not one msgpack map with string keys."""


class BadMessage(ProtocolError):
    """A well-formed message has the wrong type, a missing field or a field of the wrong type."""


class VersionMismatch(ProtocolError):
    """The peer speaks a protocol major version we do not."""
