"""A student without a browser: Bokeh's websocket protocol spoken directly, for big classes.

Hundreds of Chromium tabs do not fit beside the server on a small machine, and they compete
with it for the cores. This client does what a tab does on the wire and nothing else: it
fetches a lab page, opens its websocket with the page's session token, pulls the document
to find a slider's model id, says the document is ready (as BokehJS does once it has
rendered; Panel writes a session's updates in one message per change only after that),
and then sets that slider's value the way a drag does, timing each change until the
server's first document update comes back. Like a browser, it sends without Nagle's delay.
It never renders.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
import urllib.request
import uuid

from tornado.httpclient import HTTPRequest
from tornado.websocket import websocket_connect

TOKEN = re.compile(r'"token":\s*"([^"]+)"')


def _frames(msgtype: str, content: dict) -> list[str]:
    header = {"msgid": uuid.uuid4().hex, "msgtype": msgtype}
    return [json.dumps(header), "{}", json.dumps(content)]


# The event BokehJS sends once the page has rendered the document.
DOCUMENT_READY = {
    "kind": "MessageSent",
    "msg_type": "bokeh_event",
    "msg_data": {"type": "event", "name": "document_ready", "values": {}},
}


async def messages(socket):
    """Each Bokeh protocol message on ``socket`` as (header, content), until it closes.

    A message is a header, metadata and content frame, then two frames per buffer.
    """
    while True:
        header = await socket.read_message()
        if header is None:
            return
        head = json.loads(header)
        await socket.read_message()  # metadata
        content = await socket.read_message()
        for _ in range(2 * head.get("num_buffers", 0)):
            await socket.read_message()
        yield head, content


def _find_slider(node, title: str) -> dict | None:
    """The slider model titled (or tagged) ``title`` in a document's JSON."""
    if isinstance(node, dict):
        attributes = node.get("attributes", {})
        named = attributes.get("title") == title or title in (attributes.get("tags") or [])
        if named and "start" in attributes:
            return node
        children = node.values()
    elif isinstance(node, list):
        children = node
    else:
        return None
    for child in children:
        found = _find_slider(child, title)
        if found is not None:
            return found
    return None


class Student:
    """One session of the lab at ``base + path``, driven over its websocket."""

    def __init__(self, base: str, path: str, cookie: str, address: str | None = None):
        self.base, self.path, self.cookie = base, path, cookie
        # the client address a proxy would pass on (X-Real-IP), for a server run with
        # --use-xheaders: another machine than the bench's
        self.headers = {"Cookie": cookie} | ({"X-Real-IP": address} if address else {})
        self.socket = None
        self.slider = None
        self.value = 0.0
        self._updated = asyncio.Event()
        self.patches = 0  # document updates received since the slider was found
        self._acked: asyncio.Future | None = None
        self._pulled: asyncio.Future | None = None
        self._reader: asyncio.Task | None = None

    async def open(self, title: str, timeout_s: float = 60) -> None:
        """Load the page, connect, and find the slider titled ``title``."""
        request = urllib.request.Request(self.base + self.path, headers=self.headers)
        html = await asyncio.to_thread(
            lambda: urllib.request.urlopen(request, timeout=timeout_s).read().decode()
        )
        token = TOKEN.search(html).group(1)
        ws_url = self.base.replace("http", "ws", 1) + self.path.rstrip("/") + "/ws"
        self.socket = await websocket_connect(
            HTTPRequest(
                ws_url,
                headers={"Origin": self.base, **self.headers},
                connect_timeout=timeout_s,
                request_timeout=timeout_s,
            ),  # a busy server's
            subprotocols=["bokeh", token],
        )
        # Browsers set TCP_NODELAY; without it the second frame of each change waits for the
        # server's delayed ACK (about 40 ms on Linux loopback).
        self.socket.protocol.stream.set_nodelay(True)
        loop = asyncio.get_running_loop()
        self._acked, self._pulled = loop.create_future(), loop.create_future()
        self._reader = asyncio.create_task(self._read())
        await asyncio.wait_for(self._acked, timeout_s)  # the server is ready for messages
        for frame in _frames("PULL-DOC-REQ", {}):
            await self.socket.write_message(frame)
        doc = await asyncio.wait_for(self._pulled, timeout_s)
        for frame in _frames("PATCH-DOC", {"events": [DOCUMENT_READY]}):
            await self.socket.write_message(frame)
        slider = _find_slider(doc, title)
        if slider is None:
            raise RuntimeError(f"no slider titled {title!r} on {self.path}")
        self.slider, self.value = slider["id"], slider["attributes"]["value"]
        self.patches = 0

    async def _read(self) -> None:
        async for head, content in messages(self.socket):
            if head["msgtype"] == "ACK" and not self._acked.done():
                self._acked.set_result(True)
            elif head["msgtype"] == "PULL-DOC-REPLY" and not self._pulled.done():
                self._pulled.set_result(json.loads(content)["doc"])
            elif head["msgtype"] == "PATCH-DOC":
                self.patches += 1
                self._updated.set()

    async def change(self, step: float, timeout_s: float) -> float | None:
        """Move the slider by ``step``; ms until the server's first update, None if none came."""
        self.value += step
        self._updated.clear()
        event = {"kind": "ModelChanged", "model": {"id": self.slider}, "attr": "value"}
        frames = _frames("PATCH-DOC", {"events": [{**event, "new": self.value}]})
        start = time.perf_counter()
        for frame in frames:
            await self.socket.write_message(frame)
        try:
            await asyncio.wait_for(self._updated.wait(), timeout_s)
        except TimeoutError:
            return None
        return (time.perf_counter() - start) * 1000

    async def run(self, title_step: tuple, count: int, pause_ms: int, timeout_ms: int) -> list:
        """``count`` changes, ``pause_ms`` apart, up ten steps then down ten (as the browser probe)."""
        _title, step = title_step
        samples = []
        for change in range(count):
            direction = 1 if change % 20 < 10 else -1
            samples.append(await self.change(direction * step, timeout_ms / 1000))
            await asyncio.sleep(pause_ms / 1000)
        return samples

    def close(self) -> None:
        if self.socket is not None:
            self.socket.close()
        if self._reader is not None:
            self._reader.cancel()
