"""Abuse soak (issue 27): each flood in turn against the production server while an honest table records its hands.

Run: ``.venv/bin/python benchmarks/abuse.py [--seconds 30] [--database sqlite|postgresql|both]``

gunicorn runs as ``make serve`` does (``tests/system/server.py``: one gevent
worker per core, 1,000 connections each, rate limits on), on SQLite in a
temporary directory and on PostgreSQL (the throw-away durable server of
``tests/pg.py``), one server per database for every flood in turn. The
honest table records one hand every 1 to 1.5 s (seeded) on one keep-alive
connection and times each; nothing else of it is timed. Each flood runs for
``--seconds`` from one address (127.0.0.1, the honest table's too), in a
process of its own, with only what anyone can get (an anonymous evening, a
group it creates and that group's tokens):

- ``streams``: 2,000 event streams held open, on evenings the attacker
  created itself (as many as the creation limit gives), each refused one
  (429, 503) opened again when its ``Retry-After`` says, each one that ends
  or fails a second later;
- ``group writes``: with a member token of its own group, four loops back to
  back: 200 payments a request, members with 50 aliases, evenings imported
  into the group, hands on its own evening;
- ``group import``: whole group documents (20 evenings of 200 hands, ~1 MB)
  imported back to back from two loops;
- ``junk tokens`` (issue 39): writes, each with a random bearer token, to the
  attacker's evening (hands) and group (payments), from four loops; counted
  against the address's write limit, since no such token is a link's;
- ``bad parameters``: the former 500s of item 6 back to back (``If-Match:
  ""``, ``?season=10**20``, ``payments/2**63``, ``members/%00``,
  ``events?after=9999999999``);
- ``none`` (or ``quiet``): no flood, the honest table alone (the floor, on a loaded machine);
- issue 39, each on a competition of 1,000 entrants the attacker creates (no
  token needed), enters and draws (250 tables) before the clock starts: ``tables-pdf``, four loops of its
  cards (``tables.pdf``, the organiser's token) at once; ``report-pdf``, two
  loops of its results sheet with the read token, a hand recorded at one of
  its tables before each (a new revision: drawn anew when the limit lets it
  through); ``draw-end``, its rounds drawn and ended back to back;
  ``group-import-2mb``, group documents of ~2 MB (40 evenings) imported back
  to back from two loops.

``WORKER TIMEOUT`` lines in the server's log are counted and printed.

Printed per database and flood: the honest table's hands, p50, p99, max and
non-2xx count (target: p99 under 300 ms, no non-2xx), and what the attacker
got (status counts).
"""
from __future__ import annotations

import argparse
import asyncio
import collections
import functools
import http.client
import json
import multiprocessing
import random
import secrets
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.clients import call  # noqa: E402
from tests import pg  # noqa: E402
from tests.api.sessions.tables import DRAW, discard, self_draw, session_body  # noqa: E402
from tests.system.server import ProductionServer  # noqa: E402

STREAMS = 2000
P99_TARGET_MS = 300
PAUSE_S = 5  # between floods: what is left of one (streams closing) ends before the next is timed
HONEST_HANDS = [discard("Ben", "Cat", 1), self_draw("Amy", 2), DRAW, discard("Dan", "Amy", 3)]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--database", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--floods", default=",".join(flood for flood in FLOODS if flood != "quiet"),
                        help="comma-separated, from: " + ", ".join(FLOODS))
    args = parser.parse_args(argv)
    floods = args.floods.split(",")
    for database in (["sqlite", "postgresql"] if args.database == "both" else [args.database]):
        postgres = pg.LocalServer(durable=True) if database == "postgresql" else None
        try:
            for flood in floods:
                with tempfile.TemporaryDirectory() as directory:  # a fresh server and database for each flood
                    url = (postgres.database_url(postgres.create_database()) if postgres
                           else f"sqlite:///{directory}/abuse.sqlite")
                    log = Path(directory) / "gunicorn.log"
                    server = ProductionServer(url, log).start()
                    try:
                        run_flood(server, database, flood, args.seconds)
                    finally:
                        server.stop()
                    timeouts = log.read_text(errors="replace").count("WORKER TIMEOUT") if log.exists() else 0
                    print(f"{'':27s}{'WORKER TIMEOUT in the log':40s} {timeouts}", flush=True)
                time.sleep(PAUSE_S)
        finally:
            if postgres:
                postgres.stop()


