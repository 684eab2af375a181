"""How often the draw (``ledger.draw``) seats a Swiss round as its exhaustive reference does, and how fast (issue 38).

Run: ``nice -n 5 .venv/bin/python benchmarks/draw_exact.py [--fields 500] [--smallest 13] [--largest 48]
[--seed 0] [--limit 60]``

Each field is a random number of entrants (``--smallest`` to ``--largest``) playing a random 2 to 5 rounds
with random results, every round drawn by ``ledger.competition.seat_round`` (Swiss from round 2, sit-outs by
its rule); the last round's draw is then compared with ``tests/ledger/draw_reference.py`` (every seating,
given the draw's cost as the most it need look at). Printed: per band of field size, the fields whose draw
is the reference's best (same cost and same tables), those of the same cost but other tables, those the
reference beats, those it did not finish within ``--limit`` seconds; and the draw's wall and CPU time (median,
max; ``--limit 0`` times the draw alone).
"""
from __future__ import annotations

import argparse
import multiprocessing
import pathlib
import random
import signal
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from ledger import draw as seating  # noqa: E402
from tests.ledger.draw_reference import best_seating, swiss_field  # noqa: E402


def compare(args: tuple[int, int, int, int]) -> tuple[int, str, float, float]:
    """(players, verdict, the draw's wall seconds, its CPU seconds) of one field; a ``limit`` of 0: not compared."""
    seed, smallest, largest, limit = args
    rng = random.Random(seed)
    players, history = swiss_field(rng, rng.randint(smallest, largest), rng.randint(2, 5))
    start, cpu = time.perf_counter(), time.process_time()
    tables = seating.draw(players, history)
    took, cpu = time.perf_counter() - start, time.process_time() - cpu
    if not limit:
        return len(players), "not compared", took, cpu
    cost = seating.draw_cost(tables, history)
    place = {player: index for index, player in enumerate(players)}
    groups = sorted((tuple(sorted(t.seats, key=place.__getitem__)) for t in tables), key=lambda g: place[g[0]])
    signal.alarm(limit)
    try:
        found = best_seating(players, history, within=cost)
    except TimeoutError:
        return len(players), "unfinished", took, cpu
    finally:
        signal.alarm(0)
    if found is None:
        return len(players), "beyond", took, cpu  # the draw's own seating is within: cannot happen
    if found[0] < cost:
        return len(players), "beaten", took, cpu
    return len(players), "best" if found[1] == groups else "same cost", took, cpu


def _alarm(*_):
    raise TimeoutError


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fields", type=int, default=500)
    parser.add_argument("--smallest", type=int, default=13)
    parser.add_argument("--largest", type=int, default=48)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--limit", type=int, default=60,
                        help="seconds the reference may take on one field; 0: the draw alone, timed")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    signal.signal(signal.SIGALRM, _alarm)
    work = [(args.seed + n, args.smallest, args.largest, args.limit) for n in range(args.fields)]
    with multiprocessing.Pool(args.jobs, initializer=signal.signal, initargs=(signal.SIGALRM, _alarm)) as pool:
        results = []
        for result in pool.imap(compare, work, chunksize=1):  # each field as it ends: a long run shows its way
            results.append(result)
            print(len(results), *result, flush=True, file=sys.stderr)
    print(f"{args.fields} fields of {args.smallest}-{args.largest} entrants, 2-5 rounds, seeds from {args.seed}")
    print("players  fields  best  same cost  beaten  unfinished  draw wall ms median  max  CPU ms median  max")
    for low, high in ((12, 24), (28, 36), (40, 48)):
        band = [r for r in results if low <= r[0] <= high]
        if not band:
            continue
        verdicts = [r[1] for r in band]
        times, cpus = [r[2] * 1000 for r in band], [r[3] * 1000 for r in band]
        print(f"{low:>2}-{high:<5}  {len(band):>6}  {verdicts.count('best'):>4}  {verdicts.count('same cost'):>9}"
              f"  {verdicts.count('beaten'):>6}  {verdicts.count('unfinished'):>10}"
              f"  {statistics.median(times):19.1f}  {max(times):5.1f}"
              f"  {statistics.median(cpus):13.1f}  {max(cpus):.1f}")
    odd = [r for r in results if r[1] == "beyond"]
    if odd:
        print(f"{len(odd)} fields the reference found no seating within the draw's own cost")


if __name__ == "__main__":
    main()
