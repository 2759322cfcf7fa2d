"""A class-poll participant without a browser: the poll bar's widgets driven over Bokeh's protocol.

Like :mod:`bench.protocol_client`, it loads a page, opens its websocket with the page's
session token, pulls the document and says it is ready; then it finds the poll bar's models
by what they show (a button's label, an input's placeholder) and acts as a tab does: sets an
input's value, picks a choice (``active``), clicks a button (Bokeh's ``button_click``
event). Every text the server sends (unescaped, as the page shows it) is kept with the moment it arrived, so a run can say
when a question reached a student and when the presenter's tally counted a vote.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import re
import time
import urllib.request

from tornado.httpclient import HTTPRequest
from tornado.websocket import websocket_connect

from bench.protocol_client import DOCUMENT_READY, TOKEN, _frames, messages

TALLY = re.compile(r"([\d,]+) answers? this round")


def _models(node, found: dict) -> None:
    """Every model (id -> attributes) in a pulled document's JSON."""
    if isinstance(node, dict):
        if "id" in node and "attributes" in node:
            found[node["id"]] = node["attributes"]
        for child in node.values():
            _models(child, found)
    elif isinstance(node, list):
        for child in node:
            _models(child, found)


class PollTab:
    """One session of the whole lab at ``base + path``, seen through its poll bar."""

    def __init__(self, base: str, path: str, cookie: str):
        self.base, self.path, self.cookie = base, path, cookie
        self.socket = None
        self.models: dict[str, dict] = {}
        self.texts: list[tuple[float, str]] = []  # (time.monotonic(), HTML text) as it arrived
        self.changed = asyncio.Event()
        self._acked: asyncio.Future | None = None
        self._pulled: asyncio.Future | None = None
        self._reader: asyncio.Task | None = None

    async def open(self, timeout_s: float = 120) -> None:
        request = urllib.request.Request(self.base + self.path, headers={"Cookie": self.cookie})
        page = await asyncio.to_thread(
            lambda: urllib.request.urlopen(request, timeout=timeout_s).read().decode()
        )
        token = TOKEN.search(page).group(1)
        route = self.path.split("?", 1)[0].rstrip("/")
        self.socket = await websocket_connect(
            HTTPRequest(
                f"{self.base.replace('http', 'ws', 1)}{route}/ws",
                headers={"Origin": self.base, "Cookie": self.cookie},
                connect_timeout=timeout_s,
                request_timeout=timeout_s,  # the session is built before the socket opens
            ),
            subprotocols=["bokeh", token],
        )
        self.socket.protocol.stream.set_nodelay(True)
        loop = asyncio.get_running_loop()
        self._acked, self._pulled = loop.create_future(), loop.create_future()
        self._reader = asyncio.create_task(self._read())
        await asyncio.wait_for(self._acked, timeout_s)
        await self._send("PULL-DOC-REQ", {})
        _models(await asyncio.wait_for(self._pulled, timeout_s), self.models)
        await self._send("PATCH-DOC", {"events": [DOCUMENT_READY]})

    async def _send(self, msgtype: str, content: dict) -> None:
        for frame in _frames(msgtype, content):
            await self.socket.write_message(frame)

    async def _read(self) -> None:
        async for head, content in messages(self.socket):
            if head["msgtype"] == "ACK" and not self._acked.done():
                self._acked.set_result(True)
            elif head["msgtype"] == "PULL-DOC-REPLY" and not self._pulled.done():
                self._pulled.set_result(json.loads(content)["doc"])
            elif head["msgtype"] == "PATCH-DOC":
                now = time.monotonic()
                events = json.loads(content).get("events", ())
                _models(events, self.models)  # models a patch adds (the presenter's controls)
                for event in events:
                    model = event.get("model") or {}
                    if event.get("kind") == "ModelChanged" and model.get("id") in self.models:
                        self.models[model["id"]][event.get("attr")] = event.get("new")
                    if event.get("attr") == "text" and isinstance(event.get("new"), str):
                        self.texts.append((now, html.unescape(event["new"])))
                self.changed.set()

    def find(self, **attributes) -> str:
        """The id of the model whose attributes include ``attributes``."""
        for model_id, attrs in self.models.items():
            if all(attrs.get(key) == value for key, value in attributes.items()):
                return model_id
        raise LookupError(f"no model with {attributes} on {self.path}")

    async def set(self, model_id: str, attr: str, value) -> None:
        event = {"kind": "ModelChanged", "model": {"id": model_id}, "attr": attr, "new": value}
        await self._send("PATCH-DOC", {"events": [event]})

    async def click(self, label: str, timeout_s: float = 10.0) -> None:
        deadline = time.monotonic() + timeout_s
        while True:  # a button a patch adds (the unlocked controls) may still be on its way
            try:
                button = self.find(label=label)
                break
            except LookupError:
                if time.monotonic() > deadline:
                    raise
                self.changed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.changed.wait(), 0.5)
        event = {
            "kind": "MessageSent",
            "msg_type": "bokeh_event",
            "msg_data": {
                "type": "event",
                "name": "button_click",
                "values": {"model": {"id": button}},
            },
        }
        await self._send("PATCH-DOC", {"events": [event]})

    async def wait_text(self, pattern: str, since: float = 0.0, timeout_s: float = 30) -> float:
        """When a text matching ``pattern`` arrived (after ``since``), waiting for it if need be."""
        found = re.compile(pattern)
        deadline = time.monotonic() + timeout_s
        while True:
            for at, text in self.texts:
                if at >= since and found.search(text):
                    return at
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no text matching {pattern!r} on {self.path}")
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)

    def tally_times(self) -> list[tuple[float, int]]:
        """(arrival, answers counted) for every tally the presenter's page was sent."""
        found = []
        for at, text in self.texts:
            match = TALLY.search(text)
            if match and "poll-tally" in text:
                found.append((at, int(match.group(1).replace(",", ""))))
        return found

    def close(self) -> None:
        if self.socket is not None:
            self.socket.close()
        if self._reader is not None:
            self._reader.cancel()
