"""The figures of a group's evenings (``evening_figures``), kept in step with every change of the evening.

Standings and member pages must not score evenings again (500 evenings ×
20 hands in well under 100 ms), so each evening of a group is summarised
once per change by ``ledger.groupstats.evening_figures`` into one
``Figures`` per member, stored as JSON. ``rewrite_figures`` is called in the
transaction of every change of an evening (``api.recording``), and when an
evening joins a group or its players' members change (attach, import, a
seat change, a merge): the stored figures are always the evening's as it is.

The evening's figures come per player name; here they are keyed by member
(two names of one member, after a merge, are added together), and so are
their ``against`` (head-to-head) amounts, a member's money against itself
left out.
"""
import datetime
from collections.abc import Mapping

from sqlalchemy import delete
from sqlmodel import Session

from ledger import group_store, store
from ledger.errors import InvalidRequest
from ledger.group_store import EveningFiguresRow, MemberRow, SeasonRow
from ledger.groupstats import Evening, EveningRef, Figures, evening_figures, member_page, standings


def rewrite_figures(db: Session, session: store.SessionRow, group_id: str | None) -> None:
    """If the evening belongs to a group (``group_id``, known to the caller), replace its stored figures with
    what it says now (no commit)."""
    if group_id is None:
        return
    evening = group_store.group_evening(db, session.id)
    if evening is None:
        return
    players = group_store.evening_players(db, [session.id])[session.id]
    by_member = member_figures(evening_figures(evening_of(session, evening.day, store.list_entries(db, session.id))),
                               players)
    db.exec(delete(EveningFiguresRow).where(EveningFiguresRow.session_id == session.id))
    db.add_all(EveningFiguresRow(session_id=session.id, member_id=member, figures=figures.to_json())
               for member, figures in by_member.items())


def evening_of(session: store.SessionRow, day, entries: list[store.EntryRow]) -> Evening:
    """The plain ``Evening`` that ``ledger.groupstats`` summarises, from a stored session and its entries."""
    return Evening(id=session.id, name=session.name, day=day, ruleset=session.ruleset,
                   entries=[{"kind": entry.kind, "number": entry.number, "body": entry.body, "void": entry.void,
                             "result": entry.result} for entry in entries],
                   totals=session.totals)


def member_figures(by_player: dict[str, Figures], players: dict[str, str]) -> dict[str, Figures]:
    """Figures per player name -> per member id, ``against`` keyed by member id too."""
    by_member: dict[str, Figures] = {}
    for player, figures in by_player.items():
        member = players[player]
        shape = figures.to_json()
        against: dict[str, int] = {}
        for other, amount in shape["against"].items():
            if players[other] != member:
                against[players[other]] = against.get(players[other], 0) + amount
        mapped = Figures.from_json({**shape, "against": against})
        by_member[member] = by_member[member] + mapped if member in by_member else mapped
    return by_member


# -- reading: periods, standings, a member's page ----------------------------------


def period(db: Session, group_id: str, query: Mapping) -> tuple[datetime.date | None, datetime.date | None]:
    """The days a query asks for: its season's, narrowed by ``from`` and ``to``; 422 for an unknown season
    or ``from`` after ``to``."""
    first, last = None, None
    if query.get("season") is not None:
        season = db.get(SeasonRow, query["season"])
        if season is None or season.group_id != group_id:
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
    """The standings over the days from ``first`` to ``last`` (``ledger.groupstats.standings``), from stored figures."""
    rows = [(row.member_id, Figures.from_json(row.figures))
            for row, _ in group_store.figures_rows(db, group_id, first, last)]
    return standings(rows, _names(db, group_id), min_evenings)


def member_page_view(db: Session, group_id: str, member: MemberRow) -> dict:
    """A member's lifetime page (``ledger.groupstats.member_page``), from stored figures; evenings by day."""
    rows = [(EveningRef(session_id, name, day, ruleset), Figures.from_json(row.figures))
            for row, day, session_id, name, ruleset in group_store.member_figures(db, group_id, member.id)]
    aliases = group_store.aliases_by_member(db, group_id).get(member.id, [])
    return member_page(rows, member.id, _names(db, group_id), aliases)


def _names(db: Session, group_id: str) -> dict[str, str]:
    return {member.id: member.name for member in group_store.list_members(db, group_id)}
