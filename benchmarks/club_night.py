"""A club night: N tables playing at once through the production server, each table four phones.

Run: ``.venv/bin/python benchmarks/club_night.py [--tables 100 200 400 800] [--seconds 60]
[--database sqlite|postgresql|both] [--live [--floor [--rounds 3]]] [--profile DIR]``

For each N, a fresh database and a fresh gunicorn as ``make serve`` runs it
(``api.gunicorn_config``: one gevent process per core unless ``--workers``; rate
limits off, since every table is opened from one address) on loopback: on SQLite in a temporary directory, on PostgreSQL
in a new database of a throw-away server of ``tests/pg.py`` started durable, every commit flushed to disk as a
club's server keeps it and as SQLite does (or of the server ``TEST_DATABASE_URL`` names). Before the clock starts every table is a taiwan
session among Amy, Ben, Cat and Dan with ``--hands-before`` hands already
recorded (an evening in progress; not timed). Then, for ``--seconds``:

- every phone reads the session state (``GET /api/sessions/<id>``, plain, no
  ``If-None-Match``) every 3 s, each phone at its own random phase;
- every table records a hand (``POST …/hands``, a quick entry with an
  ``Idempotency-Key``: a discard win of 1–5 台, a self-draw, now and then a
  draw) once a minute, at its own random moment of each 60 s period;
- in about one period in twenty a table also voids (``DELETE``) or corrects
  (``PUT`` of a new quick entry) one of its earlier hands, at another random
  moment of that period.

Shortening the run keeps the club's rates (4N/3 reads and N/60 hands a
second), so the mix of reads and writes is the same whatever ``--seconds``
is: a table's hand moment is uniform over the whole minute, and a run of
20 s sees about a third of the tables record. Squeezing every table's hand into a
shorter run would multiply the write rate by 60 / seconds and understate the
capacity. The default of 60 s is the shortest run in which every table records.

**Latency is measured from the moment a request was due** (its place in the
schedule) to the end of its answer, so a server that queues, or a client that
falls behind, shows in the figures instead of delaying the schedule. How late
the client started each request (due → its task running) is printed beside
them: when it is small the latencies are the server's, give or take the event
loop's wake-up (epoll's timeout is in whole milliseconds, so ≈ 1 ms late is
the floor). A request may then wait for a free connection of its process's
pool; that wait is in its latency, not in this figure.

Printed per database and N: p50/p99 of recording, of void or correct, of
reading the state; the answers that were not 2xx or failed (by kind and
status); the server's CPU per hand recorded: utime + stime of the gunicorn
master and workers over the run (``/proc``), every request included, divided by
the hands recorded (and, on the throw-away PostgreSQL, its own processes'
CPU per hand); what the client cost; and the largest N run at which record
p99 < 100 ms and state p99 < 50 ms with every answer 2xx.

The client: ``--clients`` processes, each an asyncio loop driving its share
of the tables from a schedule over a pool of ``--connections`` keep-alive
connections, the one used last taken first (a connection idle for 1.5 s is
opened again: gunicorn closes one idle for 2 s). The phones share these
connections, so the server does not pay for a connection per poll, as it
would not behind a reverse proxy that keeps its connections to gunicorn open.

**Live phones** (``--live``, issue 16): every phone follows its table with
Server-Sent Events instead of reading the state every 3 s: a connection of
its own holding ``GET /api/sessions/<id>/events?token=<read token>&after=<revision>``
open all evening (4N of them; each client process raises its open-file
limit to fit), opened before the clock starts and opened again, as
``EventSource`` does, after the ``retry:`` interval if it drops. Phone 1 of
each table records the table's hands and phone 2 voids or corrects, on the
schedule above and over the pooled connections, each sending ``If-Match`` of
the revision that phone last saw (from its stream or its own last answer), as
the page does; a ``412`` (another phone's change got in first) is counted
apart and not sent again. Measured besides record latency: **recorded on A →
shown on B**, from the moment the recording phone's task sent the ``POST`` to
the moment each of the table's three other phones read the event of that
revision (three samples a hand), and the same from the moment its answer
came back (**shown after the answer**: what the stream adds to the recording,
wherever it was served); after the schedule the client waits up to
``DRAIN_S`` for events still on their way, then counts a hand some phone
never saw as an error. Each phone's stream is closed before the server stops
(a stream the client dropped ends on the server at its next heartbeat, within
15 s, and gunicorn's graceful stop waits for it). Printed too: the streams
open when the clock started and at its end, how many dropped, and the
connections each gunicorn worker held halfway through (``/proc``); the largest
N at which shown p99 < 2 s and record p99 < 100 ms with no error. A drop is
said with its cause: ``opening`` (the stream was refused or its connection
failed before its answer began) or ``open`` (an open stream ended or broke).

**Against the floor** (``--floor``, issue 28): each N runs ``--rounds`` times
Taizhang, then ``benchmarks/floor.py`` (the least a server must do for live
tables, under the same gunicorn settings and URL shapes: its docstring), each
on a fresh database and server, interleaved A, B, A, B, A, B in the same
minutes of a shared machine; then each figure is printed for both (median of
the rounds and their range) with the ratio (the median of the rounds' ratios,
each round's Taizhang over the floor run beside it, and their range). The
load average is printed with each night.

The servers run with rate limits off and ``EVENTS_PER_ADDRESS`` (the
per-address bound of live streams, issue 27) at 1,000,000: the client's one
address stands for a club's thousand phones, which reach a real server from
many addresses or through a router whose one address the club sets the bound
for (``SERVER_ENV``). ``--profile DIR`` runs ``py-spy record`` on each
gunicorn worker for the timed run; ``benchmarks/profile_summary.py DIR/*``
sums where their busy samples went.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import resource
import socket
import struct
import sys
import tempfile
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests import pg  # noqa: E402
from tests.system.server import WORKERS, ProductionServer  # noqa: E402

PLAYERS = ["Amy", "Ben", "Cat", "Dan"]
SESSION = {"ruleset": "taiwan", "players": PLAYERS, "stakes": {"base": 100, "per_tai": 20}}
PHONES_PER_TABLE = 4
READ_EVERY_S = 3
HAND_EVERY_S = 60
FIX_SHARE = 1 / 20  # periods in which a table also voids or corrects an earlier hand
DRAW_SHARE, SELF_DRAW_SHARE = 0.05, 0.25
RECORD_P99_MS, STATE_P99_MS = 100, 50
SHOWN_P99_MS = 2000  # live: a hand recorded on one phone shows on the others within 2 s (issue 16)
DRAIN_S = 10.0  # live: how long after the schedule the client waits for events still on their way
OPEN_TIMEOUT_S = 120.0  # live: how long the streams may take to open before the clock starts
IDLE_REOPEN_S = 1.5  # below gunicorn's keep-alive timeout of 2 s
START_MARGIN_S = 1.0
KINDS = ("record", "void or correct", "state")


def club_hand(rng: random.Random) -> dict:
    """A quick entry as a table types it: mostly a discard win of 1–5 台, a self-draw, now and then a draw."""
    roll = rng.random()
    if roll < DRAW_SHARE:
        return {"draw": True, "reason": "exhausted"}
    winner, discarder = rng.sample(PLAYERS, 2)
    hand = {"winners": [{"player": winner, "tai": rng.randint(1, 5)}], "by": "self_draw"}
    if roll >= DRAW_SHARE + SELF_DRAW_SHARE:
        hand.update(by="discard", discarder=discarder)
    return hand


@dataclass
class Table:
    """One session and the numbers of its hands that are not voided (void and correct pick among them)."""

    id: str
    headers: bytes  # the header lines every request on the session carries
    live: list[int] = field(default_factory=list)
    read_token: str = ""
    revision: int = 0  # as the last answer of the setup left it
    phones: list[Phone] = field(default_factory=list)  # live: the four phones following the table


class Answer(NamedTuple):
    status: int
    body: bytes
    etag: int | None  # the session's revision, on answers that carry it


def revision_of(etag: bytes | None) -> int | None:
    """The revision an ``ETag: "n"`` names."""
    return None if etag is None else int(etag.strip().strip(b'"'))


class Connection:
    """One keep-alive HTTP/1.1 connection on asyncio streams, opened again after ``IDLE_REOPEN_S`` idle or an error.

    A request is written whole and its answer read by its ``Content-Length``
    (every answer of these endpoints has one): ``http.client`` parses each
    answer's headers with the ``email`` package and, on threads, cost 400–460 µs
    of client CPU a request where this costs 290–340 µs (N = 100 and 200, a
    loaded machine): CPU the server, on the same machine, does not get.
    """

    def __init__(self, port: int):
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.used_at = 0.0

    async def call(self, method: str, path: str, headers: bytes, body: dict | None = None) -> Answer:
        if self.writer is None or time.monotonic() - self.used_at > IDLE_REOPEN_S:
            self.close()
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        payload = b"" if body is None else json.dumps(body).encode()
        try:
            self.writer.write(b"%s %s HTTP/1.1\r\nHost: club\r\n%sContent-Length: %d\r\n\r\n%s"
                              % (method.encode(), path.encode(), headers, len(payload), payload))
            head = await self.reader.readuntil(b"\r\n\r\n")
            fields = dict(line.split(b":", 1) for line in head.lower().split(b"\r\n")[1:-2])
            answer = await self.reader.readexactly(int(fields[b"content-length"]))
        except BaseException:
            self.close()
            raise
        self.used_at = time.monotonic()
        if fields.get(b"connection", b"").strip() == b"close":
            self.close()
        return Answer(int(head[9:12]), answer, revision_of(fields.get(b"etag")))

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.reader = self.writer = None


class Phone:
    """A phone following its table live: one connection of its own holding the event stream open.

    ``seen`` is the revision it last saw (the last event, or its own last
    change's answer): what it sends as ``If-Match``. ``arrived`` keeps when
    each revision's event was read. The answer to the stream is chunked (no
    ``Content-Length``): each chunk gunicorn writes is one thing the app
    yielded, an event, the ``retry:`` line or a heartbeat comment; events are
    split on their blank line all the same.
    """

    def __init__(self, port: int, table: Table, streams: StreamCount):
        self.port, self.table, self.streams = port, table, streams
        self.seen = table.revision
        self.arrived: dict[int, float] = {}
        self.opened = asyncio.Event()
        self.drops = 0  # streams that ended or failed while the phone still followed (it opened them again)
        self.why: Counter = Counter()  # (open or opening, the exception) of each drop
        self.writer: asyncio.StreamWriter | None = None
        self.task: asyncio.Task | None = None

    def start(self) -> None:
        self.task = asyncio.create_task(self.follow())

    def saw(self, revision: int | None) -> None:
        if revision is not None and revision > self.seen:
            self.seen = revision

    async def follow(self) -> None:
        """Hold the stream open; after a drop, open it again after the ``retry:`` interval, from ``seen``."""
        while True:
            self.streaming = False
            try:
                await self.listen()
            except (OSError, EOFError, ValueError, asyncio.IncompleteReadError) as error:
                self.why[("open" if self.streaming else "opening", type(error).__name__)] += 1
            self.drops += 1
            await asyncio.sleep(1.0)

    def request(self) -> bytes:
        """The stream's request: the table's events from the revision last seen."""
        return (b"GET /api/sessions/%s/events?token=%s&after=%d HTTP/1.1\r\nHost: club\r\n"
                b"Accept: text/event-stream\r\n\r\n" % (self.table.id.encode(), self.table.read_token.encode(),
                                                          self.seen))

    def heard(self, event: bytes, now: float) -> None:
        """One event read at ``now``: when its revision arrived."""
        if event.startswith(b"id: "):
            revision = int(event[4:event.index(b"\n")])
            self.arrived.setdefault(revision, now)
            self.saw(revision)

    async def listen(self) -> None:
        reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        counted = False
        try:
            self.writer.write(self.request())
            head = await reader.readuntil(b"\r\n\r\n")
            if head[9:12] != b"200" or b"chunked" not in head.lower():
                raise ValueError(f"the stream answered {head[:200]!r}")
            self.streams.now += 1
            counted = self.streaming = True
            self.opened.set()
            pending = b""
            while True:
                size = int(await reader.readuntil(b"\r\n"), 16)
                if size == 0:
                    raise EOFError("the server ended the stream")
                pending += (await reader.readexactly(size + 2))[:-2]
                now = time.monotonic()
                *events, pending = pending.split(b"\n\n")
                for event in events:
                    self.heard(event, now)
        finally:
            if counted:
                self.streams.now -= 1
            # Reset rather than FIN: the server finds out at its next heartbeat, not the one after
            # (its first write after a FIN still succeeds), and gunicorn's graceful stop waits for it.
            self.writer.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                                            struct.pack("ii", 1, 0))
            self.writer.close()
            self.writer = None

    async def close(self) -> None:
        """Stop following: end the task and close the connection (the server notices at its next heartbeat)."""
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)


@dataclass
class StreamCount:
    """The streams of one client process open at the moment."""

    now: int = 0


@dataclass
class Measured:
    """What one client process (or, merged, every one) saw."""

    latencies: dict = field(default_factory=lambda: {kind: [] for kind in KINDS})
    late: list = field(default_factory=list)  # ms from due to the request's task running
    failures: Counter = field(default_factory=Counter)  # (kind, status or exception) -> count
    hands: int = 0
    client_cpu_s: float = 0.0
    # live phones only:
    shown: list = field(default_factory=list)  # ms from the recording phone's POST to another phone's event
    after_answer: list = field(default_factory=list)  # ms from the recording phone's answer to that event
    stale: Counter = field(default_factory=Counter)  # kind -> 412 answers (another phone's change got in first)
    streams_at_start: int = 0
    streams_at_end: int = 0
    stream_drops: int = 0
    drop_causes: Counter = field(default_factory=Counter)  # (open or opening, exception) -> count

    def merge(self, other: Measured) -> None:
        for kind in KINDS:
            self.latencies[kind] += other.latencies[kind]
        self.late += other.late
        self.failures.update(other.failures)
        self.hands += other.hands
        self.client_cpu_s += other.client_cpu_s
        self.shown += other.shown
        self.after_answer += other.after_answer
        self.stale.update(other.stale)
        self.streams_at_start += other.streams_at_start
        self.streams_at_end += other.streams_at_end
        self.stream_drops += other.stream_drops
        self.drop_causes.update(other.drop_causes)


class Night:
    """One client process's tables, its schedule, and a pool of connections to carry it out.

    ``live``: the phones follow their tables' event streams instead of reading the state.
    """

    def __init__(self, port: int, seed: int, connections: int, live: bool = False):
        self.port, self.live = port, live
        self.rng = random.Random(seed)
        self.idle: asyncio.LifoQueue = asyncio.LifoQueue()  # the connection used last goes out first
        for _ in range(connections):
            self.idle.put_nowait(Connection(port))
        self.tables: list[Table] = []
        self.measured = Measured()
        self.streams = StreamCount()
        self.recorded: list[tuple[Table, int, float, float]] = []  # live: (table, revision, when its POST was
        # sent, when its answer came)

    async def call(self, method: str, path: str, headers: bytes, body: dict | None = None) -> Answer:
        connection = await self.idle.get()
        try:
            return await connection.call(method, path, headers, body)
        finally:
            self.idle.put_nowait(connection)

    async def open_tables(self, count: int, hands_before: int, prefix: str) -> None:
        self.tables = await asyncio.gather(*(self.open_table(f"Table {prefix}-{number}", hands_before)
                                             for number in range(count)))
        if self.live:
            await self.open_streams()

    async def open_table(self, name: str, hands_before: int) -> Table:
        """A new session with ``hands_before`` hands recorded."""
        status, answer, revision = await self.call("POST", "/api/sessions", b"Content-Type: application/json\r\n",
                                                   {"name": name, **SESSION})
        if status != 201:
            raise RuntimeError(f"POST /api/sessions: {status} {answer[:300]!r}")
        created = json.loads(answer)
        table = Table(created["id"], b"Authorization: Bearer %s\r\nContent-Type: application/json\r\n"
                      % created["token"].encode(), read_token=created["read_token"], revision=created["revision"])
        for _ in range(hands_before):
            status, answer, revision = await self.call("POST", f"/api/sessions/{table.id}/hands", table.headers,
                                                       club_hand(self.rng))
            if status != 201:
                raise RuntimeError(f"POST …/hands: {status} {answer[:300]!r}")
            table.live.append(json.loads(answer)["number"])
            table.revision = revision
        return table

    async def open_streams(self) -> None:
        """Four phones a table, each following the table's stream from the revision the setup left it at."""
        for table in self.tables:
            table.phones = [Phone(self.port, table, self.streams) for _ in range(PHONES_PER_TABLE)]
            for phone in table.phones:
                phone.start()
        phones = [phone for table in self.tables for phone in table.phones]
        try:
            await asyncio.wait_for(asyncio.gather(*(phone.opened.wait() for phone in phones)), OPEN_TIMEOUT_S)
        except asyncio.TimeoutError:
            raise RuntimeError(f"{self.streams.now} of {len(phones)} streams opened in {OPEN_TIMEOUT_S:g} s") \
                from None

    def schedule(self, start: float, seconds: float) -> list[tuple[float, str, Table]]:
        """Every request of the run, (due on the monotonic clock, kind, table), in the order due."""
        due = []
        for table in self.tables:
            for _ in range(0 if self.live else PHONES_PER_TABLE):
                due += [(at, "state", table) for at in periodic(self.rng.uniform(0, READ_EVERY_S), READ_EVERY_S,
                                                                 seconds)]
            for period_start in range(0, int(seconds + HAND_EVERY_S - 1), HAND_EVERY_S):
                due.append((period_start + self.rng.uniform(0, HAND_EVERY_S), "record", table))
                if self.rng.random() < FIX_SHARE:
                    due.append((period_start + self.rng.uniform(0, HAND_EVERY_S),
                                self.rng.choice(["void", "correct"]), table))
        return sorted(((start + at, kind, table) for at, kind, table in due if at < seconds),
                      key=lambda entry: entry[0])

    async def run(self, start: float, seconds: float) -> Measured:
        """Start each request when due (the event loop's clock is ``time.monotonic``), then wait for every answer.

        Live: then wait for the events still on their way, work out when each
        hand showed on the table's other phones, and close every stream.
        """
        plan = self.schedule(start, seconds)
        cpu_before = process_cpu_s()
        self.measured.streams_at_start = self.streams.now
        pending = set()
        for due, kind, table in plan:
            delay = due - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            task = asyncio.create_task(self.timed(due, kind, table))
            pending.add(task)
            task.add_done_callback(pending.discard)
        await asyncio.gather(*pending)
        if self.live:
            await asyncio.sleep(max(0.0, start + seconds - time.monotonic()))  # the phones follow the whole run
            self.measured.streams_at_end = self.streams.now
            await self.drain()
            self.measure_shown()
        self.measured.client_cpu_s = process_cpu_s() - cpu_before
        return self.measured

    async def timed(self, due: float, kind: str, table: Table) -> None:
        """One request, its latency from ``due`` and how late it was sent."""
        sent = time.monotonic()
        try:
            status = await self.send(kind, table)
        except (OSError, EOFError, ValueError, KeyError) as error:
            status = type(error).__name__
        measured = self.measured
        category = "state" if kind == "state" else "record" if kind == "record" else "void or correct"
        measured.latencies[category].append((time.monotonic() - due) * 1000)
        measured.late.append((sent - due) * 1000)
        if status == 412 and self.live:
            measured.stale[kind] += 1
        elif not (isinstance(status, int) and 200 <= status < 300):
            measured.failures[(kind, status)] += 1
        elif kind == "record":
            measured.hands += 1

    async def send(self, kind: str, table: Table) -> int | str:
        """One request of ``kind`` for ``table``; its status. Records and voids keep ``table.live`` up to date.

        Live: phone 1 records, phone 2 voids or corrects, each with ``If-Match`` of what it last saw.
        """
        path = f"/api/sessions/{table.id}"
        if kind == "state":
            return (await self.call("GET", path, table.headers)).status
        phone = (table.phones[0] if kind == "record" else table.phones[1]) if self.live else None
        headers = table.headers + (b'If-Match: "%d"\r\n' % phone.seen if phone else b"")
        if kind == "record":
            sent = time.monotonic()
            status, answer, revision = await self.call("POST", f"{path}/hands", headers
                                                       + b"Idempotency-Key: %s\r\n" % uuid.uuid4().hex.encode(),
                                                       club_hand(self.rng))
            if status == 201:
                table.live.append(json.loads(answer)["number"])
                if phone:
                    phone.saw(revision)
                    self.recorded.append((table, revision, sent, time.monotonic()))
            return status
        if not table.live:
            return "no hand left to change"
        number = self.rng.choice(table.live)
        if kind == "void":
            table.live.remove(number)  # at once, so that no later request picks it while this one is under way
            answer = await self.call("DELETE", f"{path}/hands/{number}", headers)
            if answer.status == 412:
                table.live.append(number)
        else:
            answer = await self.call("PUT", f"{path}/hands/{number}", headers, club_hand(self.rng))
        if phone and 200 <= answer.status < 300:
            phone.saw(answer.etag)
        return answer.status

    def unseen(self) -> int:
        """(Live) events of recorded hands that some other phone of the table has not read yet."""
        return sum(revision not in phone.arrived
                   for table, revision, *_ in self.recorded for phone in table.phones[1:])

    async def drain(self) -> None:
        """(Live) wait up to ``DRAIN_S`` for the events of the hands recorded to reach every phone."""
        deadline = time.monotonic() + DRAIN_S
        while self.unseen() and time.monotonic() < deadline:
            await asyncio.sleep(0.05)

    def measure_shown(self) -> None:
        """(Live) recorded on phone 1 → shown on each other phone: three samples a hand; one not shown is an error."""
        for table, revision, sent, answered in self.recorded:
            for phone in table.phones[1:]:
                if revision in phone.arrived:
                    self.measured.shown.append((phone.arrived[revision] - sent) * 1000)
                    self.measured.after_answer.append((phone.arrived[revision] - answered) * 1000)
                else:
                    self.measured.failures[("shown", f"not within {DRAIN_S:g} s")] += 1
        self.measured.stream_drops = sum(phone.drops for table in self.tables for phone in table.phones)
        for table in self.tables:
            for phone in table.phones:
                self.measured.drop_causes.update(phone.why)

    async def close(self) -> None:
        for table in self.tables:
            for phone in table.phones:
                await phone.close()
        while not self.idle.empty():
            self.idle.get_nowait().close()


