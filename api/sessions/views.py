"""The JSON of an evening's answers: the session, a hand, a seat change, a line of the audit trail.

A hand's ``lines`` explain its payments (``ledger.explain``); times are ISO
8601 in UTC. Pattern names are the rule set's (繁體中文) here: a route gives
them in the reader's script (``api.http.language.in_reader_script``).
"""
import datetime

from ledger.entries import HAND
from ledger.explain import explain_hand
from ledger.store import AuditRow, EntryRow, SessionRow, as_utc


def timestamp(moment: datetime.datetime) -> str:
    """ISO 8601 in UTC, as every answer gives times.

    >>> timestamp(datetime.datetime(2026, 11, 29, 20, 5))
    '2026-11-29T20:05:00+00:00'
    """
    return as_utc(moment).isoformat()


def entry_view(entry: EntryRow, session: SessionRow) -> dict:
    """The JSON of a hand or a seat change."""
    return hand_view(entry, session) if entry.kind == HAND else seat_view(entry)


def hand_view(entry: EntryRow, session: SessionRow) -> dict:
    """A hand as the hand endpoints return it; ``lines`` explain its payments (``ledger.explain``)."""
    result = entry.result
    return {
        "number": entry.number, "void": entry.void, "body": entry.body,
        **{key: result[key] for key in ("dealer", "streak", "round_wind", "hand_wind", "jiang", "wasteland",
                                         "payments", "scores")},
        "lines": explain_hand(session.ruleset, session.stakes, session.options, entry.body, result,
                              session.house_rules),
        "state": result["after"], "client": entry.client,
        "created_at": timestamp(entry.created_at), "updated_at": timestamp(entry.updated_at),
    }


def seat_view(entry: EntryRow) -> dict:
    """A seat change (替補) as ``POST /seats`` and the session return it."""
    result = entry.result
    return {"seat": result["seat"], "player": result["player"], "replaces": result["replaces"],
            "hands_played": result["before"]["hands_played"], "state": result["after"],
            "client": entry.client, "created_at": timestamp(entry.created_at)}


def session_state(session: SessionRow) -> dict:
    """The table's state now, and whether the evening is closed (since when)."""
    closed_at = session.closed_at
    return {**session.state, "closed": closed_at is not None,
            "closed_at": None if closed_at is None else timestamp(closed_at)}


def session_view(session: SessionRow, seat_changes: list[EntryRow], access: str = "write",
                 group_id: str | None = None) -> dict:
    """A session with its state, totals and seat changes; ``access`` says what the request's token may do;
    ``group``, the group the evening belongs to (None: standalone)."""
    return {
        "id": session.id, "name": session.name, "ruleset": session.ruleset, "players": session.players,
        "stakes": session.stakes, "options": session.options, "house_rules": session.house_rules or {},
        "state": session_state(session),
        "totals": session.totals, "seat_changes": [seat_view(entry) for entry in seat_changes],
        "next_hand": session.hand_count + 1, "created_at": timestamp(session.created_at),
        "revision": session.revision, "access": access, "group": group_id,
    }


def audit_view(audit: AuditRow) -> dict:
    """One line of the audit trail (closing and reopening name no hand: ``number`` and ``before`` are null)."""
    return {"number": audit.number, "action": audit.action, "who": audit.who, "at": timestamp(audit.at),
            "before": audit.before, "after": audit.after}
