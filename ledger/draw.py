"""The draw of a competition's round (抽籤/編桌): who sits at which table, in which wind.

Players come in an order (a seeded shuffle, or the standings for later Swiss rounds). The best draw
has, in turn: the fewest repeat meetings; the least wind excess (each sits a wind they sat least);
the smallest tables in that order. Up to ``SEARCH_UP_TO`` players ``_best`` finds it exactly
(``tests/ledger/test_draw_properties.py`` against an exhaustive reference; ``benchmarks/draw_exact.py``);
past ``EXACT_STEPS``, or for larger fields, a greedy draw improved by swaps and moves (``_improve``).
Who plays at all (輪空, 替補, a cut) is ``ledger.competition.players_of_round``'s.
"""
from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

WINDS = ("E", "S", "W", "N")
SEATS = 4
EXACT_UP_TO = 12
SEARCH_UP_TO = 48
SEARCH_NODES_SMALL = 20_000
EXACT_STEPS = 200_000
WINDOW = 9
SEARCH_NODES = 1500  # fewer leave a big round many tables to mend (benchmarks/competition.py)
ROTATE_PARTNERS = 6
IMPROVE_TRIES = 300_000
ROTATE_NEAR = 12  # the third table of a move round three: among the 12 either side of the first
PERMUTATIONS = tuple(itertools.permutations(range(SEATS)))


@dataclass(frozen=True)
class Seating:
    """One table of a round: its number (1 first) and its players by wind (東, 南, 西, 北)."""

    number: int
    seats: tuple[int, int, int, int]


class History:
    """What earlier rounds leave for the next draw: who met whom how often, and who sat which wind how often.

    >>> history = History.of([[(1, 2, 3, 4)], [(1, 5, 6, 2)]])
    >>> history.met(1, 2), history.met(1, 5), history.met(3, 5)
    (2, 1, 0)
    >>> history.winds_of(2)
    [0, 1, 0, 1]
    """

    def __init__(self) -> None:
        self.meetings: dict[int, dict[int, int]] = {}
        self.winds: dict[int, list[int]] = {}
        self._masks: dict[int, int] = {}
        self._rows: dict[int, tuple[int, ...]] = {}

    @classmethod
    def of(cls, rounds: Iterable[Iterable[Sequence[int]]]) -> "History":
        """The history of these rounds, each a list of tables, each its players by wind."""
        history = cls()
        for tables in rounds:
            for seats in tables:
                history.add(seats)
        return history

    def add(self, seats: Sequence[int]) -> None:
        """Count one table: its players met each other, each sat its wind."""
        self._masks.clear()
        self._rows.clear()
        for wind, player in enumerate(seats):
            self.winds.setdefault(player, [0] * SEATS)[wind] += 1
            met = self.meetings.setdefault(player, {})
            for other in seats:
                if other != player:
                    met[other] = met.get(other, 0) + 1

    def least_mask(self, player: int) -> int:
        """The winds the player sat least, as bits (東 1, 南 2, 西 4, 北 8): kept once asked (a draw asks often)."""
        mask = self._masks.get(player)
        if mask is None:
            counts = self.winds_of(player)
            least = min(counts)
            mask = self._masks[player] = sum(1 << wind for wind in range(SEATS) if counts[wind] == least)
        return mask

    def excess_row(self, player: int) -> tuple[int, int, int, int]:
        """How many more times than their least the player sat each wind."""
        row = self._rows.get(player)
        if row is None:
            counts = self.winds_of(player)
            least = min(counts)
            row = self._rows[player] = tuple(count - least for count in counts)
        return row

    def met(self, one: int, other: int) -> int:
        return self.meetings.get(one, {}).get(other, 0)

    def winds_of(self, player: int) -> list[int]:
        return self.winds.get(player, [0] * SEATS)


def shuffled(players: Iterable[int], seed: int) -> list[int]:
    """The players (entrant numbers) in the order of the seed: ``random.Random(seed).shuffle`` of them sorted.

    >>> shuffled([4, 3, 2, 1], 1) == shuffled([1, 2, 3, 4], 1)
    True
    """
    order = sorted(players)
    random.Random(seed).shuffle(order)
    return order


def repeats(group: Sequence[int], history: History) -> int:
    """How many times the pairs of ``group`` have met before (a pair met twice counts twice)."""
    return sum(history.met(one, other) for one, other in itertools.combinations(group, 2))


