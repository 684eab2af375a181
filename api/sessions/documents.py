"""An evening as one JSON document (備份) and back: what ``…/export``, ``…/import`` and ``flask backup`` do.

An import gets a new id and tokens; a document that is malformed, refused by the ledger, beyond the
limits, whose replay does not give its ``state`` and ``totals``, or that tells what cannot have happened
is a 422 and creates nothing. The check and replay run off the gevent loop (``api.http.offload``); the
session is written in pieces of ``PIECE_ROWS`` rows, each its own short transaction, so SQLite's one
write lock is never held for a whole import. Nobody can reach a half-written session (its id is in the
answer only); a failed piece deletes what was written.
"""
import logging
from collections.abc import Mapping
from typing import NamedTuple

from sqlmodel import Session

from api.http.auth import new_id, new_token, token_hash
from api.http.db import add_flushed, begin_write, next_piece
from api.http.limits import Limits
from api.http.offload import off_loop
from api.sessions.schemas import FORMAT, HOUSE_RULES_ACTIONS, VERSION
from ledger import store
from ledger.entries import HAND, RULES, SEAT
from ledger.errors import InvalidRequest
from ledger.house_rules import check_house_rules
from ledger.recorder import Event, Recorder
from ledger.store import AuditRow, EntryRow, SessionRecord, SessionRow, as_utc, opening_rules, utc_now

LOG = logging.getLogger(__name__)
#: Rows written in one transaction of an import: on SQLite the write lock is held that long, a few tens of ms.
PIECE_ROWS = 250
from ledger.table import table_options


# -- export ----------------------------------------------------------------------


#: Audit actions about the evening being open, which an import (always open) does not carry.
EVENING_ACTIONS = ("close", "reopen")


def export_document(record: SessionRecord) -> dict:
    """The backup document of a stored session (``api.sessions.schemas``), before serialisation."""
    session = record.session
    return {
        "format": FORMAT, "version": VERSION, "exported_at": utc_now(),
        "name": session.name, "ruleset": session.ruleset, "players": session.players,
        "stakes": session.stakes, "options": session.options, "house_rules": opening_rules(session),
        "created_at": as_utc(session.created_at),
        "entries": [_exported_entry(entry) for entry in record.entries],
        # The hands' and the house rules' audit: an import recreates an open evening, so closing and
        # reopening are not carried.
        "audit": [_exported_audit(audit) for audit in record.audits if audit.action not in EVENING_ACTIONS],
        "state": session.state, "totals": session.totals,
    }


def _exported_entry(entry: EntryRow) -> dict:
    return {"kind": entry.kind, "number": entry.number, "body": entry.body, "void": entry.void,
            "client": entry.client, "created_at": as_utc(entry.created_at),
            "updated_at": as_utc(entry.updated_at)}


def _exported_audit(audit: AuditRow) -> dict:
    return {"number": audit.number, "action": audit.action, "who": audit.who, "at": as_utc(audit.at),
            "before": audit.before, "after": audit.after}


# -- import ----------------------------------------------------------------------


def import_document(db: Session, document: Mapping, limits: Limits) -> tuple[SessionRow, str, str]:
    """Recreate the session of a validated document in one transaction; it and its new tokens, or
    ``InvalidRequest`` (422) creating nothing (bad entries, numbering, audit, or replay)."""
    prepared = off_loop(prepare_import, document, limits)
    write_import(db, prepared)
    return prepared.session, prepared.token, prepared.read_token


class PreparedImport(NamedTuple):
    """A document checked and replayed, ready to be written: the new session, its entries, audit and tokens."""

    session: SessionRow
    rows: list[EntryRow]
    audit: list[dict]
    token: str
    read_token: str


