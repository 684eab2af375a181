"""A competition (比賽): its settings, its entrants, who plays each round, and the standings.

Pure Python: the API stores what is here (``ledger.competition_store``) and each table's evening; the
draw is ``ledger.draw``. A late entrant plays from the next round drawn; one who withdraws keeps their
place with what they played; one not checked in is ``absent``, not sitting out by rule. Sitting out
(輪空) goes to those who sat out least, lowest placed first; substitutes' results count for nobody.

Standings: each table places its four seats by its net money; tied seats share the points of the places
they cover, averaged, kept as exact ``Fraction`` (three tied for first under 4/2/1/0 get 7/3 each),
never rounded. A table counts once it has a hand. Ranked by points, then net; equals share a rank
(1, 2, 2, 4). Round 1 of ``seating`` rating is seated by the group's ratings, in snake order.
"""
from __future__ import annotations

import functools
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from ledger import draw as seating
from ledger.errors import InvalidRequest, Worded

UNTIL = ("jiang", "time")
SEATING = ("swiss", "random", "rating")
EMPTY_SEATS = ("sit_out", "substitutes")
SEATS = seating.SEATS
MAX_ROUNDS = 30
MAX_MINUTES = 24 * 60
MAX_SEED = 2**63 - 1
TWELFTHS = 12  # a share of 1, 2, 3 or 4 tied seats is a whole number of twelfths


@dataclass(frozen=True)
class Settings:
    """What every table and round of a competition shares (see the module's docstring)."""

    rounds: int
    until: str = "jiang"
    minutes: int | None = None
    grace: int = 0
    placement_points: tuple[int, int, int, int] | None = (4, 2, 1, 0)
    seating: str = "swiss"
    empty_seats: str = "sit_out"
    check_in: bool = False

    def __post_init__(self) -> None:
        if not 1 <= self.rounds <= MAX_ROUNDS:
            raise InvalidRequest(f"rounds: from 1 to {MAX_ROUNDS}, not {self.rounds}", "rounds")
        if self.until not in UNTIL:
            raise InvalidRequest(f"round.until: one of {', '.join(UNTIL)}", "round.until")
        if self.minutes is None and self.until == "time":
            raise InvalidRequest("round.minutes: a round that ends by time needs its minutes", "round.minutes")
        if self.minutes is not None and not 1 <= self.minutes <= MAX_MINUTES:
            raise InvalidRequest(f"round.minutes: from 1 to {MAX_MINUTES}", "round.minutes")
        if not 0 <= self.grace <= MAX_MINUTES:
            raise InvalidRequest(f"round.grace: from 0 to {MAX_MINUTES} minutes", "round.grace")
        points = self.placement_points
        if points is not None and (len(points) != SEATS or any(a < b for a, b in zip(points, points[1:]))
                                   or min(points) < 0):
            raise InvalidRequest("ranking.placement_points: four whole numbers from the first place down, "
                                 "none below the next nor below 0", "ranking.placement_points")
        if self.seating not in SEATING:
            raise InvalidRequest(f"seating: one of {', '.join(SEATING)}", "seating")
        if self.empty_seats not in EMPTY_SEATS:
            raise InvalidRequest(f"empty_seats: one of {', '.join(EMPTY_SEATS)}", "empty_seats")


@dataclass(frozen=True)
class Entrant:
    """An entrant (參賽者): numbered from 1 in the order they registered."""

    number: int
    name: str
    substitute: bool = False
    first_round: int = 1
    withdrawn_from: int | None = None
    checked_in: bool = False

    def plays_in(self, round_number: int) -> bool:
        """Whether the entrant is in the draw of round ``round_number``."""
        return self.first_round <= round_number and (self.withdrawn_from is None
                                                     or round_number < self.withdrawn_from)


@dataclass(frozen=True)
class Round:
    """A drawn round: its tables (players by wind), who sat it out by rule, who a cut left out, who was not
    checked in (``absent``: a competition with check-in seats only those who are), its seed."""

    number: int
    seed: int
    tables: tuple[seating.Seating, ...]
    sitting_out: tuple[int, ...] = ()
    cut: tuple[int, ...] = ()
    absent: tuple[int, ...] = ()


@dataclass(frozen=True)
class TableResult:
    """What one table of a round has played so far: each seated entrant's net money and the hands recorded."""

    round: int
    table: int
    seats: tuple[int, int, int, int]
    nets: Mapping[int, int]
    hands: int


@dataclass
class Line:
    """One round of an entrant's history: where they sat and how it went, or that they sat it out."""

    round: int
    table: int | None = None
    wind: str | None = None
    opponents: tuple[int, ...] = ()
    net: int = 0
    place: Fraction | None = None
    points: Fraction = Fraction(0)
    played: bool = False
    sat_out: bool = False


