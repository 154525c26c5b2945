"""A headless Chromium driven over the DevTools protocol on a pipe (``--remote-debugging-pipe``):
open pages, run JavaScript in them, take screenshots. No WebSocket and no package needed: the
browser reads commands on its fd 3 and writes answers on its fd 4, each a JSON text ended by a
NUL byte. Debian's Chromium (/usr/bin/chromium, which ``.ci/run`` installs) or ``$CHROMIUM``."""

from __future__ import annotations

import base64
import json
import os
import select
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any


def chromium_path() -> str | None:
    return os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


class Browser:
    """One headless Chromium; :meth:`open` a page, :meth:`close` it all."""

    def __init__(self, profile: Path, size: tuple[int, int] = (1200, 900)) -> None:
        command_read, command_write = os.pipe()
        answer_read, answer_write = os.pipe()

        def fds() -> None:  # in the child, before exec: the pipes on fds 3 and 4
            os.dup2(command_read, 3)
            os.dup2(answer_write, 4)

        self.process = subprocess.Popen(
            [chromium_path(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
             "--hide-scrollbars", "--mute-audio", f"--user-data-dir={profile}", f"--window-size={size[0]},{size[1]}",
             "--remote-debugging-pipe", "about:blank"],
            preexec_fn=fds, pass_fds=(3, 4), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(command_read)
        os.close(answer_write)
        self._write, self._read = command_write, answer_read
        self._buffer = b""
        self._id = 0
        self.size = size

    def call(self, method: str, session: str | None = None, timeout: float = 30, **params: Any) -> dict[str, Any]:
        self._id += 1
        message: dict[str, Any] = {"id": self._id, "method": method, "params": params}
        if session is not None:
            message["sessionId"] = session
        os.write(self._write, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            while b"\0" in self._buffer:
                raw, self._buffer = self._buffer.split(b"\0", 1)
                answer = json.loads(raw)
                if answer.get("id") == self._id:
                    if "error" in answer:
                        raise RuntimeError(f"{method}: {answer['error']}")
                    return answer["result"]
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._read], [], [], left)[0]:
                raise TimeoutError(f"{method}: no answer from Chromium within {timeout} s")
            chunk = os.read(self._read, 1 << 20)
            if not chunk:
                raise RuntimeError("Chromium closed its pipe")
            self._buffer += chunk

    def open(self, url: str) -> Page:
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        page = Page(self, target, session)
        self.call("Emulation.setDeviceMetricsOverride", session=session, width=self.size[0], height=self.size[1],
                  deviceScaleFactor=1, mobile=False)
        self.call("Page.navigate", session=session, url=url)
        return page

    def close(self) -> None:
        try:
            self.call("Browser.close", timeout=5)
        except (RuntimeError, TimeoutError, OSError):
            pass
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._write)
        os.close(self._read)


class Page:
    def __init__(self, browser: Browser, target: str, session: str) -> None:
        self.browser = browser
        self.target = target
        self.session = session

    def js(self, expression: str, timeout: float = 30) -> Any:
        """The value of ``expression`` (awaited if a promise); a JavaScript exception raises."""
        result = self.browser.call("Runtime.evaluate", session=self.session, timeout=timeout, expression=expression,
                                   awaitPromise=True, returnByValue=True)
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            raise RuntimeError(details.get("exception", {}).get("description") or details.get("text"))
        return result["result"].get("value")

    def wait(self, expression: str, timeout: float = 30, every: float = 0.01) -> Any:
        """Poll ``expression`` until it is truthy; return its value."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.js(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise TimeoutError(f"waited {timeout} s for {expression}")
            time.sleep(every)

    def screenshot(self, path: Path, full: bool = True) -> None:
        params: dict[str, Any] = {"format": "png"}
        if full:
            size = self.js("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
            params["clip"] = {"x": 0, "y": 0, "width": size[0], "height": size[1], "scale": 1}
            params["captureBeyondViewport"] = True
        data = self.browser.call("Page.captureScreenshot", session=self.session, **params)["data"]
        path.write_bytes(base64.b64decode(data))

    def close(self) -> None:
        self.browser.call("Target.closeTarget", targetId=self.target)
