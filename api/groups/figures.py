"""A group's standings and a member's page, read from the stored figures of its evenings.

Standings and member pages must not score evenings again (500 evenings ×
20 hands in well under 100 ms): each change of a group's evening rewrites
its figures in the change's transaction (``ledger.group_evenings.rewrite_figures``),
and these views only add them up.
"""
import datetime
from collections.abc import Mapping

from sqlmodel import Session

from ledger import group_store, ratings, store
from ledger.errors import InvalidRequest
from ledger.figures import EveningRef, Figures, member_page, standings
from ledger.group_store import MemberRow


# -- reading: periods, standings, a member's page ----------------------------------


def period(db: Session, group_id: str, query: Mapping) -> tuple[datetime.date | None, datetime.date | None]:
    """The days a query asks for: its season's, narrowed by ``from`` and ``to``; 422 for an unknown season
    or ``from`` after ``to``."""
    first, last = None, None
    if query.get("season") is not None:
        season = group_store.find_season(db, group_id, query["season"])
        if season is None:
            raise InvalidRequest(f"season: no season {query['season']} in this group", "season")
        first, last = season.first_day, season.last_day
    first = max(filter(None, (first, query.get("from"))), default=None)
    last = min(filter(None, (last, query.get("to"))), default=None)
    check_period(first, last)
    return first, last


def check_period(first: datetime.date | None, last: datetime.date | None) -> None:
    """``from`` must not be after ``to`` (a 422 naming ``from``)."""
    if first is not None and last is not None and first > last:
        raise InvalidRequest(f"from ({first.isoformat()}) is after to ({last.isoformat()})", "from")


def standings_view(db: Session, group_id: str, first: datetime.date | None, last: datetime.date | None,
                   min_evenings: int = 0) -> list[dict]:
    """The standings over the days from ``first`` to ``last`` (``ledger.figures.standings``), from stored figures."""
    found = group_store.figures_in_order(db, group_id, first, last)
    rows = [(member_id, Figures.from_json(shape)) for _, _, member_id, shape, _ in found]
    rated = ratings.rate(games_of(found))
    return [{**row, "rating": rated[row["member"]].rating if row["member"] in rated else None}
            for row in standings(rows, member_names(db, group_id), min_evenings)]


def member_page_view(db: Session, group_id: str, member: MemberRow) -> dict:
    """A member's lifetime page (``ledger.figures.member_page``), from stored figures; evenings by day."""
    rows = [(EveningRef(session_id, name, day, ruleset), Figures.from_json(row.figures))
            for row, day, session_id, name, ruleset in group_store.member_figures(db, group_id, member.id)]
    aliases = group_store.aliases_by_member(db, group_id).get(member.id, [])
    rated = ratings.rate(games(db, group_id)).get(member.id)
    return {**member_page(rows, member.id, member_names(db, group_id), aliases),
            "rating": rated and {"rating": rated.rating, "mu": rated.mu, "sigma": rated.sigma,
                                 "games": rated.games, "history": rated.history}}


def member_season(db: Session, group_id: str, member: MemberRow, first: datetime.date | None,
                  last: datetime.date | None) -> tuple[list[int], list[tuple[int, float]]]:
    """A member's cumulative net after each of their evenings from ``first`` to ``last`` (by day, then start),
    and their rating over that period after each rated one: (the evening's place from 1, rating)."""
    rows = [(session_id, row.figures["net"])
            for row, day, session_id, _, _ in group_store.member_figures(db, group_id, member.id)
            if (first is None or day >= first) and (last is None or day <= last)]
    places = {session_id: place for place, (session_id, _) in enumerate(rows, start=1)}
    cumulative, series = 0, []
    for _, net in rows:
        cumulative += net
        series.append(cumulative)
    rated = ratings.rate(games(db, group_id, first, last)).get(member.id)
    return series, [(places[point["evening"]], point["rating"]) for point in (rated.history if rated else [])]


def games(db: Session, group_id: str, first: datetime.date | None = None,
          last: datetime.date | None = None) -> list[ratings.Game]:
    """The group's rated games from ``first`` to ``last`` in replay order (``ledger.ratings``)."""
    return games_of(group_store.figures_in_order(db, group_id, first, last))


def games_of(figures: list[tuple[str, datetime.date, str, dict, bool]]) -> list[ratings.Game]:
    """The games of ``group_store.figures_in_order``'s rows: each closed evening's members who sat a hand, with
    their nets."""
    found: dict[str, ratings.Game] = {}
    for session_id, day, member_id, shape, closed in figures:
        if not closed:
            continue
        if session_id not in found:
            found[session_id] = ratings.Game(session_id, day, {})
        if shape["hands"]:
            found[session_id].nets[member_id] = shape["net"]
    return list(found.values())


def ratings_view(db: Session, group_id: str, first: datetime.date | None, last: datetime.date | None) -> dict:
    """``GET …/ratings``: every member who played a rated game from ``first`` to ``last``, each starting fresh."""
    return {"model": ratings.MODEL,
            "ratings": ratings.ordered(ratings.rate(games(db, group_id, first, last)), member_names(db, group_id))}


def member_names(db: Session, group_id: str) -> dict[str, str]:
    """Member id -> current name."""
    return {member.id: member.name for member in group_store.list_members(db, group_id)}
