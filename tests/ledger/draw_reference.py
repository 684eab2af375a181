"""An exhaustive reference for the draw (``ledger.draw``): every seating of a field, compared by the draw's aims.

Written apart from the draw, with none of its code but ``History``'s counts: the least (repeat meetings, wind
excess) of any partition into tables (a table's excess the least over its 24 seatings by wind), and among
those the first in the draw's order (places in the order, each table sorted, tables by their first place).
Partitions are made in that order, so the first found of a cost beats any later one of the same cost; a
branch is left only when it cannot beat the best found: its cost so far plus the fewest players of the rest
who cannot each sit a wind they sat least (each wind seats a quarter) is no better. ``within`` starts from a
cost no answer can be above (a known seating's), so that a field of 48 ends in seconds, not years; a
table's three others are chosen one by one, and one whose meetings alone already pass the best is passed by.
"""
from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Sequence

from ledger.competition import Entrant, Settings, seat_round, players_of_round
from ledger.draw import History


def best_seating(order: Sequence[int], history: History,
                 within: tuple[int, int] | None = None) -> tuple[tuple[int, int], list[tuple[int, ...]]] | None:
    """(least cost, its first seating by the order as tables of players), or None if none is within ``within``."""
    players = list(range(len(order)))
    counts = [history.winds_of(player) for player in order]
    least_winds = [frozenset(w for w in range(4) if c[w] == min(c)) for c in counts]

    def met(one: int, other: int) -> int:
        return history.met(order[one], order[other])

    @functools.cache
    def cost(group: tuple[int, ...]) -> tuple[int, int]:
        meet = sum(history.met(order[a], order[b]) for a, b in itertools.combinations(group, 2))
        excess = min(sum(counts[p][w] - min(counts[p]) for p, w in zip(group, winds))
                     for winds in itertools.permutations(range(4)))
        return meet, excess

    def short(rest: tuple[int, ...]) -> int:
        quarter = len(rest) // 4
        return max(sum(1 for p in rest if least_winds[p] <= set(winds)) - quarter * len(winds)
                   for size in range(5) for winds in itertools.combinations(range(4), size))

    best: list = [(within[0], within[1] + 1) if within else (10**9, 0), None]

    def search(rest: tuple[int, ...], chosen: list, spent: tuple[int, int]) -> None:
        if (spent[0], spent[1] + short(rest)) >= best[0]:
            return
        if not rest:
            best[0], best[1] = spent, list(chosen)
            return
        first, others = rest[0], rest[1:]
        room = best[0][0] - spent[0]  # more meetings than this at the table cannot beat the best
        for i, a in enumerate(others):
            with_a = met(first, a)
            if with_a > room:
                continue
            for j in range(i + 1, len(others)):
                b = others[j]
                with_b = with_a + met(first, b) + met(a, b)
                if with_b > room:
                    continue
                for c in others[j + 1:]:
                    if with_b + met(first, c) + met(a, c) + met(b, c) > room:
                        continue
                    group = (first, a, b, c)
                    meet, excess = cost(group)
                    chosen.append(group)
                    search(tuple(p for p in others if p not in group), chosen, (spent[0] + meet, spent[1] + excess))
                    chosen.pop()
                    room = best[0][0] - spent[0]

    search(tuple(players), [], (0, 0))
    if best[1] is None:
        return None
    return best[0], [tuple(order[p] for p in group) for group in best[1]]


def swiss_field(rng: random.Random, size: int, rounds: int) -> tuple[list[int], History]:
    """A Swiss round ``rounds`` of ``size`` entrants, the earlier ones drawn by ``seat_round`` with random results:
    its players in the standings' order (those over a multiple of four sitting out by rule), and the history."""
    people = [Entrant(n, f"P{n}") for n in range(1, size + 1)]
    rules = Settings(rounds=rounds)
    drawn, points, ranked = [], {n: 0.0 for n in range(1, size + 1)}, []
    for number in range(1, rounds):
        drawn.append(seat_round(number, rng.randrange(2**32), rules, people, drawn, ranked))
        for table in drawn[-1].tables:
            for n in table.seats:
                points[n] += rng.random()
        ranked = sorted(points, key=lambda n: (-points[n], n))
    players, _, _ = players_of_round(rounds, people, ranked, drawn, "sit_out")
    return players, History.of([table.seats for table in this.tables] for this in drawn)
