"""The time of a competition's draw and standings at 800 entrants (200 tables), in this process (issue 31).

Run: ``nice -n 5 .venv/bin/python benchmarks/competition.py [--entrants 800] [--rounds 7] [--repeats 3]``

A whole competition of ``--entrants`` (and one more than a multiple of four, so that three sit out each
round) is played with random results, every round drawn by ``ledger.competition.draw_round`` (Swiss from
round 2) and the standings computed after each round by ``ledger.competition.standings``; the whole
competition is played ``--repeats`` times with other seeds. Printed per round: the draw's and the
standings' wall time (median and range over the repeats). The issue's target: under 1 s each.

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

from ledger.competition import Entrant, Settings, TableResult, draw_round, standings  # noqa: E402


def play(entrants: int, rounds: int, seed: int) -> tuple[list[float], list[float], list[float]]:
    """Per round: the draw's seconds, the standings' seconds, the floor's seconds."""
    rng = random.Random(seed)
    people = [Entrant(n, f"P{n}") for n in range(1, entrants + 1)]
    rules = Settings(rounds=rounds)
    drawn, played, ranked = [], [], []
    draws, tables, floors = [], [], []
    for number in range(1, rounds + 1):
        start = time.perf_counter()
        this = draw_round(number, rng.randrange(2**32), rules, people, drawn, ranked)
        draws.append(time.perf_counter() - start)
        drawn.append(this)
        start = time.perf_counter()
        order = sorted(range(entrants), key=lambda _: rng.random())
        [order[i:i + 4] for i in range(0, len(order) - 3, 4)]
        floors.append(time.perf_counter() - start)
        for table in this.tables:
            nets = [rng.randrange(-500, 500, 10) for _ in range(3)]
            played.append(TableResult(number, table.number, table.seats,
                                      dict(zip(table.seats, [*nets, -sum(nets)])), rng.randint(1, 16)))
        start = time.perf_counter()
        ranked = [row.entrant for row in standings(people, drawn, played, rules)]
        tables.append(time.perf_counter() - start)
    return draws, tables, floors


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=801)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    runs = [play(args.entrants, args.rounds, seed) for seed in range(args.repeats)]
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
