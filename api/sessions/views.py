"""The JSON of an evening's answers: the session, a hand, a seat change, a change of the house rules, an
audit line. Pattern names are the rule set's (繁體中文) here; a route gives them in the reader's script.
"""
import datetime

from api.http.fields import utc_iso
from ledger.competition_store import CompetitionRow, RoundRow, TableRow
from ledger.entries import HAND, RULES, SEAT
from ledger.explain import explain_hand
from ledger.store import AuditRow, EntryRow, SessionRow, as_utc, opening_rules, utc_now


def hands_played(session: SessionRow) -> int:
    """The hands of an evening that count, draws and 詐胡 included, voided ones not: its state's."""
    return session.state.get("hands_played", 0)


def entry_view(entry: EntryRow, session: SessionRow) -> dict:
    """The JSON of a hand, a seat change or a change of the house rules."""
    if entry.kind == HAND:
        return hand_view(entry, session)
    return seat_view(entry) if entry.kind == SEAT else house_rules_view(entry)


def played_under(result: dict, session: SessionRow) -> dict:
    """The house rules a hand was played under: its result's; a result stored before results kept them was
    played under those the evening started with (no change mid-evening could come before it)."""
    return result.get("house_rules", opening_rules(session))


def hand_view(entry: EntryRow, session: SessionRow) -> dict:
    """A hand as the hand endpoints return it; ``lines`` explain its payments (``ledger.explain``)."""
    result = entry.result
    return {
        "number": entry.number, "void": entry.void, "body": entry.body,
        **{key: result[key] for key in ("dealer", "streak", "round_wind", "hand_wind", "jiang", "wasteland",
                                         "payments", "scores")},
        "lines": explain_hand(session.ruleset, session.stakes, session.options, entry.body, result,
                              played_under(result, session)),
        "state": result["after"], "client": entry.client,
        "created_at": utc_iso(entry.created_at), "updated_at": utc_iso(entry.updated_at),
    }


def seat_view(entry: EntryRow) -> dict:
    """A seat change (替補) as ``POST /seats`` and the session return it."""
    result = entry.result
    return {"seat": result["seat"], "player": result["player"], "replaces": result["replaces"],
            "hands_played": result["before"]["hands_played"], "state": result["after"],
            "client": entry.client, "created_at": utc_iso(entry.created_at)}


def house_rules_view(entry: EntryRow) -> dict:
    """A change of the house rules from hand ``from_hand`` on (``POST …/house_rules``); ``void`` once a correction
    of the whole evening (``PUT``) replaced it."""
    result = entry.result
    return {"kind": "house_rules", "from_hand": result["from_hand"], "house_rules": result["house_rules"],
            "before": result["before"], "void": entry.void, "client": entry.client,
            "created_at": utc_iso(entry.created_at)}


def session_state(session: SessionRow) -> dict:
    """The table's state now, and whether the evening is closed (since when)."""
    closed_at = session.closed_at
    return {**session.state, "closed": closed_at is not None,
            "closed_at": None if closed_at is None else utc_iso(closed_at)}


def session_view(session: SessionRow, side_entries: list[EntryRow], access: str = "write",
                 group_id: str | None = None) -> dict:
    """A session with its state, totals and side entries (no hands: ``store.list_side_entries``); ``access``
    says what the token may do, ``group`` the evening's group (None: standalone)."""
    return {
        "id": session.id, "name": session.name, "ruleset": session.ruleset, "players": session.players,
        "stakes": session.stakes, "options": session.options, "house_rules": session.house_rules or {},
        "opening_house_rules": opening_rules(session),
        "house_rules_changes": [house_rules_view(entry) for entry in side_entries if entry.kind == RULES],
        "state": session_state(session),
        "totals": session.totals,
        "seat_changes": [seat_view(entry) for entry in side_entries if entry.kind == SEAT],
        "next_hand": session.hand_count + 1, "created_at": utc_iso(session.created_at),
        "revision": session.revision, "access": access, "group": group_id,
    }


def _moment(moment: datetime.datetime | None) -> str | None:
    return None if moment is None else utc_iso(moment)


def table_round_view(table: TableRow, round_: RoundRow, competition: CompetitionRow, session: SessionRow,
                     played_since_end: bool = False, now: datetime.datetime | None = None) -> dict:
    """What a competition's table knows of its round: which it is, the clock (``seconds_left``, which the page
    counts down itself), whether its 將 or time is done, and after the organiser ended it, the grace in
    which the hand in play may still be recorded (``grace_open``: within it, none recorded since, the next
    round not drawn).

    >>> from ledger.store import utc_now
    >>> start = datetime.datetime(2026, 12, 4, 19, 0, tzinfo=datetime.timezone.utc)
    >>> round_ = RoundRow(competition_id="c", number=2, seed=1, sitting_out=[], cut=[], started_at=start,
    ...                   ends_at=start + datetime.timedelta(minutes=90))
    >>> cup = CompetitionRow(id="c", name="Cup", settings={"rounds": 3, "until": "jiang", "minutes": 90})
    >>> evening = SessionRow(id="s", state={"jiang": 1})
    >>> shown = table_round_view(TableRow(session_id="s", competition_id="c", round=2, number=5, seats=[]),
    ...                          round_, cup, evening, now=start + datetime.timedelta(minutes=89))
    >>> shown["seconds_left"], shown["time_up"], shown["jiang_done"], shown["round"], shown["table"]
    (60, False, False, 2, 5)
    >>> late = table_round_view(TableRow(session_id="s", competition_id="c", round=2, number=5, seats=[]),
    ...                         round_, cup, evening, now=start + datetime.timedelta(minutes=91))
    >>> late["seconds_left"], late["time_up"]
    (0, True)
    """
    now = now or utc_now()
    settings = competition.settings
    ends_at = None if round_.ends_at is None else as_utc(round_.ends_at)
    running = ends_at is not None and round_.ended_at is None
    grace_until = None if round_.grace_until is None else as_utc(round_.grace_until)
    return {"competition": competition.id, "name": competition.name, "round": round_.number,
            "rounds": settings["rounds"], "table": table.number, "until": settings["until"],
            "minutes": settings.get("minutes"), "started_at": _moment(round_.started_at),
            "ends_at": _moment(ends_at), "seconds_left": max(0, int((ends_at - now).total_seconds())) if running
            else None, "time_up": ends_at is not None and now >= ends_at,
            "jiang_done": session.state.get("jiang", 1) > 1, "ended_at": _moment(round_.ended_at),
            "grace_until": _moment(grace_until),
            "grace_open": grace_until is not None and now <= grace_until and not played_since_end}


def audit_view(audit: AuditRow) -> dict:
    """One line of the audit trail (closing and reopening name no hand: ``number`` and ``before`` are null)."""
    return {"number": audit.number, "action": audit.action, "who": audit.who, "at": utc_iso(audit.at),
            "before": audit.before, "after": audit.after}
