"""Ratings (實力分): Weng–Lin's Plackett–Luce model (``openskill``) over a group's games, replayed in order.

A game is a closed evening of the group (a competition's table is one too): its members ranked by their
net money in it, equal nets tied (ranks 1, 2, 2, 4); a substitute takes part with the net of the part of
the evening they sat, and a name that never sat a hand takes no part. Games are replayed in the order
the caller gives: the evening's day, then when it started, then its id (``api.groups.figures``), so an
evening entered late or corrected re-rates every game after it. Nothing is stored: ``benchmarks/groups.py``
measures the replay of 500 evenings. Members start at the model's μ 25, σ 25/3; ``rating`` = μ − 3σ,
rounded to two decimals by Python's ``round`` (to the nearest hundredth of the float, ties to even).
Floats never reach money: nets only order the players.
"""
from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from openskill.models import PlackettLuce

MODEL = "plackett-luce"
_MODEL = PlackettLuce()


class Game(NamedTuple):
    """One rated game: the evening, its day, and each taking part member's net money in it."""

    evening: str
    day: datetime.date
    nets: Mapping[str, int]


@dataclass
class Rating:
    """A member's rating after the games replayed so far, and after each of them (``history``)."""

    mu: float = _MODEL.mu
    sigma: float = _MODEL.sigma
    games: int = 0
    history: list[dict] = field(default_factory=list)

    @property
    def rating(self) -> float:
        return shown(self.mu, self.sigma)


def shown(mu: float, sigma: float) -> float:
    """μ − 3σ to two decimals: what a member can fairly be sure of.

    >>> shown(25.0, 25.0 / 3.0)
    0.0
    """
    return round(mu - 3 * sigma, 2)


def ranks(nets: Mapping[str, int]) -> list[int]:
    """Each player's rank by net, best 1, equals sharing the best rank they cover (1, 2, 2, 4).

    >>> ranks({"Amy": 300, "Ben": -100, "Cat": -100, "Dan": -100})
    [1, 2, 2, 2]
    """
    values = list(nets.values())
    return [1 + sum(other > net for other in values) for net in values]


def rate(games: Iterable[Game]) -> dict[str, Rating]:
    """Every member's rating after replaying ``games`` in the order given; a game of fewer than two is none."""
    found: dict[str, Rating] = {}
    for game in games:
        if len(game.nets) < 2:
            continue
        players = [found.setdefault(member, Rating()) for member in game.nets]
        teams = [[_MODEL.rating(mu=player.mu, sigma=player.sigma)] for player in players]
        for player, [after] in zip(players, _MODEL.rate(teams, ranks=ranks(game.nets))):
            player.mu, player.sigma, player.games = after.mu, after.sigma, player.games + 1
            player.history.append({"evening": game.evening, "date": game.day.isoformat(), "rating": player.rating})
    return found


def ordered(ratings: Mapping[str, Rating], names: Mapping[str, str]) -> list[dict]:
    """The ratings as the API lists them: best ``rating`` first, then the more games, then by name."""
    rows = [{"member": member, "name": names.get(member, member), "rating": one.rating, "mu": one.mu,
             "sigma": one.sigma, "games": one.games, "history": one.history} for member, one in ratings.items()]
    return sorted(rows, key=lambda row: (-row["rating"], -row["games"], row["name"], row["member"]))
