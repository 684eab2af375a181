"""A group's standings and a member's page, read from the stored figures of its evenings.

Standings and member pages must not score evenings again (500 evenings ×
20 hands in well under 100 ms): each change of a group's evening rewrites
its figures in the change's transaction (``ledger.group_evenings.rewrite_figures``),
and these views only add them up.
"""
import datetime
from collections.abc import Mapping

from sqlmodel import Session

from ledger import group_store
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
    rows = [(row.member_id, Figures.from_json(row.figures))
            for row, _ in group_store.figures_rows(db, group_id, first, last)]
    return standings(rows, member_names(db, group_id), min_evenings)


def member_page_view(db: Session, group_id: str, member: MemberRow) -> dict:
    """A member's lifetime page (``ledger.figures.member_page``), from stored figures; evenings by day."""
    rows = [(EveningRef(session_id, name, day, ruleset), Figures.from_json(row.figures))
            for row, day, session_id, name, ruleset in group_store.member_figures(db, group_id, member.id)]
    aliases = group_store.aliases_by_member(db, group_id).get(member.id, [])
    return member_page(rows, member.id, member_names(db, group_id), aliases)


def member_names(db: Session, group_id: str) -> dict[str, str]:
    """Member id -> current name."""
    return {member.id: member.name for member in group_store.list_members(db, group_id)}
