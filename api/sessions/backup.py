"""Backups (備份): export a session as one JSON document, import it back, back up every session.

The routes are API.md's; ``flask backup`` / ``taizhang backup`` writes every session (no token: whoever
runs it owns the database), with ``--keep N`` into a dated folder, deleting all but the N newest;
``flask import`` / ``taizhang import`` recreates sessions from files, each with a new id and links.
"""
import json
import os
import re
from datetime import datetime, timezone
from pathlib import Path

import click
from flask import current_app
from flask.views import MethodView
from marshmallow import ValidationError
from sqlmodel import Session

from api.http.auth import SecuredBlueprint
from api.http.db import get_db
from api.http.errors import JsonErrorSchema
from api.http.limits import allow_larger_bodies, limits
from api.sessions.documents import export_document, import_document
from api.sessions.schemas import BackupSchema, SessionCreatedSchema
from api.sessions.views import session_view
from ledger import store
from ledger.errors import LedgerError

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


#: A dated folder of ``backup --keep``: ``2026-12-01T03-00-00Z`` (sorts as it was written; no ``:`` for other systems).
DATED = re.compile(r"\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ")


@blp.cli.command("backup")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.option("--keep", type=click.IntRange(min=1), metavar="N",
              help="Write into a new dated folder of DIRECTORY and delete all but the N newest dated folders")
def backup_command(directory, keep):
    """Write every session to DIRECTORY/<session id>.json (created if missing).

    One that cannot be written is named on stderr and the others still written; the command then exits 1,
    and with ``--keep`` deletes no older folder."""
    top = directory
    if keep is not None:
        directory = top / datetime.now(timezone.utc).strftime("%Y-%m-%dT%H-%M-%SZ")
    directory.mkdir(parents=True, exist_ok=True)
    db = get_db()
    session_ids = store.session_ids(db)
    failed = [session_id for session_id in session_ids if not _backed_up(db, directory, session_id)]
    written = len(session_ids) - len(failed)
    click.echo(f"Wrote {written} session{'' if written == 1 else 's'} to {directory}")
    if failed:
        raise click.ClickException(f"{len(failed)} session{'' if len(failed) == 1 else 's'} could not be "
                                   f"written: {', '.join(failed)}")
    if keep is not None:
        for old in dated_folders(top)[:-keep]:
            for path in old.iterdir():
                path.unlink()
            old.rmdir()
            click.echo(f"Deleted the older backup {old}")


def dated_folders(directory: Path) -> list[Path]:
    """The dated folders ``backup --keep`` wrote in ``directory``, oldest first (other files are never touched)."""
    return sorted(path for path in directory.iterdir() if path.is_dir() and DATED.fullmatch(path.name))


@blp.cli.command("import")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
def import_command(paths):
    """Recreate the sessions of backup files (or a folder's *.json), each with a new id and links, printed with
    ``PUBLIC_URL`` when set: the old links do not open a new session. A refused file is named with why on
    stderr, the others still imported, and the command exits 1."""
    files = [file for path in paths for file in (sorted(path.glob("*.json")) if path.is_dir() else [path])]
    refused = [file for file in files if not _imported(file)]
    click.echo(f"Imported {len(files) - len(refused)} of {len(files)} file{'' if len(files) == 1 else 's'}")
    if refused:
        raise click.ClickException(f"{len(refused)} could not be imported: {', '.join(map(str, refused))}")


def _imported(file: Path) -> bool:
    """Import one file and print its new id and links; False (and why, on stderr) when refused."""
    db = get_db()
    try:
        document = BackupSchema().load(json.loads(file.read_bytes()))
        session, token, read_token = import_document(db, document, limits())
    except (OSError, ValueError, ValidationError, LedgerError) as error:
        db.rollback()
        reason = error.messages if isinstance(error, ValidationError) else error
        click.echo(f"{file}: not imported: {reason}", err=True)
        return False
    base = current_app.config.get("PUBLIC_URL")
    click.echo(f"{file}: {session.name!r} is now session {session.id}")
    if base:
        click.echo(f"  keep score: {base}/#s={session.id}&t={token}&r={read_token}")
        click.echo(f"  watch:      {base}/#s={session.id}&t={read_token}")
    else:
        click.echo(f"  token {token}  read-only token {read_token}")
    return True


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
