"""The time of a competition's draw and standings at 800 entrants (200 tables), in this process (issue 31).

Run: ``nice -n 5 .venv/bin/python benchmarks/competition.py [--entrants 801] [--rounds 7] [--repeats 3]``
and, through the API (Flask's test client, no HTTP server): ``… --api [--database sqlite|postgresql]``

A whole competition of ``--entrants`` (and one more than a multiple of four, so that three sit out each
round) is played with random results, every round drawn by ``ledger.competition.seat_round`` (Swiss from
round 2) and the standings computed after each round by ``ledger.competition.standings``; the whole
competition is played ``--repeats`` times with other seeds. Printed per round: the draw's and the
standings' wall time (median and range over the repeats). The issue's target: under 1 s each.

``--api``: a competition of ``--entrants`` is created and entered through the API, then each round drawn
(``POST …/rounds``: the draw and its tables' evenings, each with its tokens, in one transaction), one hand
recorded at every table, the round ended (every evening closed) and the standings read
(``GET …/standings``); printed per round, the wall time of the draw, the end and the standings.

``--south-wins``: every table's 南 wins 160 from its 西, so that each round's leaders all sat the same wind,
the hardest case for the draw seen (its greedy pass leaves the most tables to mend).

The floor measured beside them, interleaved with each repeat (A, B, A, B …): sorting the entrants by a
random key and slicing them into fours, the least any draw does, so that a ratio shows how much the draw
costs above it whatever the machine's speed at the time.
"""
from __future__ import annotations

import argparse
import pathlib
import random
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from ledger.competition import Entrant, Settings, TableResult, seat_round, rank_entrants  # noqa: E402


def play(entrants: int, rounds: int, seed: int, south_wins: bool = False) -> tuple[list[float], list[float], list[float]]:
    """Per round: the draw's seconds, the standings' seconds, the floor's seconds."""
    rng = random.Random(seed)
    people = [Entrant(n, f"P{n}") for n in range(1, entrants + 1)]
    rules = Settings(rounds=rounds)
    drawn, played, ranked = [], [], []
    draws, tables, floors = [], [], []
    for number in range(1, rounds + 1):
        start = time.perf_counter()
        this = seat_round(number, rng.randrange(2**32), rules, people, drawn, ranked)
        draws.append(time.perf_counter() - start)
        drawn.append(this)
        start = time.perf_counter()
        order = sorted(range(entrants), key=lambda _: rng.random())
        [order[i:i + 4] for i in range(0, len(order) - 3, 4)]
        floors.append(time.perf_counter() - start)
        for table in this.tables:
            nets = [0, 160, -160] if south_wins else [rng.randrange(-500, 500, 10) for _ in range(3)]
            played.append(TableResult(number, table.number, table.seats,
                                      dict(zip(table.seats, [*nets, -sum(nets)])), rng.randint(1, 16)))
        start = time.perf_counter()
        ranked = [row.entrant for row in rank_entrants(people, drawn, played, rules)]
        tables.append(time.perf_counter() - start)
    return draws, tables, floors


def through_api(entrants: int, rounds: int, database: str) -> None:
    """Draw, end and read the standings of each round through the API, printing their wall times."""
    import tempfile

    from api import create_app
    from api.http import db
    from tests import pg

    with tempfile.TemporaryDirectory() as folder:
        server = pg.start_server() if database == "postgresql" else None
        url = server.database_url(server.create_database()) if server else f"sqlite:///{folder}/bench.sqlite"
        app = create_app({"DATABASE_URL": url, "RATELIMIT_ENABLED": False, "MAX_ENTRANTS": max(1000, entrants)})
        try:
            client = app.test_client()
            created = client.post("/api/competitions", json={
                "name": "Cup", "ruleset": "taiwan", "stakes": {"base": 100, "per_tai": 20}, "rounds": rounds}).get_json()
            path, auth = f"/api/competitions/{created['id']}", {"Authorization": f"Bearer {created['organizer_token']}"}
            assert client.post(f"{path}/entrants", json={"names": [f"P{n}" for n in range(1, entrants + 1)]},
                               headers=auth).status_code == 201
            print(f"{entrants} entrants through the API on {database}: wall ms")
            print("round  draw    end     standings")
            for number in range(1, rounds + 1):
                start = time.perf_counter()
                drawn = client.post(f"{path}/rounds", json={}, headers=auth)
                draw = time.perf_counter() - start
                assert drawn.status_code == 201, drawn.get_json()
                for table in drawn.get_json()["tables"]:
                    hand = {"winners": [{"player": table["seats"][1], "tai": 3}], "by": "discard",
                            "discarder": table["seats"][2]}
                    client.post(f"/api/sessions/{table['session']}/hands", json=hand,
                                headers={"Authorization": f"Bearer {table['token']}"})
                start = time.perf_counter()
                assert client.post(f"{path}/rounds/{number}/end", json={}, headers=auth).status_code == 200
                end = time.perf_counter() - start
                start = time.perf_counter()
                assert client.get(f"{path}/standings", headers=auth).status_code == 200
                standings = time.perf_counter() - start
                print(f"{number:>5}  {draw * 1000:6.0f}  {end * 1000:6.0f}  {standings * 1000:6.0f}")
        finally:
            db.dispose(app)
            if server:
                server.stop()


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=801)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--api", action="store_true")
    parser.add_argument("--south-wins", action="store_true",
                        help="every table's 南 wins 160 from its 西: the leaders of each round all sat 南 (the draw's "
                             "hardest case seen)")
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    args = parser.parse_args(argv)
    if args.api:
        through_api(args.entrants, args.rounds, args.database)
        return
    runs = [play(args.entrants, args.rounds, seed, args.south_wins) for seed in range(args.repeats)]
    print(f"{args.entrants} entrants, {args.rounds} rounds, {args.repeats} repeats: median (range) in ms")
    print("round  draw               standings          floor      draw/floor")
    for number in range(args.rounds):
        draw = [run[0][number] * 1000 for run in runs]
        table = [run[1][number] * 1000 for run in runs]
        floor = [run[2][number] * 1000 for run in runs]
        print(f"{number + 1:>5}  {statistics.median(draw):7.1f} ({min(draw):.1f}–{max(draw):.1f})"
              f"  {statistics.median(table):7.1f} ({min(table):.1f}–{max(table):.1f})"
              f"  {statistics.median(floor):6.2f}  {statistics.median(d / f for d, f in zip(draw, floor)):8.0f}")


if __name__ == "__main__":
    main()
