"""Backups (備份): export a session as one JSON document, import it back, back up every session.

- ``GET /api/sessions/<id>/export`` (the session's token): the document of
  ``api.backup_schemas``: players, stakes, options, every entry as entered
  (hands, seat changes, voids) and the audit trail of corrections.
- ``POST /api/sessions/import``: recreate a session from a document, with a
  new id and a new token (``201``, as ``POST /api/sessions``). The entries are
  replayed; a document that is malformed, whose entries the ledger refuses, or
  whose replay does not give its ``state`` and ``totals`` is a ``422`` and
  creates nothing. Documents may be up to ``MAX_IMPORT_BYTES`` (413 above) and
  are held to the limits of ``api.config`` before anything is replayed: at most
  ``MAX_HANDS`` hands (and as many seat changes), names as for a session,
  ``MAX_PARTICIPANTS``. What cannot have happened is refused: a moment
  before 2000, after now or after the export, before the session began, a
  change before its hand was entered, an audit whose bodies are no hands.
- ``flask --app api backup DIR``: write every session to ``DIR/<id>.json``
  (no token: whoever runs it owns the database).
"""
import datetime
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

import click
import marshmallow as ma
from flask import request
from flask.views import MethodView
from sqlmodel import Session, select

from api import recording
from api.auth import SecuredBlueprint, new_session_id, new_token, token_hash
from api.backup_schemas import FORMAT, VERSION, BackupSchema
from api.config import limit
from api.db import begin_write, get_session
from api.errors import JsonErrorSchema
from api.session_schemas import HandBodySchema, SeatChangeSchema, SessionCreatedSchema
from ledger import store
from ledger.errors import InvalidRequest
from ledger.profile import check_house_rules
from ledger.recorder import Event, Recorder
from ledger.store import HAND, AuditRow, EntryRow, SessionRow, utc_now
from ledger.table import table_options

blp = SecuredBlueprint("backup", __name__, url_prefix="/api/sessions", cli_group=None,
                       description="Export a session as JSON, import it back, back up every session")

BODY_SCHEMAS = {HAND: HandBodySchema(), store.SEAT: SeatChangeSchema()}
INVALID_DOCUMENT = ("Not a session document, an entry the ledger refuses, or a replay that does not give "
                    "the document's state and totals (the message says which)")


@blp.route("/<session_id:session_id>/export")
class Export(MethodView):
    @blp.secured
    @blp.response(200, BackupSchema)
    def get(self, session_id):
        """The whole session as one document: players, stakes, options, every entry as entered, the audit."""
        return export_document(store.load_session(get_session(), session_id))


@blp.route("/import")
class Import(MethodView):
    @blp.arguments(BackupSchema())
    @blp.response(201, SessionCreatedSchema)
    @blp.alt_response(422, schema=JsonErrorSchema, description=INVALID_DOCUMENT)
    def post(self, document):
        """Recreate an exported session, with a new id and token, identical entries, state and totals."""
        session, token, read_token = import_document(get_session(), document)
        seat_changes = store.list_entries(get_session(), session.id, store.SEAT)
        return {**recording.session_view(session, seat_changes), "token": token, "read_token": read_token}


@blp.before_request
def _allow_large_imports():
    """A document holds a whole evening: it may be larger than any other request."""
    if request.endpoint == f"{blp.name}.{Import.__name__}":
        request.max_content_length = limit("MAX_IMPORT_BYTES")


@blp.cli.command("backup")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
def backup_command(directory):
    """Write every session to DIRECTORY/<session id>.json (created if missing).

    Each session is written on its own: one that cannot be written is named
    (on stderr) and the others are still written; the command then exits
    with status 1, naming how many failed.
    """
    directory.mkdir(parents=True, exist_ok=True)
    db = get_session()
    session_ids = list(db.exec(select(SessionRow.id).order_by(SessionRow.created_at, SessionRow.id)))
    failed = [session_id for session_id in session_ids if not _backed_up(db, directory, session_id)]
    written = len(session_ids) - len(failed)
    click.echo(f"Wrote {written} session{'' if written == 1 else 's'} to {directory}")
    if failed:
        raise click.ClickException(f"{len(failed)} session{'' if len(failed) == 1 else 's'} could not be "
                                   f"written: {', '.join(failed)}")