def seat_winds(group: Sequence[int], history: History) -> tuple[int, tuple[int, ...]]:
    """The wind excess of the best seating of ``group`` (its players in order) and that seating, by wind.

    The excess is how many more times a player sat a wind than their least-sat one; the seating is the
    first permutation of least total excess.

    >>> history = History.of([[(1, 2, 3, 4)]])
    >>> seat_winds((1, 2, 3, 4), history)
    (0, (2, 1, 4, 3))
    >>> seat_winds((1, 2, 3, 4), History())
    (0, (1, 2, 3, 4))
    """
    rows = [history.excess_row(player) for player in group]
    best, best_winds = None, None
    for winds in PERMUTATIONS:  # winds[i]: the wind of the group's i-th player
        excess = sum(row[wind] for row, wind in zip(rows, winds))
        if best is None or excess < best:
            best, best_winds = excess, winds
            if excess == 0:
                break
    seats = [0] * SEATS
    for i, wind in enumerate(best_winds):
        seats[wind] = group[i]
    return best, tuple(seats)


def table_cost(group: Sequence[int], history: History) -> tuple[int, int]:
    """(repeat meetings, wind excess) of a table of ``group``."""
    if _apart(tuple(sorted(history.least_mask(player) for player in group))):
        return repeats(group, history), 0
    return repeats(group, history), _least_excess(tuple(sorted(history.excess_row(player) for player in group)))


@functools.cache
def _least_excess(rows: tuple[tuple[int, ...], ...]) -> int:
    """The least wind excess of players whose excess in each wind is ``rows``, cached: a draw's swaps ask the
    same few rows thousands of times (``benchmarks/competition.py``)."""
    return min(sum(row[wind] for row, wind in zip(rows, winds)) for winds in PERMUTATIONS)


@functools.cache
def _apart(masks: tuple[int, ...]) -> bool:
    """Whether players whose least-sat winds are ``masks`` (bits) can each sit one of theirs, all apart."""
    return any(all(mask >> wind & 1 for mask, wind in zip(masks, winds))
               for winds in itertools.permutations(range(SEATS), len(masks)))


def draw(order: Sequence[int], history: History) -> list[Seating]:
    """The tables of a round of the players in ``order`` (a multiple of four of them, best first).

    >>> [table.seats for table in draw([5, 1, 7, 3, 2, 8, 6, 4], History())]
    [(5, 1, 7, 3), (2, 8, 6, 4)]
    """
    if len(order) % SEATS:
        raise ValueError(f"{len(order)} players do not make tables of {SEATS}")
    if len(set(order)) != len(order):
        raise ValueError("a player is named twice")
    place = {player: index for index, player in enumerate(order)}
    groups = greedy = None
    if len(order) <= SEARCH_UP_TO:
        greedy = _greedy(order, history)
        costs = [table_cost(group, history) for group in greedy]
        try:
            groups = _best(order, history, (sum(c[0] for c in costs), sum(c[1] for c in costs)), EXACT_STEPS)
        except _OutOfSteps:
            groups = None
    if groups is None and len(order) <= EXACT_UP_TO:
        groups = _exact(order, history)
    elif groups is None:
        groups = greedy or _greedy(order, history)
        if len(order) <= SEARCH_UP_TO:
            groups = _exact(order, history, groups, SEARCH_NODES_SMALL) or groups
    groups = sorted((sorted(group, key=place.__getitem__) for group in groups), key=lambda g: place[g[0]])
    return [Seating(number, seat_winds(group, history)[1]) for number, group in enumerate(groups, start=1)]


def draw_cost(tables: Iterable[Seating], history: History) -> tuple[int, int]:
    """(repeat meetings, wind excess) of a whole draw, as it seats its players (not re-seated)."""
    meet = excess = 0
    for table in tables:
        meet += repeats(table.seats, history)
        for wind, player in enumerate(table.seats):
            counts = history.winds_of(player)
            excess += counts[wind] - min(counts)
    return meet, excess


# -- small fields: every seating ------------------------------------------------------------


def _exact(order: Sequence[int], history: History, found: list | None = None,
           budget: int | None = None) -> list[tuple[int, ...]] | None:
    """The best partition of ``order`` into tables by (repeats, excess), made in order, so the first found of
    least cost is the one the order prefers."""
    costs: dict[tuple[int, ...], tuple[int, int]] = {}

    def cost(group: tuple[int, ...]) -> tuple[int, int]:
        if group not in costs:
            costs[group] = table_cost(group, history)
        return costs[group]

    best: list = [None, None]
    if found is not None:  # only a better one than this is looked for
        best[0] = tuple(map(sum, zip(*(cost(tuple(group)) for group in found))))
    steps = [0]

    def search(rest: tuple[int, ...], chosen: list, spent: tuple[int, int]) -> None:
        if best[0] is not None and spent >= best[0]:
            return
        if not rest:
            best[0], best[1] = spent, list(chosen)
            return
        first, others = rest[0], rest[1:]
        for three in itertools.combinations(others, SEATS - 1):
            steps[0] += 1
            if budget is not None and steps[0] > budget:
                return
            group = (first, *three)
            meet, excess = cost(group)
            chosen.append(group)
            search(tuple(p for p in others if p not in three), chosen, (spent[0] + meet, spent[1] + excess))
            chosen.pop()

    search(tuple(order), [], (0, 0))
    return best[1]


