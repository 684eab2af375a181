"""The production server's own answers to abuse (issue 7): 413 for an oversized body, however it is sent,
and errors as bare JSON (no stack trace, no SQL) even when the database itself fails.

gunicorn serves the app without ``TESTING`` or ``DEBUG``, as a club would run it.
"""
import http.client
import json

import pytest
from sqlalchemy import text

from api import MAX_BODY_BYTES
from api.http.db import make_engine
from tests.api.sessions.tables import PLAYERS, discard
from tests.api.sessions.test_backup import draws_document
from tests.system.evening import create_table
from tests.system.server import ProductionServer

LEAKS = ("Traceback", 'File "', ".py", "sqlalchemy", "sqlite3", "psycopg", "entries", "SELECT", "INSERT")
TOO_LARGE = f"Request body too large: at most {MAX_BODY_BYTES} bytes are accepted."


@pytest.fixture(scope="module")
def server(module_database_url, tmp_path_factory):
    """One server per kind of database for this module's four tests of 413s (tests/conftest.py,
    ``module_database_url``)."""
    running = ProductionServer(module_database_url, tmp_path_factory.mktemp("limits") / "gunicorn.log",
                               workers=1).start()
    yield running
    running.stop()


def raw_post(server, path: str, body, headers: dict) -> tuple[int, str]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        connection.request("POST", path, body=body, headers={"Content-Type": "application/json", **headers},
                           encode_chunked=not isinstance(body, bytes))
        response = connection.getresponse()
        return response.status, response.read().decode()
    finally:
        connection.close()


def chunks(total: int, size: int = 16 * 1024):
    yield b'{"name": "'
    for _ in range(total // size):
        yield b"x" * size
    yield b'"}'


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
def test_an_oversized_body_is_413_and_records_nothing(server, chunked):
    table = create_table(server, "taiwan")
    body = chunks(MAX_BODY_BYTES + 1024) if chunked else b"".join(chunks(MAX_BODY_BYTES + 1024))
    status, answer = raw_post(server, f"{table.path}/hands", body, table.headers())
    assert status == 413
    assert json.loads(answer)["message"] == TOO_LARGE
    assert server.call("GET", f"{table.path}/hands", headers=table.headers()) == (200, [])


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
def test_a_group_document_is_imported_off_the_loop_under_gevent_and_one_past_its_limit_is_413(server, chunked):
    # The gevent worker is where the work goes to the thread pool (api.http.offload) and the body, over 256 KB,
    # is loaded there (api.http.extensions.BodyParser); the in-process tests call it all directly.
    players = {name: f"m{index}" for index, name in enumerate(PLAYERS)}
    document = {"format": "taizhang-group", "version": 1, "name": "Big club", "payments": [], "seasons": [],
                "members": [{"id": member, "name": name} for name, member in players.items()],
                "evenings": [{"id": f"e{index}", "players": players, "export": draws_document(300)}
                             for index in range(6)]}
    body = json.dumps(document).encode()
    assert 256 * 1024 < len(body) < 2 * 2**20
    status, answer = raw_post(server, "/api/groups/import", iter([body]) if chunked else body, {})
    assert status == 201, answer
    created = json.loads(answer)
    status, exported = server.call("GET", f"/api/groups/{created['id']}/export",
                                   headers={"Authorization": f"Bearer {created['read_token']}"})
    assert status == 200
    assert [len(evening["export"]["entries"]) for evening in exported["evenings"]] == [300] * 6
    status, answer = raw_post(server, "/api/groups/import", b"[" + b" " * (2 * 2**20) + b"]",
                              {"Accept-Language": "zh-TW"})
    assert status == 413
    assert json.loads(answer)["message"] == "這份文件太大，無法一次匯入：這裡最多 2 MB（2097152 位元組）。"
    assert "Traceback" not in server.log()


@pytest.fixture
def server_on_own_database(own_database_url, tmp_path):
    """The server on a database of this test's own, which the test breaks."""
    running = ProductionServer(own_database_url, tmp_path / "gunicorn.log", workers=1).start()
    yield running
    running.stop()


def test_a_database_failure_is_a_bare_json_500(server_on_own_database, own_database_url):
    server = server_on_own_database
    table = create_table(server, "taiwan")
    engine = make_engine(own_database_url)
    try:
        with engine.begin() as connection:
            connection.execute(text("DROP TABLE audits"))
            connection.execute(text("DROP TABLE changes"))
            connection.execute(text("DROP TABLE entries"))
    finally:
        engine.dispose()
    status, answer = raw_post(server, f"{table.path}/hands", json.dumps(discard("Ben", "Cat", 1)).encode(),
                              table.headers())
    assert status == 500
    assert set(json.loads(answer)) == {"code", "status", "message"}
    for leak in LEAKS:
        assert leak not in answer, (leak, answer)