def prepare_import(document: Mapping, limits: Limits) -> PreparedImport:
    """Check and replay a document (``InvalidRequest`` if it is refused) before any transaction begins."""
    entries = document["entries"]
    _check_sizes(entries, limits.max_hands)
    _check_entries(entries)
    _check_audit(document["audit"], {entry["number"]: entry for entry in entries if entry["kind"] == HAND},
                 document["ruleset"], document["options"])
    _check_times(document)
    session_id, token, read_token = new_id(), new_token(), new_token()
    rows = [_entry_row(session_id, position, entry) for position, entry in enumerate(entries, start=1)]
    events = [Event(row.kind, row.body, row.void, row.number) for row in rows]
    recorder, results = Recorder.replay(document["ruleset"], document["players"], document["stakes"],
                                        document["options"], events, document["house_rules"],
                                        max_participants=limits.max_participants)
    _check_replay(document, recorder.state.to_dict(), recorder.totals)
    for row, result in zip(rows, results):
        row.result = result
    options = recorder.table.options
    changed = any(row.kind == RULES for row in rows)  # else the rules it started with are those in force
    session = SessionRow(id=session_id, name=document["name"], ruleset=document["ruleset"],
                         players=document["players"], stakes=document["stakes"], options=options,
                         house_rules=recorder.table.house_rules,
                         opening_house_rules=check_house_rules(document["ruleset"], document["house_rules"], options)
                         if changed else None, token_hash=token_hash(token),
                         read_token_hash=token_hash(read_token),
                         state=recorder.state.to_dict(), totals=recorder.totals,
                         entry_count=len(rows), hand_count=sum(row.kind == HAND for row in rows),
                         created_at=as_utc(document["created_at"]))
    return PreparedImport(session, rows, document["audit"], token, read_token)


def write_import(db: Session, prepared: PreparedImport) -> None:
    """Write a prepared import and commit, in pieces of at most ``PIECE_ROWS`` rows, each its own transaction
    (see the module's docstring); on a failure, delete what was written and raise."""
    try:
        begin_write(db)
        db.add(prepared.session)
        db.flush()  # the tables have no ORM relationships: insert parents first
        size = PIECE_ROWS
        for start in range(0, len(prepared.rows), size):
            if start:
                next_piece(db)
            add_flushed(db, prepared.rows[start:start + size])
        entry_ids = {row.number: row.id for row in prepared.rows if row.kind == HAND}
        audits = [_audit_row(prepared.session.id, entry_ids.get(audit["number"]), audit) for audit in prepared.audit]
        for start in range(0, len(audits), size):
            next_piece(db)
            add_flushed(db, audits[start:start + size])
        db.commit()
    except BaseException:
        discard_imports(db, [prepared.session.id])
        raise


def discard_imports(db: Session, session_ids: list[str], also=None) -> None:
    """After a failed import, delete the sessions it began (the foreign keys cascade) and ``also(db)``'s, and
    commit. A failure here (likely what failed the import) is logged, not raised: the import's own error is
    the answer, and what stays is reachable by nobody."""
    try:
        db.rollback()
        begin_write(db)
        store.delete_sessions(db, session_ids)
        if also is not None:
            also(db)
        db.commit()
    except Exception:  # noqa: BLE001 - see the docstring
        db.rollback()
        LOG.exception("An import failed and what it had written could not be deleted (%d sessions)",
                      len(session_ids))


def _check_sizes(entries: list[dict], maximum: int) -> None:
    """At most ``maximum`` hands, as many seat changes and as many changes of the house rules: checked before any
    of them is replayed."""
    for kind, what in ((HAND, "hands"), (SEAT, "seat changes"), (RULES, "changes of the house rules")):
        count = sum(entry["kind"] == kind for entry in entries)
        if count > maximum:
            raise InvalidRequest(f"a session holds at most {maximum} {what}; this document has {count}", "entries")