def run_flood(server: ProductionServer, database: str, flood: str, seconds: float) -> None:
    honest = created(server, "/api/sessions", session_body())
    kit = attacker_kit(server)
    counts = multiprocessing.Manager().dict()
    if flood in ON_A_BIG_CUP:  # entered and drawn before the clock: the flood is what is measured
        kit["cup"] = big_cup(server.port, lambda what, outcome: counts.update({what: outcome}))
    stop_at = time.time() + seconds
    attacker = multiprocessing.Process(target=FLOODS[flood], args=(server.port, kit, stop_at, counts))
    attacker.start()
    time.sleep(1)  # the flood is under way when the honest clock starts
    latencies = record_hands(server.port, honest, stop_at)
    attacker.join()
    report(database, flood, latencies, dict(counts))


# -- the honest table ----------------------------------------------------------------------------


def record_hands(port: int, session: dict, stop_at: float) -> list[tuple[float, int]]:
    """(latency in ms, status) of each hand, one every 1 to 1.5 s."""
    rng = random.Random(27)
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {session['token']}"}
    latencies = []
    number = 0
    while time.time() < stop_at:
        tick = time.perf_counter()
        try:
            connection.request("POST", f"/api/sessions/{session['id']}/hands",
                               body=json.dumps(HONEST_HANDS[number % 4]), headers=headers)
            response = connection.getresponse()
            response.read()
            status = response.status
        except (OSError, http.client.HTTPException):
            connection.close()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            status = 0
        latencies.append(((time.perf_counter() - tick) * 1000, status))
        number += 1
        time.sleep(max(0.0, rng.uniform(1.0, 1.5) - (time.perf_counter() - tick)))
    connection.close()
    return latencies


# -- what the attacker has ------------------------------------------------------------------------


def created(server: ProductionServer, path: str, body: dict, headers: dict | None = None) -> dict:
    status, answer = server.call("POST", path, body, headers)
    assert status == 201, (path, status, answer)
    return answer


def attacker_kit(server: ProductionServer) -> dict:
    """An evening of the attacker's own, its export, a group of its own with four members and an evening."""
    session = created(server, "/api/sessions", session_body())
    hands = [discard("Ben", "Cat", 2), self_draw("Amy", 1), DRAW, discard("Dan", "Amy", 3)]
    for index in range(200):
        status, _ = server.call("POST", f"/api/sessions/{session['id']}/hands", hands[index % 4],
                                {"Authorization": f"Bearer {session['token']}"})
        assert status == 201
    status, export = server.call("GET", f"/api/sessions/{session['id']}/export",
                                 headers={"Authorization": f"Bearer {session['token']}"})
    assert status == 200
    group = created(server, "/api/groups", {"name": f"Mob {random.random()}",
                                            "defaults": {"ruleset": "taiwan", "stakes": {"base": 100, "per_tai": 20}}})
    member = {"Authorization": f"Bearer {group['member_token']}"}
    for name in ("Amy", "Ben", "Cat", "Dan"):
        created(server, f"/api/groups/{group['id']}/members", {"name": name}, member)
    evening = created(server, "/api/sessions", {"name": "Mob night", "players": ["Amy", "Ben", "Cat", "Dan"],
                                                "group": group["id"]}, member)
    return {"session": session, "export": export, "group": group, "evening": evening}


def counter(counts):
    tally = collections.Counter()
    lock = threading.Lock()

    def count(what: str, outcome) -> None:
        with lock:
            tally[f"{what}: {outcome}"] += 1

    return tally, count