# -- large fields: table by table, then swaps ---------------------------------------------------


def _greedy(order: Sequence[int], history: History) -> list[list[int]]:
    unseated = list(order)
    groups = []
    while unseated:
        first, rest = unseated[0], unseated[1:]
        group = _clean_group(first, rest, history) or _best_in_window(first, rest[:WINDOW], history)
        groups.append(list(group))
        taken = set(group)
        unseated = [player for player in unseated if player not in taken]
    _improve(groups, history)
    return groups


def _clean_group(first: int, rest: Sequence[int], history: History) -> tuple[int, ...] | None:
    """``first`` with the earliest three of ``rest`` that met none of the table and leave no wind excess, found
    within ``SEARCH_NODES`` steps; else None."""
    steps = 0
    met = history.meetings

    def fresh(player: int, group: tuple[int, ...]) -> bool:
        known = met.get(player)
        return not known or not any(other in known for other in group)

    def extend(group: tuple[int, ...], start: int) -> tuple[int, ...] | None:
        nonlocal steps
        if len(group) == SEATS:
            return group
        for index in range(start, len(rest)):
            steps += 1
            if steps > SEARCH_NODES:
                return None
            player = rest[index]
            if fresh(player, group) and _least_winds_apart((*group, player), history):
                found = extend((*group, player), index + 1)
                if found is not None:
                    return found
        return None

    return extend((first,), 0)


def _least_winds_apart(group: tuple[int, ...], history: History) -> bool:
    """Whether the players of ``group`` can each sit a wind they sat least, all in different winds."""
    return _apart(tuple(sorted(history.least_mask(player) for player in group)))


def _best_in_window(first: int, window: Sequence[int], history: History) -> tuple[int, ...]:
    best, best_cost = None, None
    for three in itertools.combinations(window, SEATS - 1):
        cost = table_cost((first, *three), history)
        if best_cost is None or cost < best_cost:
            best, best_cost = (first, *three), cost
    return best


def _improve(groups: list[list[int]], history: History) -> None:
    """Swap players between a faulty table and any other while both get better, at most ``IMPROVE_TRIES``
    tables: a draw ends in bounded time whatever the field (``benchmarks/competition.py``)."""
    costs = [table_cost(group, history) for group in groups]
    budget = [IMPROVE_TRIES]
    improved = True
    while improved and budget[0] > 0:
        improved = False
        for index, group in enumerate(groups):
            if costs[index] == (0, 0):
                continue
            if (_swap_from(index, groups, costs, history, budget)
                    or _rotate_from(index, groups, costs, history, budget)
                    or _cross_from(index, groups, costs, history, budget)):
                improved = True


def _swap_from(index: int, groups: list[list[int]], costs: list[tuple[int, int]], history: History,
               budget: list[int]) -> bool:
    group = groups[index]
    for other_index, other in enumerate(groups):
        if other_index == index:
            continue
        budget[0] -= 2 * SEATS * SEATS
        if budget[0] < 0:
            return False
        before = _add(costs[index], costs[other_index])
        for i, j in itertools.product(range(SEATS), range(SEATS)):
            mine = group[:i] + [other[j]] + group[i + 1:]
            theirs = other[:j] + [group[i]] + other[j + 1:]
            mine_cost, their_cost = table_cost(mine, history), table_cost(theirs, history)
            if _add(mine_cost, their_cost) < before:
                groups[index], groups[other_index] = mine, theirs
                costs[index], costs[other_index] = mine_cost, their_cost
                return True
    return False