def _backed_up(db: Session, directory: Path, session_id: str) -> bool:
    """Write one session's document; False (and why, on stderr) when it cannot be written."""
    try:
        write_document(directory / f"{session_id}.json", export_document(store.load_session(db, session_id)))
    except Exception as error:  # noqa: BLE001 - any failure of one session must not stop the others
        db.rollback()
        click.echo(f"Session {session_id}: not written: {type(error).__name__}: {error}", err=True)
        return False
    finally:
        db.expunge_all()
    return True


def write_document(path: Path, document: dict) -> None:
    """Write ``document`` as JSON to ``path`` atomically (a crash leaves the old file or the new one)."""
    data = json.dumps(BackupSchema().dump(document), ensure_ascii=False, indent=1).encode("utf-8")
    partial = path.with_name(f".{path.name}.partial")
    try:
        with open(partial, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)


# -- export ----------------------------------------------------------------------


#: Audit actions about the evening being open, which an import (always open) does not carry.
EVENING_ACTIONS = ("close", "reopen")


def export_document(record: store.SessionRecord) -> dict:
    """The backup document of a stored session (``api.backup_schemas``), before serialisation."""
    session = record.session
    return {
        "format": FORMAT, "version": VERSION, "exported_at": utc_now(),
        "name": session.name, "ruleset": session.ruleset, "players": session.players,
        "stakes": session.stakes, "options": session.options, "house_rules": session.house_rules or {},
        "created_at": as_utc(session.created_at),
        "entries": [_exported_entry(entry) for entry in record.entries],
        # The hands' and the house rules' audit: an import recreates an open evening, so closing and
        # reopening are not carried.
        "audit": [_exported_audit(audit) for audit in record.audits if audit.action not in EVENING_ACTIONS],
        "state": session.state, "totals": session.totals,
    }


def as_utc(moment: datetime.datetime) -> datetime.datetime:
    """A stored timestamp in UTC; SQLite hands back naive datetimes, which are UTC."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=datetime.timezone.utc)
    return moment.astimezone(datetime.timezone.utc)


def _exported_entry(entry: EntryRow) -> dict:
    return {"kind": entry.kind, "number": entry.number, "body": entry.body, "void": entry.void,
            "client": entry.client, "created_at": as_utc(entry.created_at),
            "updated_at": as_utc(entry.updated_at)}


def _exported_audit(audit: AuditRow) -> dict:
    return {"number": audit.number, "action": audit.action, "who": audit.who, "at": as_utc(audit.at),
            "before": audit.before, "after": audit.after}


# -- import ----------------------------------------------------------------------


def import_document(db: Session, document: Mapping) -> tuple[SessionRow, str, str]:
    """Recreate the session of a validated document in one transaction; returns it and its new tokens.

    Raises ``InvalidRequest`` (422), creating nothing, when an entry is not
    valid, hand numbers are not 1, 2, 3, … in order, the audit names a hand
    the document lacks, or the replay does not give the document's state and totals.
    """
    prepared = prepare_import(document)
    begin_write(db)
    add_import(db, prepared)
    db.commit()
    return prepared.session, prepared.token, prepared.read_token


class PreparedImport(NamedTuple):
    """A document checked and replayed, ready to be written: the new session, its entries, audit and tokens."""

    session: SessionRow
    rows: list[EntryRow]
    audit: list[dict]
    token: str
    read_token: str


def prepare_import(document: Mapping) -> PreparedImport:
    """Check and replay a document (``InvalidRequest`` if it is refused) before any transaction begins."""
    entries = document["entries"]
    _check_sizes(entries)
    _check_entries(entries)
    _check_audit(document["audit"], {entry["number"]: entry for entry in entries if entry["kind"] == HAND},
                 document["ruleset"], document["options"])
    _check_times(document)
    session_id, token, read_token = new_session_id(), new_token(), new_token()
    rows = [_entry_row(session_id, position, entry) for position, entry in enumerate(entries, start=1)]
    events = [Event(row.kind, row.body, row.void, row.number) for row in rows]
    recorder, results = Recorder.replay(document["ruleset"], document["players"], document["stakes"],
                                        document["options"], events, document["house_rules"],
                                        max_participants=limit("MAX_PARTICIPANTS"))
    _check_replay(document, recorder.state.to_dict(), recorder.totals)
    for row, result in zip(rows, results):
        row.result = result
    session = SessionRow(id=session_id, name=document["name"], ruleset=document["ruleset"],
                         players=document["players"], stakes=document["stakes"], options=recorder.table.options,
                         house_rules=recorder.table.house_rules, token_hash=token_hash(token),
                         read_token_hash=token_hash(read_token),
                         state=recorder.state.to_dict(), totals=recorder.totals,
                         entry_count=len(rows), hand_count=sum(row.kind == HAND for row in rows),
                         created_at=as_utc(document["created_at"]))
    return PreparedImport(session, rows, document["audit"], token, read_token)


def add_import(db: Session, prepared: PreparedImport) -> None:
    """Write a prepared import in the caller's write transaction (not committed: a group import adds many)."""
    db.add(prepared.session)
    db.flush()  # the tables have no ORM relationships: insert parents first
    db.add_all(prepared.rows)
    db.flush()
    entry_ids = {row.number: row.id for row in prepared.rows if row.kind == HAND}
    db.add_all(_audit_row(prepared.session.id, entry_ids.get(audit["number"]), audit) for audit in prepared.audit)