def _check_entries(entries: list[dict]) -> None:
    """Hands are numbered 1, 2, 3, … in order (each body was loaded by its request's schema: ``BackupSchema``)."""
    next_number = 1
    for index, entry in enumerate(entries):
        field = f"entries[{index}]"
        expected = next_number if entry["kind"] == HAND else None
        if entry["number"] != expected:
            rule = (f"must be {expected} (hands are numbered 1, 2, 3, … in order)" if expected
                    else "must be null (only a hand has a number)")
            raise InvalidRequest(f"{field}.number {rule}, not {entry['number']}", f"{field}.number")
        if entry["kind"] == SEAT and entry["void"]:
            raise InvalidRequest(f"{field}: a seat change cannot be void (only a hand, or a change of the house "
                                 "rules a correction replaced)", f"{field}.void")
        next_number += entry["kind"] == HAND


def _check_audit(audit: list[dict], hands: dict[int, dict], ruleset: str, options: Mapping) -> None:
    """Each change names a hand of the document, after it was entered (its bodies loaded by ``BackupSchema``);
    a change of the house rules names no hand and holds house rules before and after."""
    for index, change in enumerate(audit):
        field = f"audit[{index}]"
        if change["action"] in HOUSE_RULES_ACTIONS and change["number"] is None:
            _check_house_rules_change(change, ruleset, options, field)
            continue
        hand = hands.get(change["number"])
        if hand is None:
            raise InvalidRequest(f"{field} names hand {change['number']}, which the entries lack", f"{field}.number")
        if change["at"] < hand["created_at"]:
            raise InvalidRequest(f"{field} changes hand {change['number']} before it was entered", f"{field}.at")


def _check_house_rules_change(change: Mapping, ruleset: str, options: Mapping, field: str) -> None:
    """A change of the house rules holds house rules the evening could have had, before and after."""
    parsed = table_options(ruleset, options)
    for side in ("before", "after"):
        if change[side] is None:
            raise InvalidRequest(f"{field}.{side}: a change of the house rules has house rules {side}",
                                 f"{field}.{side}")
        try:
            check_house_rules(ruleset, change[side], parsed)
        except InvalidRequest as invalid:
            raise InvalidRequest(f"{field}.{side}: {invalid}", f"{field}.{side}") from None


def _check_times(document: Mapping) -> None:
    """Nothing happened before the session began or after the export, and no entry changed before it was made."""
    begun, exported = document["created_at"], document.get("exported_at")
    moments = [("exported_at", exported)] if exported is not None else []
    for index, entry in enumerate(document["entries"]):
        moments += [(f"entries[{index}].created_at", entry["created_at"]),
                    (f"entries[{index}].updated_at", entry["updated_at"])]
        if entry["updated_at"] < entry["created_at"]:
            raise InvalidRequest(f"entries[{index}] was updated before it was created", f"entries[{index}].updated_at")
    moments += [(f"audit[{index}].at", change["at"]) for index, change in enumerate(document["audit"])]
    for field, moment in moments:
        if moment < begun:
            raise InvalidRequest(f"{field} is before the session began ({begun.isoformat()})", field)
        if exported is not None and moment > exported:
            raise InvalidRequest(f"{field} is after the document was exported ({exported.isoformat()})", field)


def _check_replay(document: Mapping, state: dict, totals: dict) -> None:
    if state != document["state"]:
        raise InvalidRequest(f"the entries replay to the state {state}, not the document's {document['state']}",
                             "state")
    if totals != document["totals"]:
        raise InvalidRequest(f"the entries replay to the totals {totals}, not the document's "
                             f"{document['totals']}", "totals")


def _entry_row(session_id: str, position: int, entry: Mapping) -> EntryRow:
    return EntryRow(session_id=session_id, position=position, kind=entry["kind"], number=entry["number"],
                    body=entry["body"], void=entry["void"], result={}, client=entry["client"],
                    created_at=as_utc(entry["created_at"]), updated_at=as_utc(entry["updated_at"]))


def _audit_row(session_id: str, entry_id: int | None, audit: Mapping) -> AuditRow:
    return AuditRow(session_id=session_id, entry_id=entry_id, number=audit["number"], action=audit["action"],
                    who=audit["who"], at=as_utc(audit["at"]), before=audit["before"], after=audit["after"])