def _rotate_from(index: int, groups: list[list[int]], costs: list[tuple[int, int]], history: History,
                 budget: list[int]) -> bool:
    """A move of three players round three tables that makes them better together, for two tables each short
    of what the other has too many of whose swap would make them meet. The third table is sought near the
    first (``ROTATE_NEAR``) and the second among ``ROTATE_PARTNERS``: looking over all tables dominated a
    round with an excess no move mends."""
    bad = sorted((other for other, cost in enumerate(costs) if cost != (0, 0) and other != index),
                 key=lambda other: abs(other - index))[:ROTATE_PARTNERS]
    for second in bad:
        for third in range(max(0, index - ROTATE_NEAR), min(len(groups), index + ROTATE_NEAR + 1)):
            if third in (index, second):
                continue
            budget[0] -= 3 * SEATS ** 3
            if budget[0] < 0:
                return False
            one, two, three = groups[index], groups[second], groups[third]
            before = _add(_add(costs[index], costs[second]), costs[third])
            for i, j, k in itertools.product(range(SEATS), repeat=3):
                new_one = one[:i] + [three[k]] + one[i + 1:]
                new_two = two[:j] + [one[i]] + two[j + 1:]
                new_three = three[:k] + [two[j]] + three[k + 1:]
                found = [table_cost(group, history) for group in (new_one, new_two, new_three)]
                if _add(_add(found[0], found[1]), found[2]) < before:
                    groups[index], groups[second], groups[third] = new_one, new_two, new_three
                    costs[index], costs[second], costs[third] = found
                    return True
    return False


def _cross_from(index: int, groups: list[list[int]], costs: list[tuple[int, int]], history: History,
                budget: list[int]) -> bool:
    """A move of four players round four tables, when no swap and no move of three mends: two faulty tables
    whose every direct swap or move through one table makes someone meet again are mended through two
    (a case hypothesis found in ``tests/ledger/test_draw_properties.py``)."""
    one = groups[index]
    faulty = sorted((other for other, cost in enumerate(costs) if cost != (0, 0) and other != index),
                    key=lambda other: abs(other - index))[:ROTATE_PARTNERS]
    for second in faulty:
        two = groups[second]
        before = _add(costs[index], costs[second])
        for i in range(SEATS):
            into_a = _moves_keeping_cost(one[i], (index, second), groups, costs, history, budget)
            for j in range(SEATS):
                into_b = _moves_keeping_cost(two[j], (index, second), groups, costs, history, budget)
                if budget[0] < 0:
                    return False
                for a, k, new_a, a_cost in into_a:
                    new_two = two[:j] + [groups[a][k]] + two[j + 1:]
                    two_cost = table_cost(new_two, history)
                    if two_cost >= costs[second]:
                        continue
                    for b, seat, new_b, b_cost in into_b:
                        if b == a:
                            continue
                        new_one = one[:i] + [groups[b][seat]] + one[i + 1:]
                        one_cost = table_cost(new_one, history)
                        if _add(one_cost, two_cost) < before:
                            groups[index], groups[a], groups[second], groups[b] = new_one, new_a, new_two, new_b
                            costs[index], costs[a], costs[second], costs[b] = one_cost, a_cost, two_cost, b_cost
                            return True
    return False


def _moves_keeping_cost(player: int, leaving: tuple[int, int], groups: list[list[int]],
                        costs: list[tuple[int, int]], history: History, budget: list[int]) -> list:
    """(table, seat, the table with ``player`` in that seat, its cost) for every seat of every table but
    ``leaving`` that ``player`` can take without making that table worse."""
    found = []
    for other, group in enumerate(groups):
        if other in leaving:
            continue
        budget[0] -= SEATS
        if budget[0] < 0:
            return found
        for seat in range(SEATS):
            moved = group[:seat] + [player] + group[seat + 1:]
            cost = table_cost(moved, history)
            if cost <= costs[other]:
                found.append((other, seat, moved, cost))
    return found


def _add(one: tuple[int, int], other: tuple[int, int]) -> tuple[int, int]:
    return one[0] + other[0], one[1] + other[1]



# -- fields up to SEARCH_UP_TO: the best seating by the three aims, found exactly ------------------------------


class _OutOfSteps(Exception):
    """The exact search spent ``EXACT_STEPS`` and gives way to the greedy draw."""