@dataclass
class Standing:
    """An entrant's place in the standings: rank, points, net and each round."""

    entrant: int
    name: str
    rank: int = 0
    points: Fraction = Fraction(0)
    net: int = 0
    withdrawn: bool = False
    rounds: list[Line] = field(default_factory=list)


def new_seed() -> int:
    """A seed for a round's draw, shown with it so that anyone can draw it again."""
    return random.SystemRandom().randrange(MAX_SEED)


# -- who plays a round ----------------------------------------------------------------


def players_of_round(number: int, entrants: Sequence[Entrant], order: Sequence[int], rounds: Sequence[Round],
                     empty_seats: str, cut: int | None = None,
                     absent: Iterable[int] = ()) -> tuple[list[int], list[int], list[int]]:
    """The players of round ``number`` in the draw's order, those who sit it out, and those a cut leaves out.

    Substitutes come after the entrants, as many as fill the last table; the ``absent`` are not drawn.

    With 1 not checked in (absent), six play: the lowest placed two of them sit out.

    >>> people = [Entrant(n, f"P{n}") for n in range(1, 8)]
    >>> players_of_round(1, people, [3, 1, 2, 7, 5, 6, 4], [], "sit_out")
    ([3, 1, 2, 7], [5, 6, 4], [])

    >>> players_of_round(1, people, [3, 1, 2, 7, 5, 6, 4], [], "sit_out", absent=[1])
    ([3, 2, 7, 5], [6, 4], [])
    """
    away = set(absent)
    playing = {entrant.number: entrant for entrant in entrants
               if entrant.plays_in(number) and entrant.number not in away}
    ranked = [n for n in order if n in playing and not playing[n].substitute]
    left_out = []
    if cut is not None:
        if cut < SEATS:
            raise Worded("cut_too_small", "cut", minimum=SEATS)
        ranked, left_out = ranked[:cut], ranked[cut:]
    if len(ranked) < SEATS:
        raise Worded("too_few_players", "entrants", count=len(ranked), minimum=SEATS)
    short = (SEATS - len(ranked) % SEATS) % SEATS
    if empty_seats == "substitutes":
        return ranked + _substitutes(short, playing.values(), rounds), [], left_out
    over = len(ranked) % SEATS
    sat = _times_sat_out(rounds)
    place = {n: index for index, n in enumerate(ranked)}
    out = sorted(ranked, key=lambda n: (sat.get(n, 0), -place[n]))[:over]
    return [n for n in ranked if n not in out], sorted(out, key=place.__getitem__), left_out


def _substitutes(needed: int, playing: Iterable[Entrant], rounds: Sequence[Round]) -> list[int]:
    if not needed:
        return []
    played: dict[int, int] = {}
    for drawn in rounds:
        for table in drawn.tables:
            for n in table.seats:
                played[n] = played.get(n, 0) + 1
    pool = sorted((e.number for e in playing if e.substitute), key=lambda n: (played.get(n, 0), n))
    if len(pool) < needed:
        raise Worded("too_few_substitutes", "entrants", needed=needed, count=len(pool))
    return pool[:needed]


def _times_sat_out(rounds: Sequence[Round]) -> dict[int, int]:
    sat: dict[int, int] = {}
    for drawn in rounds:
        for n in drawn.sitting_out:
            sat[n] = sat.get(n, 0) + 1
    return sat


def seat_round(number: int, seed: int, settings: Settings, entrants: Sequence[Entrant], rounds: Sequence[Round],
               ranked: Sequence[int], cut: int | None = None) -> Round:
    """Round ``number`` drawn by the seed's shuffle (round 1, or random seating), else by ``ranked`` (round 1 of
    rating seating: by rating, seated in snake order); only those checked in are drawn, the others ``absent``."""
    by_rating = number == 1 and settings.seating == "rating"
    order = list(ranked) if by_rating or (number > 1 and settings.seating != "random") \
        else seating.shuffled((e.number for e in entrants), seed)
    absent = tuple(e.number for e in entrants if settings.check_in and e.plays_in(number) and not e.checked_in)
    players, out, left_out = players_of_round(number, entrants, order, rounds, settings.empty_seats, cut, absent)
    if by_rating:
        players = snake(players)
    history = seating.History.of([table.seats for table in drawn.tables] for drawn in rounds)
    return Round(number, seed, tuple(seating.draw(players, history)), tuple(out), tuple(left_out), absent)


def snake(players: Sequence[int]) -> list[int]:
    """Players best first -> tables of four one after another, dealt out in snake order (1 2 … T T … 2 1 …) so
    that the strongest are spread over the tables; a draw with no history seats them as they come.

    >>> snake([1, 2, 3, 4, 5, 6, 7, 8])
    [1, 4, 5, 8, 2, 3, 6, 7]
    """
    count = len(players) // SEATS
    tables: list[list[int]] = [[] for _ in range(count)]
    for index, player in enumerate(players):
        turn, place = divmod(index, count)
        tables[place if turn % 2 == 0 else count - 1 - place].append(player)
    return [player for table in tables for player in table]


