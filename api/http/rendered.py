"""Documents and pictures rendered once per revision of what they show, off the worker's loop.

Drawing a round's cards on a gevent worker's loop held its every other request for seconds.
``rendered(key, prepare, render)`` keeps each rendering per process under a key naming all it shows (so
a repeat costs the reads that make the key); a miss reads on the loop (``prepare``) and draws in a child
process (``api.http.offload.apart``); requests for a key being drawn wait for that one drawing. The least
recently used go past ``DOCUMENT_CACHE_BYTES`` per process.
"""
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable

from flask import current_app

from api.http.offload import apart

DEFAULTS = {"DOCUMENT_CACHE_BYTES": 64 * 1024 * 1024}
EXTENSION = "taizhang.rendered"


class Rendered:
    """The renderings of one process, least recently used first, at most ``capacity`` bytes in all."""

    def __init__(self, capacity: int):
        self.capacity, self.size, self.renders = capacity, 0, 0
        self._done: OrderedDict[Hashable, bytes] = OrderedDict()
        self._pending: dict[Hashable, threading.Event] = {}
        self._lock = threading.Lock()  # gevent's under gevent: held between two switches only

    def get(self, key: Hashable, prepare: Callable[[], tuple], render: Callable[..., bytes]) -> bytes:
        """The rendering of ``key``: kept, awaited from the request rendering it, or ``render(*prepare())``."""
        while True:
            with self._lock:
                if key in self._done:
                    self._done.move_to_end(key)
                    return self._done[key]
                waiting = self._pending.get(key)
                mine = waiting is None
                if mine:
                    waiting = self._pending[key] = threading.Event()
            if mine:
                break
            waiting.wait()  # then kept, or it failed and this request renders it itself
        try:
            data = apart(render, *prepare())
            with self._lock:
                self.renders += 1
                self._keep(key, data)
            return data
        finally:
            with self._lock:
                del self._pending[key]
            waiting.set()

    def _keep(self, key: Hashable, data: bytes) -> None:
        if len(data) > self.capacity:
            return
        self._done[key] = data
        self.size += len(data)
        while self.size > self.capacity:
            _, dropped = self._done.popitem(last=False)
            self.size -= len(dropped)


def rendered(key: Hashable, prepare: Callable[[], tuple], render: Callable[..., bytes]) -> bytes:
    """``render(*prepare())`` once per ``key`` in this process (see the module's docstring)."""
    return current_app.extensions[EXTENSION].get(key, prepare, render)


def init_app(app) -> None:
    for name, value in DEFAULTS.items():
        app.config.setdefault(name, value)
    app.extensions[EXTENSION] = Rendered(int(app.config["DOCUMENT_CACHE_BYTES"]))