def _check_sizes(entries: list[dict]) -> None:
    """At most ``MAX_HANDS`` hands and as many seat changes: checked before any of them is replayed."""
    maximum = limit("MAX_HANDS")
    for kind, what in ((HAND, "hands"), (store.SEAT, "seat changes")):
        count = sum(entry["kind"] == kind for entry in entries)
        if count > maximum:
            raise InvalidRequest(f"a session holds at most {maximum} {what}; this document has {count}", "entries")


def _check_entries(entries: list[dict]) -> None:
    """Every body has its request's shape (its names normalised), and hands are numbered 1, 2, 3, … in order."""
    next_number = 1
    for index, entry in enumerate(entries):
        field = f"entries[{index}]"
        _check_body(entry["kind"], entry["body"], f"{field}.body")
        expected = next_number if entry["kind"] == HAND else None
        if entry["number"] != expected:
            rule = (f"must be {expected} (hands are numbered 1, 2, 3, … in order)" if expected
                    else "must be null (a seat change has no number)")
            raise InvalidRequest(f"{field}.number {rule}, not {entry['number']}", f"{field}.number")
        if entry["kind"] != HAND and entry["void"]:
            raise InvalidRequest(f"{field}: only a hand can be void", f"{field}.void")
        next_number += entry["kind"] == HAND


def _check_body(kind: str, body: dict, field: str) -> None:
    """``body`` has the shape of a ``kind`` request; loading it normalises its names in place, as a request's."""
    try:
        BODY_SCHEMAS[kind].load(body)
    except ma.ValidationError as invalid:
        raise InvalidRequest(f"{field} is not a valid {kind} request: {invalid.messages}", field) from None


def _check_audit(audit: list[dict], hands: dict[int, dict], ruleset: str, options: Mapping) -> None:
    """Each change names a hand of the document, after it was entered, with hand bodies before and after;
    a change of the house rules names no hand and holds house rules before and after."""
    for index, change in enumerate(audit):
        field = f"audit[{index}]"
        if change["action"] == "house_rules" and change["number"] is None:
            _check_house_rules_change(change, ruleset, options, field)
            continue
        hand = hands.get(change["number"])
        if hand is None:
            raise InvalidRequest(f"{field} names hand {change['number']}, which the entries lack", f"{field}.number")
        if change["at"] < hand["created_at"]:
            raise InvalidRequest(f"{field} changes hand {change['number']} before it was entered", f"{field}.at")
        _check_body(HAND, change["before"], f"{field}.before")
        if change["after"] is not None:
            _check_body(HAND, change["after"], f"{field}.after")


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
    """Nothing happened before the session began or after the export, and no entry changed before it was made.

    (``Timestamp`` has refused moments before 2000 or after now already.)
    """
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
