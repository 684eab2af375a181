"""A group's figures at scale: standings, ratings, a member page, balances and the group PDF over 500 evenings.

Run: ``.venv/bin/python benchmarks/groups.py [--evenings 500] [--hands 20] [--payments 300]
[--repeats 20] [--database sqlite|postgresql|both]``

Issue 19's performance case, through the production server (gunicorn as
``make serve`` runs it, ``tests/system/server.py``) on SQLite in a temporary
directory and on PostgreSQL (the throw-away server of ``tests/pg.py``, or the
one ``TEST_DATABASE_URL`` names), a fresh database each.

Built first (not timed), over HTTP as a group's phones would build it: a group
of 12 members (two with Chinese names), ``--evenings`` evenings one week apart
(each four members picked at random; every fifth evening shanghai, the others
taiwan), each of ``--hands`` hands: quick entries (discard and self-drawn wins,
draws, now and then a 詐胡) and full entries (tiles scored by the engine); in
one evening in ten a substitute sits down halfway; one hand in 25 is voided
afterwards; then ``--payments`` payments between members, one in ten naming
an evening, and a season covering the last 52 weeks. Every evening is closed
(ratings count closed evenings only). The evenings' start
times (``sessions.created_at``) are moved to their weekly dates in the
database right after the evenings are created and before any hand is
recorded, so the season holds a year's evenings and every figure the server
keeps per evening is written after the move (the API has no way to start an
evening in the past).

Timed: ``--repeats`` rounds, each asking once, in turn, on one keep-alive
connection with the group's read token: standings of all time, standings of
the season, the ratings of all time (every evening replayed from scratch,
``ledger.ratings``) and of the season, one member's page (the member with the
most evenings), the balances, the group PDF (every fourth round only: it takes
seconds), closing the last evening (reopened untimed just before: ratings add
nothing to a close, they are computed on read), and the reference, ``GET`` of
one evening's state. One warm-up round first. Printed
per database: the median and p90 of each, its ratio to the reference's
median, and the issue's targets (standings and balances < 100 ms, a member
page < 200 ms, the PDF < 3 s). Every answer must be 200, else the run stops.

The plan of the group (`plan`) is pure and seeded: the same arguments build
the same group on both databases.
"""
from __future__ import annotations

import argparse
import datetime
import http.client
import json
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy import bindparam, create_engine, update  # noqa: E402

from ledger.group_store import GroupEveningRow  # noqa: E402
from ledger.store import SessionRow  # noqa: E402
from tests import pg  # noqa: E402
from tests.system.server import ProductionServer  # noqa: E402

MEMBERS = ["Amy", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "小明", "阿美"]
FIRST_EVENING = datetime.date(2017, 1, 6)  # a Friday; one evening a week from here
EVENING_START = datetime.time(19, 30, tzinfo=datetime.timezone.utc)
SEASON_WEEKS = 52
STAKES = {"taiwan": {"base": 50, "per_tai": 10}, "shanghai": {"base": 10}}
SHANGHAI_EVERY = 5  # every fifth evening is shanghai
SUBSTITUTE_EVERY = 10  # one evening in ten a substitute sits down halfway
VOID_ONE_IN = 25
PDF_EVERY = 4  # the PDF is timed every fourth round
CLOSE = "close an evening"
TARGETS_MS = {"standings (all time)": 100, "standings (season)": 100, "member page": 200, "balances": 100,
              "group PDF": 3000}
#: Full entries (the tiles; the engine scores them wherever they sit: no wind or flower in them).
ALL_CHOWS = {"concealed": "123m456m789p234s56s55p", "melds": [], "winning_tile": "7s"}
HALF_FLUSH = {"concealed": "345p567p999p777z2p", "melds": [{"kind": "chow", "tiles": "123p"}],
              "winning_tile": "2p"}


@dataclass
class EveningPlan:
    """One evening to build: `events` are ("hand" | "seat", body) in order; `voids` the hand numbers voided after."""

    name: str
    day: datetime.date
    ruleset: str
    players: list[str]
    events: list[tuple[str, dict]] = field(default_factory=list)
    voids: list[int] = field(default_factory=list)


@dataclass
class GroupPlan:
    evenings: list[EveningPlan]
    payments: list[dict]
    season: dict


