"""The app skeleton: health, OpenAPI and docs, JSON errors, database set-up and migrations."""
import concurrent.futures
import json
import multiprocessing
import re
import sqlite3
import threading

import marshmallow as ma
import pytest
from flask import Flask
from flask_smorest import Blueprint
from openapi_spec_validator import validate
from sqlalchemy import event, inspect, text
from sqlmodel import select

from api import create_app, default_database_url
from api.http import db
from ledger import store
from ledger.errors import InvalidHand

sqlite_only = pytest.mark.parametrize("database_kind", ["sqlite"], indirect=True)
EVENING = {"name": "Friday", "ruleset": "taiwan", "players": ["Amy", "Ben", "Cat", "Dan"],
           "stakes": {"base": 100, "per_tai": 20}}


class NameSchema(ma.Schema):
    name = ma.fields.String(required=True)


def probe_blueprint():
    """Routes that exist only in these tests, to provoke each kind of error."""
    blp = Blueprint("probe", __name__, url_prefix="/api/probe")

    @blp.route("/echo", methods=["POST"])
    @blp.arguments(NameSchema)
    @blp.response(200, NameSchema)
    def echo(body):
        return body

    @blp.route("/ledger-error")
    def ledger_error():
        raise InvalidHand("A fifth 5m: only four copies exist.", field="hand.concealed")

    @blp.route("/crash")
    def crash():
        raise RuntimeError("secret detail")

    return blp


@pytest.fixture
def probe(make_app):
    app = make_app(PROPAGATE_EXCEPTIONS=False)
    app.extensions["flask-smorest"]["apis"][""]["ext_obj"].register_blueprint(probe_blueprint())
    return app.test_client()


def test_health_is_ok(client):
    response = client.get("/api/health")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok"}


def test_health_is_503_when_the_database_is_unreachable(app, tmp_path):
    app.extensions[db.ENGINE_KEY] = db.make_engine(f"sqlite:///{tmp_path}/missing/dir/x.sqlite")
    response = app.test_client().get("/api/health")
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "5"  # DATABASE_RETRY_AFTER's default: when to ask again (issue 27)
    assert response.get_json()["message"] == ("The database is unavailable for the moment; nothing was changed. "
                                              "Try again in 5 s.")


@sqlite_only
def test_openapi_document_is_valid_openapi_3(client):
    response = client.get("/api/openapi.json")
    assert response.status_code == 200
    spec = response.get_json()
    validate(spec)
    assert spec["openapi"].startswith("3.")
    assert spec["info"] == {"title": "Taizhang", "version": "1"}
    assert "200" in spec["paths"]["/api/health"]["get"]["responses"]


@sqlite_only
def test_the_openapi_document_is_written_whole_once_when_threads_first_read_it_together(make_app):
    app = make_app()  # a new app: its document not yet written
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        bodies = list(pool.map(lambda _: app.test_client().get("/api/openapi.json").data, range(4)))
    assert len(set(bodies)) == 1
    spec = json.loads(bodies[0])
    tags = [tag["name"] for tag in spec["tags"]]
    assert len(tags) == len(set(tags)) and {"sessions", "groups", "competitions"} <= set(tags)
    assert "/api/sessions/{session_id}/hands" in spec["paths"]


@sqlite_only
def test_docs_page_loads_its_assets_from_this_server(client):
    response = client.get("/api/docs")
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    assets = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert {asset.rsplit("/", 1)[-1] for asset in assets} == {
        "swagger-ui.css", "swagger-ui-bundle.js", "swagger-ui-standalone-preset.js"}
    for asset in assets:
        assert asset.startswith("/api/docs/assets/")
        fetched = client.get(asset)
        assert fetched.status_code == 200, asset
        assert len(fetched.data) > 10_000, asset
    assert '"validatorUrl": null' in page


@sqlite_only
def test_unknown_url_is_404_json(client):
    response = client.get("/api/no-such-thing")
    assert response.status_code == 404
    assert response.is_json
    assert "not found" in response.get_json()["message"].lower()


