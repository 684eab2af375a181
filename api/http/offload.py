"""Long pure-Python work done off a gevent worker's loop, and pauses that let the loop's other greenlets run.

Seconds of computing on the loop hold up a worker's every request and stream, and past gunicorn's
timeout kill them. ``off_loop`` runs such work in the hub's thread pool with a copy of the request's
context, touching neither the database nor the socket (writes happen on the loop in pieces, with
``pause()``). Full collections wait while a large document is held (``hold_collections``); a long write
gives way to short requests between pieces (``give_way``). Outside gevent all are plain
(``benchmarks/abuse.py`` "group-import").
"""
import contextlib
import contextvars
import gc
import os
import pickle
import sys
import time
from collections.abc import Callable
from typing import TypeVar

from flask import has_request_context, request

Result = TypeVar("Result")
#: gevent.sleep(0) runs the greenlets already ready but may not poll the sockets (a request that has just
#: arrived waited out a whole import with it); a sleep of 1 ms makes the loop poll them.
PAUSE_S = 0.001
#: How long the thread may keep the GIL when the loop asks for it (set in the worker once it first works off
#: the loop): the loop's request lets the GIL go at each wait for the database or a socket, and getting it back
#: took up to the default 5 ms each time (``benchmarks/group_import.py``).
SWITCH_INTERVAL_S = 0.0005
#: How long a long write waits, at most, between two pieces for the short requests in flight to end.
GIVE_WAY_S = 0.25
HOLDS_COLLECTIONS = "taizhang.holds_collections"
SHORT = "taizhang.short"
STREAMS = ("events.Events", "competition_events.Events")  # an evening's and a competition's live streams
_holders = 0  # requests holding collections now (changed by the loop's greenlets only, between switches)
_short = 0  # short requests in flight (likewise)


def under_gevent() -> bool:
    """Whether this process is a gevent worker (gevent has patched ``threading``)."""
    monkey = sys.modules.get("gevent.monkey")
    return monkey is not None and monkey.is_module_patched("threading")


def off_loop(function: Callable[..., Result], *args) -> Result:
    """``function(*args)`` in the gevent hub's thread pool, in a copy of the caller's context; its result or
    its exception. Called directly when not under gevent."""
    if not under_gevent():
        return function(*args)
    import gevent

    _gone_long()

    sys.setswitchinterval(SWITCH_INTERVAL_S)
    return gevent.get_hub().threadpool.apply(contextvars.copy_context().run, (function, *args))


def apart(function: Callable[..., bytes], *args) -> bytes:
    """``function(*args)`` (returning bytes) in a child forked from this worker, read back through a pipe by a
    pool thread, or ``RuntimeError``; called directly outside gevent. For drawing: a drawing thread kept the
    GIL from the loop on a loaded machine."""
    if not under_gevent():
        return function(*args)
    import gevent
    from gevent import monkey

    _gone_long()
    fork, read, waitpid = (monkey.get_original("os", name) for name in ("fork", "read", "waitpid"))
    reader, writer = os.pipe()
    pid = fork()
    if pid == 0:  # the child: draws, writes its length and itself, ends; nothing of the worker's loop runs here
        try:
            os.close(reader)
            result = function(*args)
            data = memoryview(len(result).to_bytes(8, "big") + result)
            while data:
                data = data[os.write(writer, data):]
        finally:
            os._exit(0)
    os.close(writer)

    def collect() -> bytes:
        chunks = []
        try:
            while chunk := read(reader, 1 << 20):
                chunks.append(chunk)
        finally:
            os.close(reader)
        with contextlib.suppress(ChildProcessError):  # gevent's SIGCHLD watcher may have reaped it already
            waitpid(pid, 0)
        return b"".join(chunks)

    data = gevent.get_hub().threadpool.apply(collect)
    if len(data) < 8 or int.from_bytes(data[:8], "big") != len(data) - 8:
        raise RuntimeError(f"drawing in process {pid} failed")
    return data[8:]


def apart_value(function: Callable[..., Result], *args) -> Result:
    """``apart`` for any result or exception that pickles (a draw: its new evenings, or the ledger's refusal)."""
    if not under_gevent():
        return function(*args)
    done, value = pickle.loads(apart(_pickled, function, *args))
    if not done:
        raise value
    return value


def _pickled(function: Callable, *args) -> bytes:
    try:
        return pickle.dumps((True, function(*args)))
    except Exception as error:  # noqa: BLE001 - carried to the worker, raised there
        return pickle.dumps((False, error))


def pause() -> None:
    """Let the loop's other greenlets run (between two pieces of a long write), the short requests in flight
    first (``give_way``); nothing outside gevent."""
    if under_gevent():
        time.sleep(PAUSE_S)  # patched: gevent.sleep, a turn of the loop with its sockets polled
        give_way()


def give_way() -> None:
    """Wait while this process has short requests in flight, at most ``GIVE_WAY_S``; nothing outside gevent.
    Called by long work between its pieces, never inside a SQLite write (the short ones may wait for it)."""
    if not under_gevent():
        return
    until = time.monotonic() + GIVE_WAY_S
    while _short and time.monotonic() < until:
        time.sleep(PAUSE_S)


def _begin_short() -> None:
    global _short
    if under_gevent() and request.endpoint not in STREAMS:
        request.environ[SHORT] = True
        _short += 1


def _gone_long(_error=None) -> None:
    """The request is short no more: it works off the loop, or it ended."""
    global _short
    if has_request_context() and request.environ.pop(SHORT, False):
        _short -= 1


def hold_collections() -> None:
    """Hold automatic garbage collection until the current request ends (see above); nothing outside gevent."""
    global _holders
    if not under_gevent() or request.environ.get(HOLDS_COLLECTIONS):
        return
    request.environ[HOLDS_COLLECTIONS] = True
    _holders += 1
    gc.disable()


def _release_collections(_error=None) -> None:
    global _holders
    if request.environ.pop(HOLDS_COLLECTIONS, False):
        _holders -= 1
        if not _holders:
            gc.enable()


def init_app(app) -> None:
    """Count the short requests in flight; give back collections a request held when it ends, however it ended."""
    app.before_request(_begin_short)
    app.teardown_request(_gone_long)
    app.teardown_request(_release_collections)
