"""A session of 1,000 hands: replay time and reading the session's state (target: each under 50 ms).

Run: ``.venv/bin/python benchmarks/replay.py [--hands 1000] [--repeats 15] [--database-url URL]``

For each mix of 1,000 hands it measures, after one warm-up, the median and the
slowest of ``--repeats`` runs:

- ``replay``: ``ledger.recorder.Recorder.replay`` of every entry from the
  first, in process, no database: cold (every full entry scored by the
  engine), cold on a new evening each run (the same mix from another seed, so
  that no cache of the engine has seen its hands: what a server meets when it
  imports a backup), keeping stored scores (what a void or a correction does for a
  full entry whose seats, dealer and winds did not move), and after a void
  that moves the deal under every later hand (its first hand that passed
  the deal voided, the stored results given: a full entry is scored again
  only where what it reads of the table changed); for full entries
  also the part of a cold replay spent outside ``ledger.scoring.Scorer.score`` (the
  bookkeeping around the engine: checks, table state, payments, result and
  breakdown dicts);
- ``GET session``: ``GET /api/sessions/<id>`` through the Flask test client on
  a database holding the session (SQLite in a temporary directory unless
  ``--database-url`` names another, e.g. a PostgreSQL database to fill);
- and, for reference, ``GET hands`` (all 1,000 hands) and ``void + restore``
  (``DELETE`` then ``PUT`` of a hand: two replays with every changed result
  written back), end to end, of the last hand (a typical correction) and of
  hand 1 (the worst case: every later hand's state changes, and when the deal
  moves every later full entry is scored again).

The process is set up as a worker of the production server is: the app is
built, then frozen out of reach of the garbage collector
(``api.gunicorn_config.freeze_loaded_app``). So is each mix's own evening
before it is timed (a server would not hold it); the new evenings of
``replay, cold, new`` are made one at a time and are not frozen, as the
document of an import is not.

Mixes: Taiwanese quick entry (each winner's 台), Shanghai quick entry (points,
dice, 三口), and Taiwanese full entry (every winner's tiles, scored by the
engine again on each replay). The session is loaded with
``POST /api/sessions/import``, whose document carries the totals and state of
an in-process replay, so loading also checks them.
"""
from __future__ import annotations

import argparse
import datetime
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from api import create_app  # noqa: E402
from api.http import db
from api.gunicorn_config import freeze_loaded_app  # noqa: E402
from ledger import scoring  # noqa: E402
from benchmarks.score_throughput import taiwan_request  # noqa: E402
from ledger.recorder import Event, Recorder  # noqa: E402
from tests.system.evening import random_hand as quick_hand  # noqa: E402  (the load tests' hands)

PLAYERS = ["Amy", "Ben", "Cat", "Dan"]
STAKES = {"taiwan": {"base": 100, "per_tai": 20}, "shanghai": {"base": 10}}
TARGET_MS = 50
DRAW_SHARE = 0.1


def full_hand(rng: random.Random, _ruleset: str) -> dict:
    """A full-entry Taiwanese hand: a random legal 17-tile win (benchmarks/score_throughput.py)."""
    if rng.random() < DRAW_SHARE:
        return {"draw": True, "reason": "exhausted"}
    request = taiwan_request(rng)
    winner, discarder = rng.sample(PLAYERS, 2)
    hand = {"winners": [{"player": winner, "hand": request["hand"], "win": request["win"]}],
            "by": request["win"]["by"]}
    if hand["by"] != "self_draw":
        hand["discarder"] = discarder
    return hand


MIXES: dict[str, tuple[str, Callable]] = {
    "taiwan quick entry": ("taiwan", quick_hand),
    "shanghai quick entry": ("shanghai", quick_hand),
    "taiwan full entry": ("taiwan", full_hand),
}


def evening(ruleset: str, make: Callable, hands: int, seed: int) -> list[Event]:
    rng = random.Random(seed)
    return [Event("hand", make(rng, ruleset), number=n) for n in range(1, hands + 1)]


def replay(ruleset: str, events: list[Event]) -> tuple[Recorder, list[dict]]:
    return Recorder.replay(ruleset, PLAYERS, STAKES[ruleset], {}, events)


def document(ruleset: str, events: list[Event]) -> dict:
    """The backup document of the evening (``api.sessions.schemas``), with the totals and state it replays to."""
    recorder, _ = replay(ruleset, events)
    stamp = datetime.datetime.now(datetime.timezone.utc).isoformat()
    entries = [{"kind": "hand", "number": e.number, "body": e.body, "void": False, "client": "benchmark",
                "created_at": stamp, "updated_at": stamp} for e in events]
    return {"format": "taizhang-session", "version": 1, "name": "Benchmark", "ruleset": ruleset,
            "players": PLAYERS, "stakes": STAKES[ruleset], "options": {}, "created_at": stamp,
            "entries": entries, "audit": [], "state": recorder.state.to_dict(), "totals": recorder.totals}


def timed_each(action: Callable[[list[Event]], object], evenings: Iterator[list[Event]]) -> list[float]:
    """Milliseconds of ``action`` on each evening but the first (the warm-up): every timed run sees new hands.

    Each evening is made just before its run and dropped after it, as a server holds only the backup it imports.
    """
    action(next(evenings))
    times = []
    for events in evenings:
        start = time.perf_counter()
        action(events)
        times.append((time.perf_counter() - start) * 1000)
        del events
    return times


