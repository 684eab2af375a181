"""Security (issue 7): hashed tokens compared in constant time, sessions closed to other sessions' tokens,
a body limit, no SQL built from strings, and no stack trace in any error response.

The session operations are read from the served OpenAPI document, so an endpoint added later is
covered without touching this file.
"""
import ast
import hashlib
import hmac
import io
import re
from pathlib import Path

import pytest
from sqlalchemy import MetaData, select, text

from api import MAX_BODY_BYTES
from api.http import auth, db
from tests.api.sessions.tables import Table, discard

ROOT = Path(__file__).resolve().parents[3]
SOURCE_PACKAGES = ("api", "ledger", "reports")
SESSION_PATH = "/api/sessions/{session_id}"
SQL_START = re.compile(r"^\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|DROP|ALTER|PRAGMA|BEGIN|WITH|TRUNCATE)\b")
SQL_CALLS = {"execute", "executemany", "executescript", "exec_driver_sql", "exec", "text"}
LEAKS = ("Traceback", 'File "', ".py", "sqlalchemy", "sqlite3", "psycopg", "OperationalError", "SELECT ", "INSERT ")

sqlite_only = pytest.mark.parametrize("database_kind", ["sqlite"], indirect=True)


def session_operations(client):
    """(method, path template) of every operation on one session, from the served OpenAPI document."""
    spec = client.get("/api/openapi.json").get_json()
    return sorted((method, path) for path, item in spec["paths"].items() if path.startswith(SESSION_PATH)
                  for method in item if method in ("get", "post", "put", "delete", "patch"))


def concrete(path: str, session_id: str) -> str:
    return path.replace("{session_id}", session_id).replace("{number}", "1")


def evening(client):
    """A session with one hand (Rook 3 台 on Sable's discard) whose players no other session has."""
    table = Table(client, players=["Quill", "Rook", "Sable", "Tamsin"])
    table.hands_ok(discard("Rook", "Sable", 3))
    return table


# -- tokens ------------------------------------------------------------------------------


def all_stored_text(app) -> str:
    """Every value of every row of every table, as text."""
    engine = db.get_engine(app)
    tables = MetaData()
    tables.reflect(engine)
    with engine.connect() as connection:
        return "\n".join(str(row) for table in tables.sorted_tables for row in connection.execute(select(table)))


def test_the_token_is_nowhere_in_the_database_only_its_sha256(app, client):
    table = evening(client)
    stored = all_stored_text(app)
    assert table.token not in stored
    assert hashlib.sha256(table.token.encode()).hexdigest() in stored
    assert table.id in stored


def test_tokens_are_compared_with_hmac_compare_digest(client, monkeypatch):
    table = evening(client)
    compared, compare_digest = [], hmac.compare_digest

    def spy(a, b):
        compared.append((a, b))
        return compare_digest(a, b)

    monkeypatch.setattr(auth.hmac, "compare_digest", spy)
    assert client.get(table.path, headers={"Authorization": "Bearer wrong"}).status_code == 403
    assert client.get(table.path, headers=table.headers()).status_code == 200
    expected = hashlib.sha256(table.token.encode()).hexdigest()
    read = hashlib.sha256(table.created["read_token"].encode()).hexdigest()
    wrong = hashlib.sha256(b"wrong").hexdigest()
    # a wrong token is compared with the write token's hash, then the read-only token's
    assert compared == [(wrong, expected), (wrong, read), (expected, expected)]