def periodic(phase: float, every: float, seconds: float) -> list[float]:
    """phase, phase + every, … before ``seconds``."""
    count = 0 if phase >= seconds else int((seconds - phase - 1e-9) // every) + 1
    return [phase + every * n for n in range(count)]


def process_cpu_s() -> float:
    times = os.times()
    return times.user + times.system


def client_process(port: int, tables: int, seed: int, hands_before: int, connections: int, live: bool,
                   pipe) -> None:
    """Set up this process's tables, say so, wait for the start time, play, send back what was measured."""
    async def night() -> Measured:
        club = Night(port, seed, connections, live)
        try:
            await club.open_tables(tables, hands_before, str(seed))
            pipe.send("ready")
            start, seconds = pipe.recv()  # blocks the loop: nothing else runs until the start
            return await club.run(start, seconds)
        finally:
            await club.close()

    if live:
        raise_open_file_limit(PHONES_PER_TABLE * tables + connections + 64)

    try:
        pipe.send(asyncio.run(night()))
    except Exception as error:  # the parent reports it and stops the run
        pipe.send(error)
        raise


def raise_open_file_limit(needed: int) -> None:
    """Let this process hold ``needed`` sockets: raise its soft limit on open files up to the hard one."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed:
        if hard != resource.RLIM_INFINITY and hard < needed:
            raise RuntimeError(f"{needed} connections need that many open files; the hard limit is {hard}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))


def connections_by_worker(server_pid: int, port: int) -> list[int]:
    """How many established connections to ``port`` each gunicorn worker holds, from /proc (largest first)."""
    established = set()
    with open("/proc/net/tcp") as table:
        for line in list(table)[1:]:
            fields = line.split()
            if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == "01":
                established.add(f"socket:[{fields[9]}]")
    counts = []
    for worker in cpu_seconds(server_pid):
        if worker == server_pid:
            continue
        try:
            descriptors = os.listdir(f"/proc/{worker}/fd")
        except OSError:
            continue
        counts.append(sum(readlink_or_none(f"/proc/{worker}/fd/{fd}") in established for fd in descriptors))
    return sorted(counts, reverse=True)


def readlink_or_none(path: str) -> str | None:
    try:
        return os.readlink(path)
    except OSError:
        return None


def cpu_seconds(root_pid: int) -> dict[int, float]:
    """utime + stime (seconds) of ``root_pid`` and each of its children, by pid, from /proc."""
    ticks = os.sysconf("SC_CLK_TCK")
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, ppid = int(entry), int(fields[1])
        if root_pid in (pid, ppid):
            found[pid] = (int(fields[11]) + int(fields[12])) / ticks
    return found


def cpu_used(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds spent between two ``cpu_seconds`` readings by the processes alive at the second."""
    return sum(seconds - before.get(pid, 0.0) for pid, seconds in after.items())


@dataclass
class Result:
    """One N on one database: what the clients measured and the CPU the server (and PostgreSQL) spent."""

    tables: int
    seconds: float
    measured: Measured
    server_cpu_s: float
    database_cpu_s: float | None
    connections_by_worker: list[int] = field(default_factory=list)  # halfway through, largest first
    live: bool = False
    server: str = "Taizhang"

    def meets_targets(self) -> bool:
        """Every answer 2xx (live: or 412) and record p99 < 100 ms; state p99 < 50 ms, or live, shown p99 < 2 s."""
        measured, latencies = self.measured, self.measured.latencies
        if measured.failures or not latencies["record"] or percentile(latencies["record"], 0.99) >= RECORD_P99_MS:
            return False
        if self.live:
            return (bool(measured.shown) and percentile(measured.shown, 0.99) < SHOWN_P99_MS
                    and not measured.stream_drops)
        return bool(latencies["state"]) and percentile(latencies["state"], 0.99) < STATE_P99_MS


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def play(server: ProductionServer, tables: int, args, database_pid: int | None) -> Result:
    """One night of ``tables`` tables on a running server."""
    pipes, processes = start_clients(client_process, [
        (server.port, tables // args.clients + (index < tables % args.clients), 1000 * tables + index,
         args.hands_before, args.connections, args.live) for index in range(args.clients)])
    start = start_together(pipes, args.seconds)
    server_before = cpu_seconds(server.process.pid)
    database_before = cpu_seconds(database_pid) if database_pid else None
    profilers = profile_workers(server, args.profile, f"{tables}", args.seconds) if args.profile else []
    time.sleep(max(0.0, start + args.seconds / 2 - time.monotonic()))
    held = connections_by_worker(server.process.pid, server.port)
    time.sleep(max(0.0, start + args.seconds - time.monotonic()))
    server_cpu = cpu_used(server_before, cpu_seconds(server.process.pid))
    database_cpu = cpu_used(database_before, cpu_seconds(database_pid)) if database_pid else None
    for profiler in profilers:
        profiler.wait()
    measured = Measured()
    for answer in answers_of(pipes, processes):
        measured.merge(answer)
    return Result(tables, args.seconds, measured, server_cpu, database_cpu, held, args.live)


def start_clients(target, arguments: list[tuple]) -> tuple[list, list]:
    """One forked client process per tuple of ``arguments``, running ``target(*arguments, pipe)``, each set up
    and ready (it says so on its pipe): their pipes and processes (``benchmarks/competition_round.py`` too)."""
    context = multiprocessing.get_context("fork")
    pipes, processes = [], []
    for its_arguments in arguments:
        mine, theirs = context.Pipe()
        process = context.Process(target=target, daemon=True, args=(*its_arguments, theirs))
        process.start()
        pipes.append(mine)
        processes.append(process)
    for pipe in pipes:
        answer = pipe.recv()
        if answer != "ready":
            raise RuntimeError(f"a client failed to set up: {answer!r}")
    return pipes, processes


def start_together(pipes, seconds: float) -> float:
    """Tell every client when to start (``START_MARGIN_S`` from now) and for how long; wait until then."""
    start = time.monotonic() + START_MARGIN_S
    for pipe in pipes:
        pipe.send((start, seconds))
    time.sleep(max(0.0, start - time.monotonic()))
    return start


def answers_of(pipes, processes) -> list:
    """What each client sent back at its end (a client's failure stops the run), once all have ended."""
    answers = []
    for pipe in pipes:
        answer = pipe.recv()
        if isinstance(answer, Exception):
            raise RuntimeError(f"a client failed: {answer!r}")
        answers.append(answer)
    for process in processes:
        process.join()
    return answers


def profile_workers(server: ProductionServer, folder: Path, label: str, seconds: float) -> list:
    """``py-spy record`` of each gunicorn worker for the timed run, as collapsed stacks in ``folder``
    (``benchmarks/profile_summary.py`` sums them); py-spy samples without pausing the worker (``--nonblocking``)."""
    import subprocess

    folder.mkdir(parents=True, exist_ok=True)
    workers = [pid for pid in cpu_seconds(server.process.pid) if pid != server.process.pid]
    return [subprocess.Popen([str(Path(sys.executable).parent / "py-spy"), "record", "--pid", str(pid), "--duration", str(int(seconds)), "--rate", "200",
                              "--nonblocking", "--format", "raw", "--output", str(folder / f"{label}-{pid}.txt")],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for pid in workers]


def report(result: Result) -> str:
    """A few lines on one N: counts, latencies, server CPU, what the client cost."""
    measured, seconds = result.measured, result.seconds
    latencies = measured.latencies
    requests = sum(len(values) for values in latencies.values())

    def cpu(seconds_used: float) -> str:
        per_hand = f"{seconds_used / measured.hands * 1000:.0f} ms per hand" if measured.hands else "no hand"
        return f"{per_hand} ({seconds_used / seconds:.2f} cores)"

    database = "" if result.database_cpu_s is None else f"; PostgreSQL's processes {cpu(result.database_cpu_s)}"
    if result.live:
        held = ", ".join(map(str, result.connections_by_worker))
        lines = [f"N = {result.tables}: {measured.hands} hands recorded, {len(latencies['void or correct'])} voids or "
                 f"corrections; {sum(measured.failures.values())} errors; 412 (stale If-Match) "
                 f"{', '.join(f'{kind} × {count}' for kind, count in sorted(measured.stale.items())) or 'none'}",
                 f"  recorded on A → shown on B p50 / p99 (ms): {spread_of(measured.shown)} "
                 f"({len(measured.shown)} samples); after the recording phone's answer "
                 f"{spread_of(measured.after_answer)}",
                 f"  latency p50 / p99 (ms): record {spread_of(latencies['record'])}, "
                 f"void or correct {spread_of(latencies['void or correct'])}",
                 f"  streams open: {measured.streams_at_start} at the start, {measured.streams_at_end} at the end, "
                 f"{measured.stream_drops} dropped ("
                 f"{', '.join(f'{state} {name} × {count}' for (state, name), count in sorted(measured.drop_causes.items())) or 'none'}"
                 f"); connections per worker halfway: {held}",
                 f"  server CPU {cpu(result.server_cpu_s)}{database}"]
    else:
        lines = [f"N = {result.tables}: {measured.hands} hands recorded, {len(latencies['void or correct'])} voids "
                 f"or corrections, {len(latencies['state'])} state reads; {sum(measured.failures.values())} not 2xx",
                 f"  latency p50 / p99 (ms): record {spread_of(latencies['record'])}, "
                 f"void or correct {spread_of(latencies['void or correct'])}, state {spread_of(latencies['state'])}",
                 f"  server CPU {cpu(result.server_cpu_s)}{database}"]
    per_request = "" if result.live else f"{measured.client_cpu_s / max(requests, 1) * 1e6:.0f} µs a request; "
    lines.append(f"  client {measured.client_cpu_s / seconds:.2f} cores, {per_request}"
                 f"started late by p50 / p99 {spread_of(measured.late)} ms")
    lines += [f"  {'error' if result.live else 'not 2xx'}: {kind} {status} × {count}" for (kind, status), count in
              sorted(measured.failures.items(), key=str)]
    return "\n".join(lines)


def spread_of(values: list[float]) -> str:
    """p50 / p99."""
    return f"{percentile(values, 0.5):.1f} / {percentile(values, 0.99):.1f}" if values else "—"


SERVERS = {"Taizhang": "api:create_app()", "floor": "benchmarks.floor:create_app()"}
# Rate limits off and the per-address bound of streams (issue 27) out of reach: the client's one address
# stands for a club's many phones, each of which has its own behind a Wi-Fi router's NAT only in part.
SERVER_ENV = {"TAIZHANG_RATELIMIT_ENABLED": "false", "TAIZHANG_EVENTS_PER_ADDRESS": "1000000"}


def run_database(name: str, args) -> list[Result]:
    """Every N on ``name`` (sqlite or postgresql), a fresh database and server each.

    With ``--floor`` each N runs ``--rounds`` times Taizhang then the floor (``benchmarks/floor.py``),
    interleaved (A, B, A, B, A, B), and each figure is printed for both with the ratio and its spread.
    """
    database_server = pg.start_server(durable=True) if name == "postgresql" else None
    database_pid = postmaster_pid(database_server)
    results = []
    servers = list(SERVERS) if args.floor else ["Taizhang"]
    print(f"\n{name}: gunicorn {args.workers} gevent workers; {args.seconds:g} s per N; "
          f"{args.hands_before} hands per table before; client {args.clients} processes × "
          f"{args.connections} connections{'; live phones (event streams)' if args.live else ''}; "
          f"latencies in ms from when due{'; ' + ', '.join(servers) + ' interleaved' if args.floor else ''}")
    try:
        with tempfile.TemporaryDirectory() as directory:
            for tables in args.tables:
                by_server = {server_name: [] for server_name in servers}
                for round_ in range(args.rounds if args.floor else 1):
                    for server_name in servers:
                        result, stopped_in = night_on(server_name, name, tables, round_, directory, database_server,
                                                      database_pid, args)
                        by_server[server_name].append(result)
                        results.append(result)
                        print(f"{server_name} (round {round_ + 1}, load {os.getloadavg()[0]:.2f}) "
                              f"{report(result)}\n  server stopped in {stopped_in:.1f} s", flush=True)
                if args.floor:
                    print(compare(tables, by_server), flush=True)
    finally:
        if database_server:
            database_server.stop()
    passing = [result.tables for result in results if result.meets_targets() and result.server == "Taizhang"]
    bounds = (f"shown p99 < {SHOWN_P99_MS / 1000:g} s, no error (412 apart)" if args.live
              else f"state p99 < {STATE_P99_MS} ms, all 2xx")
    print(f"largest N with record p99 < {RECORD_P99_MS} ms, {bounds}: "
          f"{max(passing) if passing else 'none of ' + ', '.join(map(str, args.tables))}")
    return results


def night_on(server_name: str, database: str, tables: int, round_: int, directory: str, database_server,
             database_pid: int | None, args) -> tuple[Result, float]:
    """One night on a fresh database and a fresh server (Taizhang or the floor)."""
    created = database_server.create_database() if database_server else None
    label = f"{server_name}-{tables}-{round_}"
    url = (database_server.database_url(created) if database_server
           else f"sqlite:///{directory}/club-{label}.sqlite")
    server = ProductionServer(url, Path(directory) / f"gunicorn-{label}.log", app=SERVERS[server_name],
                              workers=args.workers, env=SERVER_ENV).start()
    try:
        result = play(server, tables, args, database_pid)
        result.server = server_name
    finally:
        stopping = time.monotonic()
        server.stop()
        stopped_in = time.monotonic() - stopping
        if database_server:
            database_server.drop_database(created)
    return result, stopped_in


def figures(result: Result) -> dict[str, float | None]:
    """The figures compared with the floor, of one night."""
    measured = result.measured

    def p(values, fraction):
        return percentile(values, fraction) if values else None

    found = {"shown p50 (ms)": p(measured.shown, 0.5), "shown p99 (ms)": p(measured.shown, 0.99),
             "shown after the answer p50 (ms)": p(measured.after_answer, 0.5),
             "shown after the answer p99 (ms)": p(measured.after_answer, 0.99),
             "record p50 (ms)": p(measured.latencies["record"], 0.5),
             "record p99 (ms)": p(measured.latencies["record"], 0.99),
             "server CPU per hand (ms)": result.server_cpu_s / measured.hands * 1000 if measured.hands else None,
             "hands recorded": measured.hands, "errors": sum(measured.failures.values()),
             "streams dropped": measured.stream_drops}
    if result.database_cpu_s is not None:
        found["PostgreSQL CPU per hand (ms)"] = (result.database_cpu_s / measured.hands * 1000
                                                 if measured.hands else None)
    return found


def compare(tables: int, by_server: dict[str, list[Result]]) -> str:
    """Each figure for Taizhang and the floor (median of the rounds, and their range), and the ratio: the
    median of the rounds' ratios (each round's Taizhang over the floor run next to it) and their range."""
    ours, floors = by_server["Taizhang"], by_server["floor"]
    lines = [f"N = {tables}, Taizhang against the floor, {len(ours)} rounds interleaved: median [range]"]
    for name in figures(ours[0]):
        mine = [figures(result)[name] for result in ours]
        theirs = [figures(result)[name] for result in floors]

        def spread(values):
            known = [value for value in values if value is not None]
            return (f"{percentile(known, 0.5):.1f} [{min(known):.1f}–{max(known):.1f}]" if known else "—")

        ratios = [a / b for a, b in zip(mine, theirs) if a is not None and b is not None and b > 0]
        ratio = f"× {percentile(ratios, 0.5):.2f} [{min(ratios):.2f}–{max(ratios):.2f}]" if ratios else ""
        lines.append(f"  {name}: Taizhang {spread(mine)}, floor {spread(theirs)} {ratio}")
    return "\n".join(lines)


def postmaster_pid(server) -> int | None:
    """The throw-away PostgreSQL's postmaster (its CPU is counted too); None for SQLite or a given server."""
    if not isinstance(server, pg.LocalServer):
        return None
    with open(os.path.join(server.data, "postmaster.pid")) as pid_file:
        return int(pid_file.readline())


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[100, 200, 400, 800], help="the values of N")
    parser.add_argument("--seconds", type=float, default=60, help="length of each run (the rates stay the club's)")
    parser.add_argument("--database", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--hands-before", type=int, default=8, help="hands each table has recorded at the start")
    parser.add_argument("--clients", type=int, default=4, help="client processes")
    parser.add_argument("--connections", type=int, default=16, help="keep-alive connections per client process")
    parser.add_argument("--workers", type=int, default=WORKERS, help="gunicorn processes")
    parser.add_argument("--live", action="store_true",
                        help="phones follow their tables' event streams instead of reading the state every 3 s")
    parser.add_argument("--floor", action="store_true",
                        help="run the floor (benchmarks/floor.py) interleaved with Taizhang and compare them")
    parser.add_argument("--rounds", type=int, default=3, help="with --floor: Taizhang, floor pairs per N")
    parser.add_argument("--profile", type=Path, default=None,
                        help="py-spy each gunicorn worker during the timed run into this folder (collapsed stacks)")
    args = parser.parse_args(argv)
    if args.hands_before < 1:
        parser.error("--hands-before must be at least 1: voids and corrections need an earlier hand")
    for name in (["sqlite", "postgresql"] if args.database == "both" else [args.database]):
        run_database(name, args)


if __name__ == "__main__":
    main()