def loops(functions, stop_at: float, tally, counts) -> None:
    def repeat(function):
        while time.time() < stop_at:
            function()

    threads = [threading.Thread(target=repeat, args=(function,)) for function in functions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    counts.update(tally)


# -- the floods -----------------------------------------------------------------------------------


def flood_streams(port: int, kit: dict, stop_at: float, counts) -> None:
    """2,000 streams held open; a refused or ended one is opened again a second later."""
    tally, count = counter(counts)
    evenings = [kit["session"]]
    while len(evenings) < 40 and time.time() < stop_at:  # as many evenings as the creation limit gives
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("POST", "/api/sessions", body=json.dumps(session_body()),
                           headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        answer = json.loads(response.read())
        connection.close()
        if response.status != 201:
            break
        evenings.append(answer)
    count("evenings to stream", len(evenings))

    async def hold(index: int) -> None:
        session = evenings[index % len(evenings)]
        while time.time() < stop_at:
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.write(f"GET /api/sessions/{session['id']}/events?token={session['read_token']} HTTP/1.1\r\n"
                             f"Host: x\r\n\r\n".encode())
                await writer.drain()
                status = (await asyncio.wait_for(reader.readline(), 30)).split(b" ")[1].decode()
                count("stream", status)
                wait = 1.0
                while line := (await asyncio.wait_for(reader.readline(), 30)).strip():
                    if line.lower().startswith(b"retry-after:"):
                        wait = float(line.split(b":")[1])
                if status == "200":
                    while time.time() < stop_at and await asyncio.wait_for(reader.read(4096), stop_at - time.time()):
                        pass
                writer.close()
            except (OSError, IndexError, ValueError, asyncio.TimeoutError) as error:
                count("stream", type(error).__name__)
                wait = 1.0
            await asyncio.sleep(wait)

    async def everyone():
        await asyncio.gather(*(hold(index) for index in range(STREAMS)))

    asyncio.run(everyone())
    counts.update(tally)


def flood_group_writes(port: int, kit: dict, stop_at: float, counts) -> None:
    tally, count = counter(counts)
    group, evening = kit["group"], kit["evening"]
    member = {"Authorization": f"Bearer {group['member_token']}"}
    path = f"/api/groups/{group['id']}"
    payments = {"payments": [{"from": "Amy", "to": "Ben", "amount": 1}] * 200}
    serial = iter(range(10**9))
    import_body = {"export": kit["export"], "players": {"Amy": "Amy", "Ben": "Ben", "Cat": "Cat", "Dan": "Dan"}}
    loops([
        lambda: count("200 payments", call(port, "POST", f"{path}/payments", payments, member)),
        lambda: count("member with 50 aliases", call(port, "POST", f"{path}/members", {
            "name": f"Guest {next(serial)}", "aliases": [f"G{next(serial)}" for _ in range(50)]}, member)),
        lambda: count("evening import", call(port, "POST", f"{path}/sessions/import", import_body, member)),
        lambda: count("hand", call(port, "POST", f"/api/sessions/{evening['id']}/hands", DRAW, member)),
    ], stop_at, tally, counts)


def flood_group_import(port: int, kit: dict, stop_at: float, counts, evenings: int = 20) -> None:
    tally, count = counter(counts)
    members = [{"id": f"m{index}", "name": name} for index, name in enumerate(["Amy", "Ben", "Cat", "Dan"])]
    players = {"Amy": "m0", "Ben": "m1", "Cat": "m2", "Dan": "m3"}
    document = json.dumps({"format": "taizhang-group", "version": 1, "name": "Mob", "members": members,
                           "payments": [], "seasons": [],
                           "evenings": [{"id": f"e{index}", "players": players, "export": kit["export"]}
                                        for index in range(evenings)]}).encode()
    count("document KB", len(document) // 1024)
    loops([lambda: count("group import", call(port, "POST", "/api/groups/import", document, timeout=120))] * 2,
          stop_at, tally, counts)


def flood_bad_parameters(port: int, kit: dict, stop_at: float, counts) -> None:
    tally, count = counter(counts)
    group, session = kit["group"], kit["session"]
    admin = {"Authorization": f"Bearer {group['admin_token']}"}
    path = f"/api/groups/{group['id']}"
    loops([
        lambda: count("If-Match \"\"", call(port, "POST", f"/api/sessions/{session['id']}/hands", DRAW,
                                           {"Authorization": f"Bearer {session['token']}", "If-Match": '""'})),
        lambda: count("season 10**20", call(port, "GET", f"{path}/standings?season=99999999999999999999",
                                            headers=admin)),
        lambda: count("payments/2**63", call(port, "DELETE", f"{path}/payments/9223372036854775808",
                                             headers=admin)),
        lambda: count("members/%00", call(port, "GET", f"{path}/members/%00", headers=admin)),
        lambda: count("after=9999999999", call(port, "GET", f"/api/sessions/{session['id']}/events?after=9999999999"
                                                            f"&token={session['read_token']}")),
    ], stop_at, tally, counts)


def flood_junk_tokens(port: int, kit: dict, stop_at: float, counts) -> None:
    tally, count = counter(counts)
    session, group = kit["session"], kit["group"]
    payment = {"from": "Amy", "to": "Ben", "amount": 1}

    def junk() -> dict:
        return {"Authorization": f"Bearer {secrets.token_urlsafe(32)}"}

    loops([
        lambda: count("hand, random token", call(port, "POST", f"/api/sessions/{session['id']}/hands", DRAW, junk())),
        lambda: count("payment, random token", call(port, "POST", f"/api/groups/{group['id']}/payments", payment,
                                                    junk())),
    ] * 2, stop_at, tally, counts)


ENTRANTS = 1000
CUP = {"name": "Mob cup", "ruleset": "taiwan", "stakes": {"base": 100, "per_tai": 20}, "rounds": 30,
       "round": {"minutes": 90, "until": "jiang", "grace": 0}, "ranking": {"placement_points": [4, 2, 1, 0]},
       "seating": "swiss"}


def big_cup(port: int, count) -> tuple[str, dict, dict]:
    """A competition of ``ENTRANTS`` with round 1 drawn: its path, its tokens' headers and the draw's answer."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

    def send(method, path, body, headers):
        connection.request(method, path, body=json.dumps(body),
                           headers={"Content-Type": "application/json", **headers})
        response = connection.getresponse()
        answer = json.loads(response.read())
        assert response.status in (200, 201), (path, response.status, answer)
        return answer

    cup = send("POST", "/api/competitions", CUP, {})
    path = f"/api/competitions/{cup['id']}"
    organizer = {"Authorization": f"Bearer {cup['organizer_token']}"}
    send("POST", f"{path}/entrants", {"names": [f"Mob {index}" for index in range(ENTRANTS)]}, organizer)
    tick = time.perf_counter()
    drawn = send("POST", f"{path}/rounds", {}, organizer)
    count("setup: round 1 drawn (ms)", round((time.perf_counter() - tick) * 1000))
    connection.close()
    return path, {"organizer": organizer, "read": {"Authorization": f"Bearer {cup['read_token']}"}}, drawn


def flood_tables_pdf(port: int, kit: dict, stop_at: float, counts) -> None:
    """Four loops of the cards of a round of 250 tables at once (the organiser's token: the per-link limit)."""
    tally, count = counter(counts)
    path, tokens, _ = kit["cup"]
    loops([lambda: count("tables.pdf", call(port, "GET", f"{path}/tables.pdf", headers=tokens["organizer"],
                                            timeout=120))] * 4, stop_at, tally, counts)


def flood_report_pdf(port: int, kit: dict, stop_at: float, counts) -> None:
    """Two loops of the results sheet with the read token, a hand at one of the tables before each."""
    tally, count = counter(counts)
    path, tokens, drawn = kit["cup"]
    count("start", call(port, "POST", f"{path}/rounds/1/start", {}, tokens["organizer"]))
    tables = iter(drawn["tables"] * 100)

    def hand_then_sheet():
        table = next(tables)
        east, south, west, north = table["seats"]
        count("hand at a table", call(port, "POST", f"/api/sessions/{table['session']}/hands",
                                      discard(south, west, 3), {"Authorization": f"Bearer {table['token']}"}))
        count("report.pdf", call(port, "GET", f"{path}/report.pdf", headers=tokens["read"], timeout=120))

    loops([hand_then_sheet] * 2, stop_at, tally, counts)


def flood_draw_end(port: int, kit: dict, stop_at: float, counts) -> None:
    """The organiser draws and ends rounds of 250 tables back to back."""
    tally, count = counter(counts)
    path, tokens, _ = kit["cup"]
    number = [1]

    def end_then_draw():
        status = call(port, "POST", f"{path}/rounds/{number[0]}/end", {}, tokens["organizer"], timeout=120)
        count("end", status)
        if status == 200:
            number[0] += 1
        status = call(port, "POST", f"{path}/rounds", {}, tokens["organizer"], timeout=120)
        count("draw", status)
        if status != 201:
            time.sleep(1)  # limited: what an organiser's page does, not a loop of refusals

    loops([end_then_draw], stop_at, tally, counts)


def flood_none(port: int, kit: dict, stop_at: float, counts) -> None:
    """Nothing: the honest table alone, the floor the floods are read against on a loaded machine."""
    time.sleep(max(0.0, stop_at - time.time()))


ON_A_BIG_CUP = ("tables-pdf", "report-pdf", "draw-end")
FLOODS = {"none": flood_none, "quiet": flood_none, "streams": flood_streams, "group-writes": flood_group_writes, "group-import": flood_group_import,
          "bad-parameters": flood_bad_parameters, "tables-pdf": flood_tables_pdf, "report-pdf": flood_report_pdf,
          "draw-end": flood_draw_end, "junk-tokens": flood_junk_tokens, "group-import-2mb": functools.partial(flood_group_import, evenings=40)}


# -- the report -----------------------------------------------------------------------------------


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def report(database: str, flood: str, latencies: list[tuple[float, int]], counts: dict) -> None:
    times = [latency for latency, _ in latencies]
    errors = sum(not 200 <= status < 300 for _, status in latencies)
    p99 = percentile(times, 0.99)
    met = "met" if p99 < P99_TARGET_MS and not errors else "NOT MET"
    print(f"{database:10s} {flood:15s} honest: {len(times):3d} hands  p50 {percentile(times, 0.5):7.1f} ms  "
          f"p99 {p99:7.1f} ms  max {max(times):7.1f} ms  non-2xx {errors}  ({met})", flush=True)
    for outcome, number in sorted(counts.items()):
        print(f"{'':27s}{outcome:40s} {number}", flush=True)


if __name__ == "__main__":
    main()