def plan(evenings: int, hands: int, payments: int, seed: int = 19) -> GroupPlan:
    """The whole group to build, from `seed` alone."""
    rng = random.Random(seed)
    planned = []
    for index in range(evenings):
        ruleset = "shanghai" if index % SHANGHAI_EVERY == SHANGHAI_EVERY - 1 else "taiwan"
        players = rng.sample(MEMBERS, 4)
        evening = EveningPlan(f"Evening {index + 1}", FIRST_EVENING + datetime.timedelta(weeks=index), ruleset,
                              list(players))
        seats = list(players)
        for number in range(1, hands + 1):
            if index % SUBSTITUTE_EVERY == 0 and number == hands // 2 + 1:
                seat = rng.randrange(4)
                seats[seat] = rng.choice([m for m in MEMBERS if m not in seats])
                evening.events.append(("seat", {"seat": seat, "player": seats[seat]}))
            evening.events.append(("hand", hand_body(rng, ruleset, seats)))
            if rng.randrange(VOID_ONE_IN) == 0:
                evening.voids.append(number)
        planned.append(evening)
    paid = []
    for index in range(payments):
        payer, payee = rng.sample(MEMBERS, 2)
        payment = {"from": payer, "to": payee, "amount": 10 * rng.randint(1, 100), "note": f"payment {index + 1}"}
        if index % 10 == 0 and planned:
            payment["session"] = rng.randrange(len(planned))  # an evening's index, made its id when sent
        paid.append(payment)
    last = planned[-1].day if planned else FIRST_EVENING
    season = {"name": "last 52 weeks", "from": (last - datetime.timedelta(weeks=SEASON_WEEKS - 1)).isoformat(),
              "to": last.isoformat()}
    return GroupPlan(planned, paid, season)


def hand_body(rng: random.Random, ruleset: str, seats: list[str]) -> dict:
    """One hand as a table enters it at `seats`: quick or full entries, draws, now and then a 詐胡."""
    roll = rng.random()
    winner, discarder = rng.sample(seats, 2)
    if roll < 0.08:
        return {"draw": True, "reason": "exhausted"}
    if roll < 0.10:
        return {"false_win": winner}
    by = "self_draw" if roll < 0.35 else "discard"
    if ruleset == "shanghai":
        winners = [{"player": winner, "points": rng.choice([2, 4, 6, 8, 10, 20])}]
    elif roll < 0.60 or roll >= 0.90:  # a quick entry
        winners = [{"player": winner, "tai": rng.randint(0, 8)}]
    else:  # a full entry: the engine counts it
        winners = [{"player": winner, "hand": rng.choice([ALL_CHOWS, HALF_FLUSH]), "win": {"by": by}}]
    body = {"winners": winners, "by": by}
    if by == "discard":
        body["discarder"] = discarder
    return body


# -- the client -------------------------------------------------------------------


class Client:
    """One keep-alive connection; JSON or bytes back, every answer checked."""

    def __init__(self, port: int):
        self.http = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

    def raw(self, method: str, path: str, body=None, token: str | None = None) -> tuple[int, bytes]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self.http.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
        response = self.http.getresponse()
        return response.status, response.read()

    def json(self, method: str, path: str, body=None, token: str | None = None, expect: int = 200):
        status, data = self.raw(method, path, body, token)
        if status != expect:
            raise RuntimeError(f"{method} {path} answered {status}, not {expect}: {data[:500]!r}")
        return json.loads(data) if data else None


@dataclass
class Built:
    group: str
    tokens: dict
    evenings: list[dict]  # each {"id", "token"}
    member: str  # the member with the most evenings
    season: str


def build(client: Client, database_url: str, group_plan: GroupPlan) -> Built:
    """Build the planned group over HTTP (and move the evenings' dates in the database)."""
    group = client.json("POST", "/api/groups", {"name": "Benchmark club 牌友會", "defaults": {
        "ruleset": "taiwan", "stakes": STAKES["taiwan"]}}, expect=201)
    admin, member = group["admin_token"], group["member_token"]
    base = f"/api/groups/{group['id']}"
    for name in MEMBERS:
        client.json("POST", f"{base}/members", {"name": name}, admin, expect=201)
    made = []
    for evening in group_plan.evenings:
        session = client.json("POST", "/api/sessions", {
            "group": group["id"], "name": evening.name, "ruleset": evening.ruleset,
            "stakes": STAKES[evening.ruleset], "players": evening.players}, member, expect=201)
        made.append({"id": session["id"], "token": session["token"]})
    move_dates(database_url, [(made[i]["id"], e.day) for i, e in enumerate(group_plan.evenings)])
    for evening, session in zip(group_plan.evenings, made):
        path = f"/api/sessions/{session['id']}"
        for kind, body in evening.events:
            client.json("POST", f"{path}/{'hands' if kind == 'hand' else 'seats'}", body, session["token"], expect=201)
        for number in evening.voids:
            client.json("DELETE", f"{path}/hands/{number}", token=session["token"])
        client.json("POST", f"{path}/close", token=session["token"])
    for payment in group_plan.payments:
        if "session" in payment:
            payment = {**payment, "session": made[payment["session"]]["id"]}
        client.json("POST", f"{base}/payments", payment, member, expect=201)
    season = client.json("POST", f"{base}/seasons", group_plan.season, admin, expect=201)
    evenings_of = {name: sum(name in e.players for e in group_plan.evenings) for name in MEMBERS}
    busiest = max(MEMBERS, key=lambda name: (evenings_of[name], name))
    return Built(group["id"], group, made, busiest, season["id"])