@sqlite_only
def test_wrong_method_is_405_json_with_allow_header(client):
    response = client.delete("/api/health")
    assert response.status_code == 405
    assert "not allowed" in response.get_json()["message"].lower()
    assert "GET" in response.headers["Allow"]


@sqlite_only
def test_malformed_json_is_400(probe):
    response = probe.post("/api/probe/echo", data='{"name": "Amy"', content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["message"] == "Malformed request: Invalid JSON body."


@sqlite_only
def test_invalid_fields_are_422_naming_each_field(probe):
    response = probe.post("/api/probe/echo", json={"name": 7, "age": 3})
    assert response.status_code == 422
    body = response.get_json()
    assert body["message"] == "Invalid request: name: Not a valid string.; age: Unknown field."
    assert body["errors"] == {"json": {"name": ["Not a valid string."], "age": ["Unknown field."]}}


@sqlite_only
def test_valid_body_passes_through(probe):
    response = probe.post("/api/probe/echo", json={"name": "Amy"})
    assert response.status_code == 200
    assert response.get_json() == {"name": "Amy"}


@sqlite_only
def test_oversized_body_is_413_json(probe):
    response = probe.post("/api/probe/echo", json={"name": "x" * (300 * 1024)})
    assert response.status_code == 413
    assert response.get_json()["message"] == "Request body too large: at most 262144 bytes are accepted."


@sqlite_only
def test_ledger_error_is_422_with_message_and_field(probe):
    response = probe.get("/api/probe/ledger-error")
    assert response.status_code == 422
    body = response.get_json()
    assert body["message"] == "A fifth 5m: only four copies exist."
    assert body["field"] == "hand.concealed"


@sqlite_only
def test_unhandled_exception_is_500_json_without_details(probe):
    response = probe.get("/api/probe/crash")
    assert response.status_code == 500
    assert response.is_json
    text_body = response.get_data(as_text=True)
    assert "internal error" in response.get_json()["message"].lower()
    assert "secret detail" not in text_body
    assert "Traceback" not in text_body


@sqlite_only
def test_sqlite_connections_use_wal_foreign_keys_and_busy_timeout(app):
    with app.app_context():
        session = db.get_db()
        assert session.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert session.execute(text("PRAGMA foreign_keys")).scalar() == 1
        assert session.execute(text("PRAGMA busy_timeout")).scalar() == db.BUSY_TIMEOUT_MS


@sqlite_only
def test_sqlite_write_transactions_take_the_write_lock_at_begin_and_reads_do_not(app, database_url):
    engine = db.get_engine(app)
    other = sqlite3.connect(database_url.removeprefix("sqlite:///"), timeout=0, isolation_level=None)
    with engine.execution_options(**{db.WRITE: True}).connect() as connection:
        connection.execute(text("SELECT 1"))  # a read-only statement, in a transaction begun as a write
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            other.execute("BEGIN IMMEDIATE")
    with engine.connect() as connection:
        connection.execute(text("SELECT 1"))  # a read: another connection may still begin a write
        other.execute("BEGIN IMMEDIATE")
        other.execute("ROLLBACK")
    other.close()


@sqlite_only
def test_sqlite_concurrent_read_then_write_transactions_all_succeed(app):
    engine = db.get_engine(app)
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE counter (value INTEGER NOT NULL)"))
        connection.execute(text("INSERT INTO counter VALUES (0)"))
    errors = []

    def add_one_repeatedly():
        try:
            for _ in range(25):
                with engine.execution_options(**{db.WRITE: True}).begin() as connection:
                    value = connection.execute(text("SELECT value FROM counter")).scalar()
                    connection.execute(text("UPDATE counter SET value = :v"), {"v": value + 1})
        except Exception as error:  # collected and asserted on below
            errors.append(error)

    threads = [threading.Thread(target=add_one_repeatedly) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    with engine.connect() as connection:
        assert connection.execute(text("SELECT value FROM counter")).scalar() == 8 * 25


def test_request_session_is_reused_then_closed_at_teardown(app):
    pool = db.get_engine(app).pool
    with app.app_context():
        session = db.get_db()
        assert db.get_db() is session
        session.execute(text("SELECT 1"))
        assert pool.checkedout() == 1
    assert pool.checkedout() == 0


def test_pooled_connections_given_back_are_kept_up_to_the_pool_size(app):
    pool = db.get_engine(app).pool
    connections = [db.get_engine(app).connect() for _ in range(db.POOL_SIZE)]
    for connection in connections:
        connection.execute(text("SELECT 1"))
        connection.close()
    assert (pool.checkedout(), pool.checkedin()) == (0, db.POOL_SIZE)  # none closed, as overflow would be


def test_the_pool_size_is_a_setting(make_app):
    assert db.get_engine(make_app(DATABASE_POOL_SIZE=3)).pool.size() == 3


def test_a_change_outside_begin_write_is_refused_and_nothing_is_written(app):
    audit = {"session_id": "0" * 40, "action": "probe", "who": "test"}
    with app.app_context():
        session = db.get_db()
        session.add(store.AuditRow(**audit))
        with pytest.raises(RuntimeError, match="outside begin_write"):
            session.flush()
        session.rollback()
        assert session.exec(select(store.AuditRow).where(store.AuditRow.action == "probe")).all() == []


@pytest.mark.parametrize("database_kind", ["postgresql"], indirect=True)
def test_postgresql_reads_run_without_a_transaction_and_changes_in_one(app):
    """A GET's one statement runs in autocommit (no BEGIN, no ROLLBACK); a change's statements in a transaction."""
    seen = []

    def note(connection, _cursor, statement, _parameters, _context, _executemany):
        seen.append((statement.split()[0], connection.connection.driver_connection.autocommit))

    event.listen(db.get_engine(app), "before_cursor_execute", note)
    client = app.test_client()
    created = client.post("/api/sessions", json=EVENING).get_json()
    written, seen[:] = list(seen), []
    assert client.get(f"/api/sessions/{created['id']}",
                      headers={"Authorization": f"Bearer {created['token']}"}).status_code == 200
    assert "INSERT" in {verb for verb, _ in written}
    assert {autocommit for _, autocommit in written} == {False}
    assert seen == [("SELECT", True)]


def test_start_migrates_an_empty_database_and_restarts_cleanly(make_app, empty_database_url):
    app = make_app(DATABASE_URL=empty_database_url)
    assert inspect(db.get_engine(app)).has_table("alembic_version")
    assert make_app(DATABASE_URL=empty_database_url).test_client().get("/api/health").status_code == 200


def test_concurrent_upgrades_of_a_fresh_database_all_succeed(empty_database_url):
    with multiprocessing.get_context("spawn").Pool(4) as pool:
        pool.map(db.upgrade_database, [empty_database_url] * 4)
    engine = db.make_engine(empty_database_url)
    try:
        assert inspect(engine).has_table("alembic_version")
    finally:
        engine.dispose()


def test_database_url_comes_from_the_environment_without_test_config(monkeypatch, tmp_path):
    url = f"sqlite:///{tmp_path / 'from-env.sqlite'}"
    monkeypatch.setenv("DATABASE_URL", url)
    app = create_app({"TESTING": True})
    try:
        assert app.config["DATABASE_URL"] == url
        assert (tmp_path / "from-env.sqlite").exists()
    finally:
        db.dispose(app)


def test_default_database_is_a_sqlite_file_in_the_instance_folder(tmp_path):
    flask_app = Flask("probe", instance_path=str(tmp_path / "instance"))
    assert default_database_url(flask_app) == f"sqlite:///{tmp_path}/instance/taizhang.sqlite"
    assert (tmp_path / "instance").is_dir()

