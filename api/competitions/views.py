"""The JSON of a competition's answers: the competition with its rounds and tables, entrants, standings."""
from __future__ import annotations

import datetime
from fractions import Fraction

from api.competitions.access import ORGANIZER
from api.competitions.service import Snapshot
from api.http.auth import table_tokens
from api.http.fields import utc_iso
from api.sessions.views import hands_played
from ledger.competition import Standing
from ledger.competition_store import EntrantRow, RoundRow, TableRow
from ledger.group_store import AuditLineRow
from ledger.store import CLIENT_KEPT, AuditRow, SessionRow, as_utc, utc_now


def entrant_view(entrant: EntrantRow) -> dict:
    return {"entrant": entrant.number, "name": entrant.name, "substitute": entrant.substitute,
            "first_round": entrant.first_round, "withdrawn_from": entrant.withdrawn_from, "member": entrant.member_id,
            "checked_in": entrant.checked_in}


def _moment(moment: datetime.datetime | None) -> str | None:
    return None if moment is None else utc_iso(as_utc(moment))


def table_view(table: TableRow, session: SessionRow, organizer_token: str | None) -> dict:
    """A table: its evening, seats by wind, progress; its tokens for the organiser (``organizer_token``)."""
    view = {"table": table.number, "session": session.id, "seats": list(session.players),
            "hands": hands_played(session), "jiang_done": session.state.get("jiang", 1) > 1,
            "closed": session.closed_at is not None, "totals": session.totals}
    if organizer_token is not None:
        view["token"], view["read_token"] = table_tokens(organizer_token, session.id, table.links)
    return view


def round_view(found: RoundRow, tables: list[tuple[TableRow, SessionRow]], names: dict[int, str],
               organizer_token: str | None) -> dict:
    left = None
    if found.ends_at is not None and found.ended_at is None:
        left = max(0, int((as_utc(found.ends_at) - utc_now()).total_seconds()))
    return {"number": found.number, "seed": str(found.seed),
            "tables": [table_view(table, session, organizer_token) for table, session in tables],
            "sitting_out": [names[n] for n in found.sitting_out], "cut": [names[n] for n in found.cut],
            "absent": [names[n] for n in found.absent or ()],
            "started_at": _moment(found.started_at), "ends_at": _moment(found.ends_at),
            "ended_at": _moment(found.ended_at), "grace_until": _moment(found.grace_until), "seconds_left": left}


def competition_view(snapshot: Snapshot, access: str, token: str | None = None) -> dict:
    """The competition for a token of level ``access`` (the organiser's ``token`` shows the tables' links)."""
    row, settings = snapshot.row, snapshot.settings
    names = {entrant.number: entrant.name for entrant in snapshot.entrants}
    organizer_token = token if access == ORGANIZER else None
    drawn = [round_view(found, [(t, s) for t, s in snapshot.tables if t.round == found.number], names,
                        organizer_token) for found in snapshot.rounds]
    current = next((found.number for found in snapshot.rounds if found.ended_at is None), None)
    return {"id": row.id, "name": row.name, "ruleset": row.ruleset, "stakes": row.stakes, "options": row.options,
            "house_rules": row.house_rules, "rounds": settings.rounds,
            "round": {"until": settings.until, "minutes": settings.minutes, "grace": settings.grace},
            "ranking": "net" if settings.placement_points is None
            else {"placement_points": list(settings.placement_points)}, "seating": settings.seating, "empty_seats": settings.empty_seats,
            "check_in": settings.check_in, "group": row.group_id, "access": access, "revision": row.revision,
            "entrants": [entrant_view(entrant) for entrant in snapshot.entrants], "drawn": drawn,
            "current_round": current}


def points(value: Fraction) -> int | float:
    """Points as JSON: a whole number as it is, another as its nearest float (``points_exact`` says it exactly).

    >>> points(Fraction(7, 3)), points(Fraction(8, 1)), exact(Fraction(7, 3))
    (2.3333333333333335, 8, '7/3')
    """
    return int(value) if value.denominator == 1 else float(value)


def exact(value: Fraction | None) -> str | None:
    return None if value is None else str(value)


def standings_view(found: list[Standing], names: dict[int, str]) -> list[dict]:
    return [standing_view(row, names) for row in found]


def standing_view(row: Standing, names: dict[int, str]) -> dict:
    """One entrant's line of the standings (its ``rank`` third: ``api.competitions.events`` writes it apart)."""
    return {"entrant": row.entrant, "name": row.name, "rank": row.rank, "points": points(row.points),
            "points_exact": exact(row.points), "net": row.net, "withdrawn": row.withdrawn,
            "rounds": [{"round": line.round, "table": line.table, "wind": line.wind,
                        "opponents": [names[n] for n in line.opponents], "net": line.net,
                        "place": exact(line.place), "points": points(line.points),
                        "points_exact": exact(line.points), "played": line.played, "sat_out": line.sat_out}
                       for line in row.rounds]}


def _seed_as_text(after: dict | None) -> dict | None:
    """A draw's line as the API says a seed: digits in a string, whole in a browser past 2**53."""
    if after and isinstance(after.get("seed"), int):
        return {**after, "seed": str(after["seed"])}
    return after


def audit_view(competition: list[AuditLineRow], tables: list[tuple[TableRow, AuditRow]],
               rounds: list[RoundRow]) -> list[dict]:
    """The competition's audit trail for its organiser, oldest first: its own changes and its tables'. A round's
    closings are its ``end`` line, so a table's closing shows only once it was reopened; ``after_round_end``
    marks what changed at a table after its round ended."""
    ended = {found.number: found.ended_at for found in rounds}
    lines = [{"at": audit.at, "who": ORGANIZER, "client": audit.who[:CLIENT_KEPT], "action": audit.action,
              "round": (audit.after or {}).get("round"),
              "table": (audit.after or {}).get("table"), "session": (audit.after or {}).get("session"),
              "number": None, "before": audit.before, "after": _seed_as_text(audit.after), "after_round_end": False}
             for audit in competition]
    reopened: set[str] = set()
    for table, audit in tables:
        if audit.action == "reopen":
            reopened.add(table.session_id)
        elif audit.action == "close" and table.session_id not in reopened:
            continue
        end = ended.get(table.round)
        lines.append({"at": audit.at, "who": audit.role or f"table {table.number} of round {table.round}",
                      "client": audit.who[:CLIENT_KEPT], "action": audit.action, "round": table.round,
                      "table": table.number, "session": table.session_id, "number": audit.number,
                      "before": audit.before, "after": audit.after,
                      "after_round_end": end is not None and as_utc(audit.at) > as_utc(end)})
    lines.sort(key=lambda line: as_utc(line["at"]))  # stable: each trail keeps its own order
    return [{**line, "at": utc_iso(as_utc(line["at"]))} for line in lines]