def move_dates(database_url: str, days: list[tuple[str, datetime.date]]) -> None:
    """Start each evening on its planned day (19:30 UTC): the session's start and the group evening's day
    (what periods are read by), in one transaction."""
    engine = create_engine(database_url)
    sessions, evenings = SessionRow.__table__, GroupEveningRow.__table__
    rows = [{"session": session, "day": day, "at": datetime.datetime.combine(day, EVENING_START)}
            for session, day in days]
    try:
        with engine.begin() as connection:
            connection.execute(update(sessions).where(sessions.c.id == bindparam("session"))
                               .values(created_at=bindparam("at"), updated_at=bindparam("at")), rows)
            connection.execute(update(evenings).where(evenings.c.session_id == bindparam("session"))
                               .values(day=bindparam("day")), rows)
    finally:
        engine.dispose()


def requests(built: Built) -> dict[str, str]:
    """What is timed: name -> path (the reference last)."""
    base = f"/api/groups/{built.group}"
    middle = built.evenings[len(built.evenings) // 2]["id"]
    return {
        "standings (all time)": f"{base}/standings",
        "standings (season)": f"{base}/standings?season={built.season}",
        "ratings (all time)": f"{base}/ratings",
        "ratings (season)": f"{base}/ratings?season={built.season}",
        CLOSE: f"/api/sessions/{built.evenings[-1]['id']}",
        "member page": f"{base}/members/{quote(built.member)}",
        "balances": f"{base}/balances",
        "group PDF": f"{base}/report.pdf",
        "evening state (reference)": f"/api/sessions/{middle}",
    }


def measure(client: Client, built: Built, repeats: int) -> dict[str, list[float]]:
    """Milliseconds of each request over `repeats` rounds (after one warm-up round)."""
    paths = requests(built)
    times: dict[str, list[float]] = {name: [] for name in paths}
    for round_ in range(repeats + 1):
        for name, path in paths.items():
            if name == "group PDF" and round_ % PDF_EVERY:
                continue
            if name == CLOSE:
                token = built.evenings[-1]["token"]
                client.json("POST", f"{path}/reopen", token=token)
                start = time.perf_counter()
                status, data = client.raw("POST", f"{path}/close", token=token)
            else:
                start = time.perf_counter()
                status, data = client.raw("GET", path, token=built.tokens["read_token"])
            elapsed = (time.perf_counter() - start) * 1000
            if status != 200:
                raise RuntimeError(f"GET {path} answered {status}: {data[:500]!r}")
            if round_:  # round 0 warms up
                times[name].append(elapsed)
    return times


def summary(times: dict[str, list[float]]) -> list[str]:
    """One line per request: median, p10–p90, ratio to the reference's median, and the target."""
    reference = statistics.median(times["evening state (reference)"])
    lines = []
    for name, values in times.items():
        median = statistics.median(values)
        ordered = sorted(values)
        p10, p90 = ordered[round(0.1 * (len(values) - 1))], ordered[max(0, round(0.9 * len(values)) - 1)]
        target = TARGETS_MS.get(name)
        verdict = "" if target is None else f"  target < {target} ms: {'met' if median < target else 'MISSED'}"
        lines.append(f"  {name:<26} median {median:8.1f} ms  p10–p90 {p10:.1f}–{p90:.1f} ms  × {median / reference:6.1f} of the "
                     f"state{verdict}  ({len(values)} runs)")
    return lines


def run_database(name: str, args) -> None:
    database_server = pg.start_server() if name == "postgresql" else None
    group_plan = plan(args.evenings, args.hands, args.payments, args.seed)
    try:
        with tempfile.TemporaryDirectory() as directory:
            database = database_server.create_database() if database_server else None
            url = database_server.database_url(database) if database_server else f"sqlite:///{directory}/groups.sqlite"
            server = ProductionServer(url, Path(directory) / "gunicorn.log",
                                      env={"TAIZHANG_RATELIMIT_ENABLED": "false"}).start()
            try:
                client = Client(server.port)
                started = time.monotonic()
                built = build(client, url, group_plan)
                print(f"\n{name}: built {args.evenings} evenings × {args.hands} hands, {args.payments} payments "
                      f"in {time.monotonic() - started:.0f} s; timing {args.repeats} rounds", flush=True)
                for line in summary(measure(client, built, args.repeats)):
                    print(line, flush=True)
            finally:
                server.stop()
                if database_server:
                    database_server.drop_database(database)
    finally:
        if database_server:
            database_server.stop()


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--evenings", type=int, default=500)
    parser.add_argument("--hands", type=int, default=20, help="hands per evening")
    parser.add_argument("--payments", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=20, help="timed rounds (the PDF every fourth)")
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--database", choices=["sqlite", "postgresql", "both"], default="both")
    args = parser.parse_args(argv)
    if args.evenings < 1 or args.hands < 2 or args.repeats < PDF_EVERY:
        parser.error(f"--evenings ≥ 1, --hands ≥ 2 and --repeats ≥ {PDF_EVERY}")
    for name in (["sqlite", "postgresql"] if args.database == "both" else [args.database]):
        run_database(name, args)


if __name__ == "__main__":
    main()