def test_the_token_check_compares_nothing_else_with_equality():
    """No ``==``/``!=`` in api/http/auth.py touches a token or its hash: compare_digest does it all."""
    tree = ast.parse((ROOT / "api" / "http" / "auth.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and any(isinstance(op, (ast.Eq, ast.NotEq)) for op in node.ops):
            names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
            names |= {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)}
            assert not any("token" in name or "hash" in name for name in names), ast.unparse(node)


def test_every_session_operation_refuses_another_sessions_token_and_shows_nothing(app, client):
    table, other = evening(client), Table(client)
    operations = session_operations(client)
    assert ("get", f"{SESSION_PATH}/export") in operations
    before = all_stored_text(app)
    for method, path in operations:
        response = client.open(concrete(path, table.id), method=method.upper(), headers=other.headers(),
                               json={"winners": [{"player": "Rook", "tai": 1}], "by": "self_draw"})
        assert response.status_code == 403, (method, path)
        body = response.get_data(as_text=True)
        assert set(response.get_json()) == {"code", "status", "message"}, (method, path)
        assert not any(name in body for name in ("Quill", "Rook", "Sable", "Tamsin")), (method, path)
    assert all_stored_text(app) == before


def test_every_session_operation_without_a_token_is_401_and_changes_nothing(app, client):
    table = evening(client)
    before = all_stored_text(app)
    for method, path in session_operations(client):
        response = client.open(concrete(path, table.id), method=method.upper(), json={"seat": 0, "player": "X"})
        assert response.status_code == 401, (method, path)
        assert response.headers["WWW-Authenticate"].startswith("Bearer"), (method, path)
    assert all_stored_text(app) == before


# -- the body limit ------------------------------------------------------------------------


@sqlite_only
def test_every_body_over_the_limit_is_413_and_changes_nothing(app, client):
    table = evening(client)
    oversized = '{"name": "' + "x" * MAX_BODY_BYTES + '"}'
    before = all_stored_text(app)
    targets = [("POST", "/api/score"), ("POST", "/api/sessions"), ("POST", f"{table.path}/hands"),
               ("PUT", f"{table.path}/hands/1"), ("POST", f"{table.path}/seats")]
    for method, path in targets:
        response = client.open(path, method=method, data=oversized, content_type="application/json",
                               headers=table.headers())
        assert response.status_code == 413, (method, path)
        assert response.get_json()["message"] == f"Request body too large: at most {MAX_BODY_BYTES} bytes are accepted."
    assert all_stored_text(app) == before


@sqlite_only
@pytest.mark.parametrize(("size", "status"), [(MAX_BODY_BYTES, 422), (MAX_BODY_BYTES + 1, 413),
                                              (MAX_BODY_BYTES + 50_000, 413)])
def test_a_chunked_body_is_held_to_the_same_limit(client, size, status):
    """Without a Content-Length werkzeug would cut the body at the limit and parse what it got."""
    body = b'{"name": "' + b"x" * (size - 12) + b'"}'
    assert len(body) == size
    response = client.post("/api/score", input_stream=io.BytesIO(body), content_type="application/json",
                           headers={"Transfer-Encoding": "chunked"}, environ_overrides={"wsgi.input_terminated": True})
    assert response.status_code == status
    if status == 422:
        assert response.get_json()["errors"]["json"]["name"] == ["Unknown field."]  # all of it was read


# -- SQL -----------------------------------------------------------------------------------


def formatted_sql(source: str) -> list[str]:
    """Every place in ``source`` that builds SQL with an f-string, ``%``, ``+`` or ``.format``,
    or passes anything but a plain string or a query object to an execute-like call."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if _formats_sql(node):
            found.append(ast.unparse(node))
        elif isinstance(node, ast.Call) and _call_name(node) in SQL_CALLS and node.args:
            if isinstance(node.args[0], (ast.JoinedStr, ast.BinOp)) or _is_format_call(node.args[0]):
                found.append(ast.unparse(node))
    return found


def _formats_sql(node) -> bool:
    if isinstance(node, ast.JoinedStr):
        literal = "".join(part.value for part in node.values if isinstance(part, ast.Constant))
        return bool(SQL_START.match(literal))
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mod, ast.Add)):
        return any(_is_sql_literal(side) for side in (node.left, node.right))
    return _is_format_call(node) and _is_sql_literal(node.func.value)


def _is_format_call(node) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format"


def _is_sql_literal(node) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and bool(SQL_START.match(node.value))


def _call_name(node: ast.Call) -> str:
    return node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")


@pytest.mark.parametrize("snippet", [
    'cursor.execute(f"SELECT * FROM sessions WHERE id = {session_id}")',
    'db.execute(text("SELECT * FROM entries WHERE number = %s" % number))',
    'query = "DELETE FROM entries WHERE id = " + entry_id',
    'connection.exec_driver_sql("PRAGMA busy_timeout = {}".format(ms))',
    'statement = f"PRAGMA foreign_keys = {flag}"',
    'session.execute(prefix + where)',
])
def test_the_sql_check_finds_formatted_sql(snippet):
    assert formatted_sql(snippet) != []


@pytest.mark.parametrize("snippet", [
    'db.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": key})',
    'db.exec(select(SessionRow).where(SessionRow.id == session_id))',
    'message = f"Select a seat for {name}"',
])
def test_the_sql_check_lets_bound_parameters_and_query_objects_pass(snippet):
    assert formatted_sql(snippet) == []


def test_no_sql_is_built_by_string_formatting_in_the_packages():
    sources = [path for package in SOURCE_PACKAGES for path in sorted((ROOT / package).rglob("*.py"))]
    assert len(sources) > 20
    found = {str(path.relative_to(ROOT)): formatted_sql(path.read_text(encoding="utf-8")) for path in sources}
    assert {path: places for path, places in found.items() if places} == {}


# -- error responses -------------------------------------------------------------------------


def assert_no_leak(response):
    body = response.get_data(as_text=True)
    assert response.is_json, body
    assert set(response.get_json()) <= {"code", "status", "message", "errors", "field"}, body
    for leak in LEAKS:
        assert leak not in body, (leak, body)


def test_error_responses_of_every_kind_carry_no_stack_trace(make_app):
    client = make_app(TESTING=False).test_client()
    table = evening(client)
    responses = {
        400: client.post("/api/score", data="{", content_type="application/json"),
        401: client.get(table.path),
        403: client.get(table.path, headers={"Authorization": "Bearer nope"}),
        404: client.get("/api/sessions/nope", headers=table.headers()),
        405: client.patch("/api/score"),
        413: client.post("/api/score", data="x" * (MAX_BODY_BYTES + 1), content_type="application/json"),
        422: client.post("/api/score", json={"ruleset": "taiwan", "hand": {"concealed": "1m1m1m1m1m"}}),
    }
    for status, response in responses.items():
        assert response.status_code == status
        assert_no_leak(response)


def test_a_database_failure_is_a_bare_500_outside_debug_mode(make_app, own_database_url):
    app = make_app(TESTING=False, DATABASE_URL=own_database_url)
    client = app.test_client()
    table = evening(client)
    with db.get_engine(app).begin() as connection:
        connection.execute(text("DROP TABLE audits"))
        connection.execute(text("DROP TABLE changes"))
        connection.execute(text("DROP TABLE entries"))
    response = client.post(f"{table.path}/hands", json=discard("Rook", "Sable", 1), headers=table.headers())
    assert response.status_code == 500
    assert_no_leak(response)
    assert response.get_json()["message"].startswith("The server encountered an internal error")