# -- standings --------------------------------------------------------------------------


def placements(nets: Sequence[int], points: Sequence[int] | None) -> list[tuple[Fraction, Fraction]]:
    """Each seat's place (1 the best; tied seats share the average of the places they cover) and points.

    >>> [(str(place), str(got)) for place, got in placements([300, -100, -100, -100], (4, 2, 1, 0))]
    [('1', '4'), ('3', '1'), ('3', '1'), ('3', '1')]
    >>> [str(got) for _, got in placements([100, 100, 0, -200], (4, 2, 1, 0))]
    ['3', '3', '1', '0']
    >>> [str(got) for _, got in placements([50, 50, 50, -150], (4, 2, 1, 0))]
    ['7/3', '7/3', '7/3', '0']
    """
    return [(Fraction(place, TWELFTHS), Fraction(got, TWELFTHS)) for place, got in _twelfths(nets, points)]


def _table_lines(number: int, table: seating.Seating, nets: tuple[int, ...], played: bool,
                 settings: Settings) -> list[tuple[int, Line, int]]:
    """Each seat of a table of round ``number``: its entrant, its line, its points in twelfths."""
    placed = _twelfths(nets, settings.placement_points) if played else None
    lines = []
    for wind, n in enumerate(table.seats):
        line = Line(number, table.number, seating.WINDS[wind], tuple(other for other in table.seats if other != n),
                    played=played)
        got = 0
        if played:
            place, got = placed[wind]
            line.net, line.place, line.points = nets[wind], _in_twelfths(place), _in_twelfths(got)
        lines.append((n, line, got))
    return lines


@functools.lru_cache(maxsize=64)
def _sat_out(number: int) -> Line:
    return Line(number, sat_out=True)


@functools.lru_cache(maxsize=4096)
def _in_twelfths(count: int) -> Fraction:
    """``count`` twelfths (the same few for 800 entrants: made once)."""
    return Fraction(count, TWELFTHS)


def _twelfths(nets: Sequence[int], points: Sequence[int] | None) -> list[tuple[int, int]]:
    """``placements`` in twelfths, whole numbers (2, 3 or 4 tied seats share evenly in twelfths): summing
    ``Fraction``s made the standings of 800 entrants three times slower (``benchmarks/competition.py``)."""
    found = []
    for net in nets:
        above = sum(other > net for other in nets)
        tied = sum(other == net for other in nets)
        covered = range(above, above + tied)
        place = sum(i + 1 for i in covered) * TWELFTHS // tied
        got = sum(points[i] for i in covered) * TWELFTHS // tied if points is not None else 0
        found.append((place, got))
    return found


def rank_entrants(entrants: Sequence[Entrant], rounds: Sequence[Round], results: Iterable[TableResult],
              settings: Settings, tables: dict | None = None) -> list[Standing]:
    """Every entrant (substitutes aside) ranked by the tables played; ``tables`` keeps each table's lines made
    before, so a live board re-ranks after a hand with one table moved (``api.competitions.events``)."""
    rows = {e.number: Standing(e.number, e.name, withdrawn=e.withdrawn_from is not None)
            for e in entrants if not e.substitute}
    totals = {number: 0 for number in rows}  # points in twelfths
    by_table = {(result.round, result.table): result for result in results}
    before, made = tables if tables is not None else {}, {}
    for drawn in rounds:
        for table in drawn.tables:
            result = by_table.get((drawn.number, table.number))
            played = result is not None and result.hands > 0
            nets = tuple(result.nets.get(n, 0) if result else 0 for n in table.seats)
            key = (drawn.number, table.number, table.seats, nets, played)
            lines = made[key] = before.get(key) or _table_lines(drawn.number, table, nets, played, settings)
            for n, line, got in lines:
                if n not in rows:
                    continue
                if played:
                    rows[n].net += line.net
                    totals[n] += got
                rows[n].rounds.append(line)
        for n in (*drawn.sitting_out, *drawn.absent):
            if n in rows:
                rows[n].rounds.append(_sat_out(drawn.number))
    if tables is not None:
        tables.clear()
        tables.update(made)
    for number, row in rows.items():
        row.points = _in_twelfths(totals[number])
    # Ranked on the whole twelfths, not the Fractions: comparing Fractions in the sort was a quarter of the
    # standings' time, rebuilt every second for a followed competition (benchmarks/competition_round.py).
    key = (lambda row: (-totals[row.entrant], -row.net)) if settings.placement_points is not None \
        else (lambda row: -row.net)
    ranked = sorted(rows.values(), key=lambda row: (key(row), row.entrant))
    for index, row in enumerate(ranked):
        row.rank = ranked[index - 1].rank if index and key(ranked[index - 1]) == key(row) else index + 1
    return ranked
