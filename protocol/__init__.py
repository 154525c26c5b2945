"""The pirate-arena wire protocol v1: framing, messages, validation, version.

The contract for bot authors in any language is ``protocol/SPEC.md``; this package is its
Python implementation, used by the arena and by the Python bot SDK.
"""

from ._errors import BadMessage as BadMessage
from ._errors import FrameTooLarge as FrameTooLarge
from ._errors import MalformedFrame as MalformedFrame
from ._errors import ProtocolError as ProtocolError
from ._errors import VersionMismatch as VersionMismatch
from ._framing import DEFAULT_MAX_FRAME as DEFAULT_MAX_FRAME
from ._framing import HEADER as HEADER
from ._framing import HEADER_SIZE as HEADER_SIZE
from ._framing import FrameDecoder as FrameDecoder
from ._framing import FrameEncoder as FrameEncoder
from ._framing import decode_payload as decode_payload
from ._framing import encode as encode
from ._messages import PROTOCOL_VERSION as PROTOCOL_VERSION
from ._messages import PROTOCOL_VERSION_STRING as PROTOCOL_VERSION_STRING
from ._messages import STATIC_SINCE as STATIC_SINCE
from ._messages import ActionReply as ActionReply
from ._messages import BotHello as BotHello
from ._messages import bye as bye
from ._messages import end as end
from ._messages import hello as hello
from ._messages import parse_action as parse_action
from ._messages import parse_hello as parse_hello
from ._messages import parse_version as parse_version
from ._messages import request as request
from ._messages import start as start
