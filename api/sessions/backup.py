"""Backups (備份): export a session as one JSON document, import it back, back up every session.

- ``GET /api/sessions/<id>/export`` (the session's token): the document of
  ``api.sessions.schemas.BackupSchema`` (``api.sessions.documents``).
- ``POST /api/sessions/import``: recreate a session from a document, with a
  new id and a new token (``201``, as ``POST /api/sessions``). Documents may
  be up to ``MAX_IMPORT_BYTES`` (413 above); what is refused, and why,
  ``api.sessions.documents`` says.
- ``flask --app api backup DIR``: write every session to ``DIR/<id>.json``
  (no token: whoever runs it owns the database).
"""
import json
import os
from pathlib import Path

import click
from flask.views import MethodView
from sqlmodel import Session

from api.http.auth import SecuredBlueprint
from api.http.db import get_db
from api.http.errors import JsonErrorSchema
from api.http.limits import allow_larger_bodies, limits
from api.sessions.documents import export_document, import_document
from api.sessions.schemas import BackupSchema, SessionCreatedSchema
from api.sessions.views import session_view
from ledger import store

blp = SecuredBlueprint("backup", __name__, url_prefix="/api/sessions", cli_group=None,
                       description="Export a session as JSON, import it back, back up every session")

INVALID_DOCUMENT = ("Not a session document, an entry the ledger refuses, or a replay that does not give "
                    "the document's state and totals (the message says which)")


@blp.route("/<session_id:session_id>/export")
class Export(MethodView):
    @blp.secured
    @blp.response(200, BackupSchema)
    def get(self, session_id):
        """The whole session as one document: players, stakes, options, every entry as entered, the audit."""
        return export_document(store.load_session(get_db(), session_id))


@blp.route("/import")
class Import(MethodView):
    @blp.arguments(BackupSchema())
    @blp.response(201, SessionCreatedSchema)
    @blp.alt_response(422, schema=JsonErrorSchema, description=INVALID_DOCUMENT)
    def post(self, document):
        """Recreate an exported session, with a new id and token, identical entries, state and totals."""
        db = get_db()
        session, token, read_token = import_document(db, document, limits())
        return {**session_view(session, store.list_side_entries(db, session)), "token": token,
                "read_token": read_token}


# A document holds a whole evening: it may be larger than any other request.
allow_larger_bodies(blp, {Import: "MAX_IMPORT_BYTES"})


@blp.cli.command("backup")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
def backup_command(directory):
    """Write every session to DIRECTORY/<session id>.json (created if missing).

    Each session is written on its own: one that cannot be written is named
    (on stderr) and the others are still written; the command then exits
    with status 1, naming how many failed.
    """
    directory.mkdir(parents=True, exist_ok=True)
    db = get_db()
    session_ids = store.session_ids(db)
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