def _best(order: Sequence[int], history: History, start: tuple[int, int], steps: int) -> list[tuple[int, ...]]:
    """The seating best by the three aims: the least (repeats, excess), then the smallest in order.

    Players are bits; ``least`` keeps its answers by set (two tables chosen either way leave the same
    rest), then tables are chosen in order, each the first whose rest still seats at that least. ``start``
    bounds the least; raises ``_OutOfSteps`` past ``steps`` tables weighed."""
    size = len(order)
    met = [[history.met(one, other) for other in order] for one in order]
    fresh = [sum(1 << j for j in range(size) if j != i and not met[i][j]) for i in range(size)]
    masks = [history.least_mask(player) for player in order]
    rows = [history.excess_row(player) for player in order]
    inside = [sum(1 << i for i in range(size) if masks[i] & ~winds == 0) for winds in range(15)]
    widths = [winds.bit_count() for winds in range(15)]
    exact: dict[int, tuple[int, int]] = {}
    above: dict[int, tuple[int, int]] = {}
    spent = [steps]

    def lower(rest: int) -> tuple[int, int]:
        """What no seating of ``rest`` beats: half the sum of each player's three fewest meetings, and the most by
        which players whose least-sat winds lie among some winds outnumber those winds' seats."""
        twice = 0
        for player in _bits(rest):
            if (fresh[player] & rest).bit_count() < SEATS - 1:
                row = met[player]
                twice += sum(sorted(row[other] for other in _bits(rest) if other != player)[:SEATS - 1])
        quarter = rest.bit_count() // SEATS
        return (twice + 1) // 2, max((rest & inside[winds]).bit_count() - quarter * widths[winds]
                                     for winds in range(15))

    def excess(a: int, b: int, c: int, d: int) -> int:
        if _apart(tuple(sorted((masks[a], masks[b], masks[c], masks[d])))):
            return 0
        return _least_excess(tuple(sorted((rows[a], rows[b], rows[c], rows[d]))))

    def tables(rest: int, limit: tuple[int, int], first: int):
        """The tables of ``first`` with three others of ``rest``, in order, whose cost is within ``limit``: (the
        table's bits, its cost)."""
        others = rest ^ (1 << first)
        pool = others & fresh[first] if limit[0] == 0 else others
        row = met[first]
        for a in _bits(pool):
            meet_a = row[a]
            if meet_a > limit[0]:
                continue
            pool_a = pool & fresh[a] if limit[0] == 0 else pool
            for b in _bits(pool_a >> (a + 1) << (a + 1)):
                meet_b = meet_a + row[b] + met[a][b]
                if meet_b > limit[0]:
                    continue
                pool_b = pool_a & fresh[b] if limit[0] == 0 else pool_a
                for c in _bits(pool_b >> (b + 1) << (b + 1)):
                    spent[0] -= 1
                    if spent[0] < 0:
                        raise _OutOfSteps
                    meet = meet_b + row[c] + met[a][c] + met[b][c]
                    if meet > limit[0]:
                        continue
                    cost = (meet, excess(first, a, b, c))
                    if cost <= limit:
                        yield (1 << first) | (1 << a) | (1 << b) | (1 << c), cost

    def pivot(rest: int) -> int:
        """Whom to seat first: anyone will do, as everyone is seated; the player with the fewest others in
        ``rest`` not yet met, whose few tables end a search soonest when none is left."""
        return min(_bits(rest), key=lambda player: (fresh[player] & rest).bit_count())

    def least(rest: int, limit: tuple[int, int]) -> tuple[int, int] | None:
        """The least cost of seating ``rest`` if it is within ``limit``, else None."""
        if not rest:
            return (0, 0) if (0, 0) <= limit else None
        if rest in exact:
            return exact[rest] if exact[rest] <= limit else None
        if rest in above and limit <= above[rest]:
            return None
        floor = lower(rest)
        if floor > limit:
            return None
        found = None
        for bits, cost in tables(rest, limit, pivot(rest)):
            if cost > limit:
                continue
            below = least(rest ^ bits, (limit[0] - cost[0], limit[1] - cost[1]))
            if below is not None:
                found = (cost[0] + below[0], cost[1] + below[1])
                if found == floor:
                    break
                limit = (found[0], found[1] - 1)  # only a better one now
        if found is None:
            above[rest] = max(limit, above.get(rest, limit))
            return None
        exact[rest] = found
        return found

    everyone = (1 << size) - 1
    target = least(everyone, start)
    if target is None:
        raise ValueError("the start is not a seating's cost")
    groups, rest = [], everyone
    while rest:
        for bits, cost in tables(rest, target, (rest & -rest).bit_length() - 1):
            if least(rest ^ bits, (target[0] - cost[0], target[1] - cost[1])) is not None:
                groups.append(tuple(order[i] for i in _bits(bits)))
                rest ^= bits
                target = (target[0] - cost[0], target[1] - cost[1])
                break
        else:
            raise AssertionError("no table keeps the least cost")
    return groups


def _bits(value: int):
    """The places of the bits set in ``value``, lowest first."""
    while value:
        low = value & -value
        yield low.bit_length() - 1
        value ^= low
