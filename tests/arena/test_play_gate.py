"""``arena play``'s server against hostile requests, over real HTTP and WebSocket clients
(``http.client``; ``wsproto`` over a socket) talking to a real ``arena play`` process: a
message nested 5,000 deep is refused like any bad message (the socket stays open and still
plays), a foreign ``Host`` or ``Origin`` is refused even with the token (DNS rebinding), and
``/favicon.ico`` is an icon."""

from __future__ import annotations

import http.client
import json
import socket
from collections import deque
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from wsproto import ConnectionType, WSConnection
from wsproto.events import (AcceptConnection, CloseConnection, RejectConnection, RejectData, Request,
                            TextMessage)

from .test_play_browser import PY_RANDOM, serving


class WebSocketRefused(Exception):
    """The server answered the opening handshake with an HTTP status, not 101."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class Socket:
    """A WebSocket client (wsproto over a blocking socket): the page's side of ``/TOKEN/ws``."""

    def __init__(self, port: int, path: str, host: str, origin: str | None) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.ws = WSConnection(ConnectionType.CLIENT)
        headers = [] if origin is None else [(b"Origin", origin.encode())]
        self.sock.sendall(self.ws.send(Request(host=host, target=path, extra_headers=headers)))
        self.closed: int | None = None
        self.texts: list[str] = []
        #: events received but not handled yet: one read may bring the handshake's answer and
        #: the first messages together (on a loaded machine it often does)
        self.pending: deque = deque()
        while True:
            event = self._event()
            if isinstance(event, AcceptConnection):
                return
            if isinstance(event, RejectConnection):
                raise WebSocketRefused(event.status_code)

    def _event(self):
        """The next event, read from the socket when none is pending."""
        while not self.pending:
            data = self.sock.recv(65536)
            self.ws.receive_data(data or None)
            self.pending.extend(self.ws.events())
        return self.pending.popleft()

    def send(self, text: str) -> None:
        self.sock.sendall(self.ws.send(TextMessage(data=text)))

    def receive(self) -> dict:
        """The next whole message; raises EOFError (with the close code) if the server closes."""
        partial = ""
        while True:
            event = self._event()
            if isinstance(event, TextMessage):
                partial += event.data
                if event.message_finished:
                    return json.loads(partial)
            elif isinstance(event, CloseConnection):
                self.closed = event.code
                raise EOFError(event.code)
            elif isinstance(event, RejectData):
                continue

    def until(self, test) -> dict:
        while True:
            message = self.receive()
            if test(message):
                return message

    def close(self) -> None:
        self.sock.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One ``arena play`` (Dead Man's Draw, the person in seat 0, no clock) for the module."""
    folder = tmp_path_factory.mktemp("gate")
    with serving(folder, "dead-mans-draw", PY_RANDOM, "--seat", "0", "--seed", "5") as (process, [url]):
        parts = urlsplit(url)
        yield parts.port, parts.path.rstrip("/")  # the port, "/TOKEN"


def get(port: int, path: str, host: str | None = None, origin: str | None = None) -> http.client.HTTPResponse:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {} if origin is None else {"Origin": origin}
    if host is not None:
        connection.putrequest("GET", path, skip_host=True)
        connection.putheader("Host", host)
        for key, value in headers.items():
            connection.putheader(key, value)
        connection.endheaders()
    else:
        connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    response.body = response.read()
    connection.close()
    return response


def test_a_message_nested_5000_deep_is_refused_like_any_bad_message(server):
    port, token = server
    here = f"127.0.0.1:{port}"
    page = Socket(port, f"{token}/ws", here, f"http://{here}")
    try:
        assert page.receive()["type"] == "welcome"
        asked = page.until(lambda m: m["type"] == "state" and m["decision"])
        assert asked["decision"]["kind"] == "character"
        # what the page does with bad messages: ignores them, the socket stays open
        for bad in ["[" * 5000 + "]" * 5000, '{"a":' * 5000 + "1" + "}" * 5000, "not json", "[1,2]", "x" * 20000,
                    '{"type": "act", "decision": "x"}']:
            page.send(bad)
        page.send(json.dumps({"type": "act", "decision": asked["decision"]["id"], "choice": 0}))
        answered = page.until(lambda m: m["type"] == "state" and (m["decision"] or {}).get("id") != asked["decision"]["id"])
        assert answered["type"] == "state" and page.closed is None  # the answer after them was taken
    finally:
        page.close()


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "[::1]", "LOCALHOST"])
def test_the_page_answers_to_local_names_with_the_port(server, host):
    port, token = server
    response = get(port, f"{token}/", host=f"{host}:{port}")
    assert response.status == 200 and b"<title>" in response.body
    ws = Socket(port, f"{token}/ws", f"{host}:{port}", f"http://{host}:{port}")
    try:
        assert ws.receive()["type"] == "welcome"
    finally:
        ws.close()


@pytest.mark.parametrize("host", ["evil.example", "evil.example:{port}", "127.0.0.1", "127.0.0.1:1",
                                  "localhost.evil.example:{port}", "127.0.0.2:{port}", ""])
def test_a_foreign_host_is_refused_even_with_the_token(server, host):
    port, token = server
    host = host.format(port=port)
    response = get(port, f"{token}/", host=host)
    assert response.status == 403 and b"<html" not in response.body
    assert response.body == b"403: this server answers only to the address `arena play` printed (localhost), not to this host name\n"
    with pytest.raises(WebSocketRefused) as refused:
        Socket(port, f"{token}/ws", host or "x", f"http://{host}")
    assert refused.value.status == 403


@pytest.mark.parametrize("origin", ["http://evil.example", "http://evil.example:{port}", "https://127.0.0.1:{port}",
                                    "http://localhost:{port}", "null", None])
def test_a_websocket_from_another_origin_is_refused(server, origin):
    # the Host is right (the browser resolved a rebinding name... or a local page of another
    # port): only the page's own origin, http:// and this very Host, may open the socket
    port, token = server
    with pytest.raises(WebSocketRefused) as refused:
        Socket(port, f"{token}/ws", f"127.0.0.1:{port}", None if origin is None else origin.format(port=port))
    assert refused.value.status == 403
    assert get(port, f"{token}/", host=f"127.0.0.1:{port}", origin="http://evil.example").status == 403


def test_the_favicon_is_an_icon_and_nothing_else_goes_without_the_token(server):
    port, token = server
    icon = get(port, "/favicon.ico")
    assert icon.status == 200 and icon.getheader("Content-Type") == "image/svg+xml"
    assert icon.body.startswith(b"<svg ") and len(icon.body) < 2000
    assert get(port, "/favicon.ico", host="evil.example").status == 403
    for path in ("/", "/favicon.ico/", "/favicon.ico/ws", "/ws"):
        assert get(port, path).status == 403, path
