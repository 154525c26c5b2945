"""Errors of the wire protocol. Each names what was wrong with the bytes or the message."""


class ProtocolError(Exception):
    """A peer broke the protocol: bad frame, bad msgpack, or a wrong message."""


class FrameTooLarge(ProtocolError):
    """A frame header declared more bytes than the configured limit.

    ``text`` is set when the "header" was printable text: the peer wrote a log line or an
    error message (a JVM that cannot start prints to stdout) where a frame belongs. The
    message then shows that text, which says far more than the length it happens to spell.
    """

    def __init__(self, declared: int, limit: int, text: str | None = None) -> None:
        if text is None:
            message = f"frame of {declared} bytes exceeds the limit of {limit} bytes"
        else:
            message = (f"the bot wrote text to stdout: {text!r} (stdout carries only frames;"
                       " write logs to stderr)")
        super().__init__(message)
        self.declared = declared
        self.limit = limit
        self.text = text


class MalformedFrame(ProtocolError):
    """A frame's payload is not one msgpack map with string keys."""


class BadMessage(ProtocolError):
    """A well-formed message has the wrong type, a missing field or a field of the wrong type."""


class VersionMismatch(ProtocolError):
    """The peer speaks a protocol major version we do not."""
