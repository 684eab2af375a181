"""Backups (備份): export a session as one JSON document, import it back, back up every session.

- ``GET /api/sessions/<id>/export`` (the session's token): the document of
  ``api.backup_schemas``: players, stakes, options, every entry as entered
  (hands, seat changes, voids) and the audit trail of corrections.
- ``POST /api/sessions/import``: recreate a session from a document, with a
  new id and a new token (``201``, as ``POST /api/sessions``). The entries are
  replayed; a document that is malformed, whose entries the ledger refuses, or
  whose replay does not give its ``state`` and ``totals`` is a ``422`` and
  creates nothing. Documents may be up to ``MAX_IMPORT_BYTES`` (app config).
- ``flask --app api backup DIR``: write every session to ``DIR/<id>.json``
  (no token: whoever runs it owns the database).
"""
import datetime
import json
import os
from collections.abc import Mapping
from pathlib import Path

import click
from flask import current_app, request
from flask.views import MethodView
from sqlmodel import Session, select

from api import recording
from api.auth import SecuredBlueprint, new_session_id, new_token, token_hash
from api.backup_schemas import FORMAT, VERSION, BackupSchema
from api.db import begin_write, get_session
from api.errors import JsonErrorSchema
from api.session_schemas import HandBodySchema, SeatChangeSchema, SessionCreatedSchema
from ledger import store
from ledger.errors import InvalidRequest
from ledger.recorder import Event, Recorder
from ledger.store import HAND, AuditRow, EntryRow, SessionRow, utc_now

blp = SecuredBlueprint("backup", __name__, url_prefix="/api/sessions", cli_group=None,
                       description="Export a session as JSON, import it back, back up every session")

DEFAULT_MAX_IMPORT_BYTES = 16 * 1024 * 1024
BODY_SCHEMAS = {HAND: HandBodySchema(), store.SEAT: SeatChangeSchema()}
INVALID_DOCUMENT = ("Not a session document, an entry the ledger refuses, or a replay that does not give "
                    "the document's state and totals (the message says which)")


@blp.route("/<session_id>/export")
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
        session, token = import_document(get_session(), document)
        seat_changes = store.list_entries(get_session(), session.id, store.SEAT)
        return {**recording.session_view(session, seat_changes), "token": token}


@blp.before_request
def _allow_large_imports():
    """A document holds a whole evening: it may be larger than any other request."""
    if request.endpoint == f"{blp.name}.{Import.__name__}":
        request.max_content_length = current_app.config.get("MAX_IMPORT_BYTES", DEFAULT_MAX_IMPORT_BYTES)


@blp.cli.command("backup")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
def backup_command(directory):
    """Write every session to DIRECTORY/<session id>.json (created if missing)."""
    directory.mkdir(parents=True, exist_ok=True)
    db = get_session()
    count = 0
    for session_id in db.exec(select(SessionRow.id).order_by(SessionRow.created_at, SessionRow.id)):
        write_document(directory / f"{session_id}.json", export_document(store.load_session(db, session_id)))
        db.expunge_all()
        count += 1
    click.echo(f"Wrote {count} session{'' if count == 1 else 's'} to {directory}")


def write_document(path: Path, document: dict) -> None:
    """Write ``document`` as JSON to ``path`` atomically (a crash leaves the old file or the new one)."""
    text = json.dumps(BackupSchema().dump(document), ensure_ascii=False, indent=1)
    partial = path.with_name(f".{path.name}.partial")
    with open(partial, "w", encoding="utf-8") as file:
        file.write(text)
        file.flush()
        os.fsync(file.fileno())
    os.replace(partial, path)


# -- export ----------------------------------------------------------------------


def export_document(record: store.SessionRecord) -> dict:
    """The backup document of a stored session (``api.backup_schemas``), before serialisation."""
    session = record.session
    return {
        "format": FORMAT, "version": VERSION, "exported_at": utc_now(),
        "name": session.name, "ruleset": session.ruleset, "players": session.players,
        "stakes": session.stakes, "options": session.options, "house_rules": session.house_rules or {},
        "created_at": as_utc(session.created_at),
        "entries": [_exported_entry(entry) for entry in record.entries],
        "audit": [_exported_audit(audit) for audit in record.audits],
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


def import_document(db: Session, document: Mapping) -> tuple[SessionRow, str]:
    """Recreate the session of a validated document in one transaction; returns it and its new token.

    Raises ``InvalidRequest`` (422), creating nothing, when an entry is not
    valid, hand numbers are not 1, 2, 3, … in order, the audit names a hand
    the document lacks, or the replay does not give the document's state and totals.
    """
    entries = document["entries"]
    _check_entries(entries)
    _check_audit(document["audit"], {entry["number"] for entry in entries if entry["kind"] == HAND})
    session_id, token = new_session_id(), new_token()
    rows = [_entry_row(session_id, position, entry) for position, entry in enumerate(entries, start=1)]
    events = [Event(row.kind, row.body, row.void, row.number) for row in rows]
    recorder, results = Recorder.replay(document["ruleset"], document["players"], document["stakes"],
                                        document["options"], events, document["house_rules"])
    _check_replay(document, recorder.state.to_dict(), recorder.totals)
    for row, result in zip(rows, results):
        row.result = result
    session = SessionRow(id=session_id, name=document["name"], ruleset=document["ruleset"],
                         players=document["players"], stakes=document["stakes"], options=recorder.table.options,
                         house_rules=recorder.table.house_rules, token_hash=token_hash(token),
                         state=recorder.state.to_dict(), totals=recorder.totals,
                         entry_count=len(rows), hand_count=sum(row.kind == HAND for row in rows),
                         created_at=as_utc(document["created_at"]))
    begin_write(db)
    db.add(session)
    db.flush()  # the tables have no ORM relationships: insert parents first
    db.add_all(rows)
    db.flush()
    entry_ids = {row.number: row.id for row in rows if row.kind == HAND}
    db.add_all(_audit_row(session.id, entry_ids.get(audit["number"]), audit) for audit in document["audit"])
    db.commit()
    return session, token


def _check_entries(entries: list[dict]) -> None:
    """Every body has its request's shape, and hands are numbered 1, 2, 3, … in order."""
    next_number = 1
    for index, entry in enumerate(entries):
        field = f"entries[{index}]"
        problems = BODY_SCHEMAS[entry["kind"]].validate(entry["body"])
        if problems:
            raise InvalidRequest(f"{field}.body is not a valid {entry['kind']} request: {problems}", f"{field}.body")
        expected = next_number if entry["kind"] == HAND else None
        if entry["number"] != expected:
            rule = (f"must be {expected} (hands are numbered 1, 2, 3, … in order)" if expected
                    else "must be null (a seat change has no number)")
            raise InvalidRequest(f"{field}.number {rule}, not {entry['number']}", f"{field}.number")
        if entry["kind"] != HAND and entry["void"]:
            raise InvalidRequest(f"{field}: only a hand can be void", f"{field}.void")
        next_number += entry["kind"] == HAND


def _check_audit(audit: list[dict], numbers: set[int]) -> None:
    for index, change in enumerate(audit):
        if change["action"] == "house_rules" and change["number"] is None:
            continue  # a change of the evening's house rules: no hand
        if change["number"] not in numbers:
            raise InvalidRequest(f"audit[{index}] names hand {change['number']}, which the entries lack",
                                 f"audit[{index}].number")


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