def timed(action: Callable[[], object], repeats: int) -> list[float]:
    """Milliseconds of each of ``repeats`` runs of ``action``, after one warm-up run."""
    action()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return times


def outside_engine(action: Callable[[], object], repeats: int) -> list[float]:
    """Milliseconds of each run of ``action`` spent outside ``ledger.scoring.Scorer.score``.

    The engine is timed by wrapping it for these runs only (the wrapper adds
    well under a microsecond a call), so the rest is what the replay itself costs.
    """
    inside = [0.0]
    score = scoring.Scorer.score  # what a replay scores every full entry with

    def timed_score(scorer, *args, **kwargs):
        start = time.perf_counter()
        try:
            return score(scorer, *args, **kwargs)
        finally:
            inside[0] += time.perf_counter() - start

    def run():
        inside[0] = 0.0
        start = time.perf_counter()
        action()
        return time.perf_counter() - start - inside[0]

    scoring.Scorer.score = timed_score
    try:
        run()
        return [run() * 1000 for _ in range(repeats)]
    finally:
        scoring.Scorer.score = score


def deal_moved(kept: list[Event], results: list[dict]) -> list[Event]:
    """``kept`` with its first hand that passed the deal voided: every later hand sits at another table.

    What a server replays when that hand is voided (the stored results given
    as ``earlier``): a full entry keeps its breakdown where nothing it reads
    of the table changed (``scoring.holds_at``) and is scored again elsewhere.
    """
    first = next(i for i, result in enumerate(results) if result["after"]["dealer"] != result["dealer"])
    return [event._replace(void=True) if i == first else event for i, event in enumerate(kept)]


def served(client, method: str, path: str, headers: dict, body=None, status: int = 200) -> Callable[[], object]:
    def call():
        response = client.open(path, method=method, headers=headers, json=body)
        assert response.status_code == status, response.get_json()
        return response
    return call


def measure_mix(name: str, ruleset: str, make: Callable, app, hands: int, repeats: int) -> dict[str, list[float]]:
    events = evening(ruleset, make, hands, seed=list(MIXES).index(name))
    client = app.test_client()
    response = client.post("/api/sessions/import", json=document(ruleset, events))
    assert response.status_code == 201, response.get_json()
    created = response.get_json()
    path, headers = f"/api/sessions/{created['id']}", {"Authorization": f"Bearer {created['token']}"}
    results = replay(ruleset, events)[1]
    kept = [event._replace(earlier=result) for event, result in zip(events, results)]
    moved = deal_moved(kept, results)

    def void_and_restore(number: int):
        def run():
            served(client, "DELETE", f"{path}/hands/{number}", headers)()
            served(client, "PUT", f"{path}/hands/{number}", headers, events[number - 1].body)()
        return run

    # What the server would not hold (this mix's evenings, its import's answer) is frozen like the app, so that
    # collections look at what a replay makes; the new evenings are made one at a time, after the freeze.
    freeze_loaded_app()
    new_evenings = (evening(ruleset, make, hands, seed=1000 + run) for run in range(repeats + 1))
    figures = {
        "replay, cold": timed(lambda: replay(ruleset, events), repeats),
        "replay, cold, new": timed_each(lambda other: replay(ruleset, other), new_evenings),
        "replay, kept": timed(lambda: replay(ruleset, kept), repeats),
        "replay, deal moved": timed(lambda: replay(ruleset, moved), repeats),
    }
    if make is full_hand:
        figures["cold minus engine"] = outside_engine(lambda: replay(ruleset, events), repeats)
    return figures | {
        "GET session": timed(served(client, "GET", path, headers), repeats),
        "GET hands": timed(served(client, "GET", f"{path}/hands", headers), repeats),
        "void+restore last": timed(void_and_restore(hands), max(3, repeats // 5)),
        "void+restore 1st": timed(void_and_restore(1), max(3, repeats // 5)),
    }


def report(name: str, hands: int, figures: dict[str, list[float]]) -> None:
    print(f"{name}, {hands} hands:")
    for what, times in figures.items():
        verdict = ""
        if what.startswith("replay") or what == "GET session":
            verdict = "  meets < 50 ms" if statistics.median(times) < TARGET_MS else "  MISSES < 50 ms"
        print(f"  {what:18} median {statistics.median(times):7.1f} ms   slowest {max(times):7.1f} ms  "
              f"({len(times)} runs){verdict}")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=15, help="timed runs per figure (after one warm-up)")
    parser.add_argument("--database-url", help="an empty database to fill (default: SQLite in a temp dir)")
    parser.add_argument("--mix", choices=list(MIXES), action="append", help="only these mixes")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as directory:
        app = create_app({"DATABASE_URL": args.database_url or f"sqlite:///{directory}/replay.sqlite"})
        freeze_loaded_app()  # as each gunicorn worker does once it has loaded the app
        print(f"database: {app.config['DATABASE_URL'].split('?')[0].split(':')[0]}")
        try:
            for name in args.mix or MIXES:
                ruleset, make = MIXES[name]
                report(name, args.hands, measure_mix(name, ruleset, make, app, args.hands, args.repeats))
        finally:
            db.dispose(app)


if __name__ == "__main__":
    main()
