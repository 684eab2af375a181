"""A full disk on SQLite is 507 with Retry-After, one log line, nothing half-written, and passes by itself
(issue 27, item 4: 23 answers of 56 were 500s with a traceback each).

The disk fills through SQLite's own limit on the database's size (``PRAGMA
max_page_count``): a write that needs one more page fails with SQLITE_FULL,
"database or disk is full", the very error a full file system gives, in the
same place, with no root needed to mount a small file system.
"""
import logging

import pytest
from sqlalchemy import event

from api.http import db
from tests.api.sessions.tables import DRAW, Table, discard

sqlite_only = pytest.mark.parametrize("database_kind", ["sqlite"], indirect=True)


class Disk:
    """The app's database file held to its size now (``fill``) or given room again (``free``)."""

    def __init__(self, app):
        self.engine = db.get_engine(app)
        self.pages = None
        event.listen(self.engine, "connect", self._limit)

    def _limit(self, dbapi_connection, _record):
        if self.pages is not None:
            dbapi_connection.execute(f"PRAGMA max_page_count = {self.pages}")

    def fill(self):
        with self.engine.connect() as connection:
            self.pages = connection.exec_driver_sql("PRAGMA page_count").scalar()
        self.engine.dispose()  # every connection from now on opens with the limit

    def free(self):
        self.pages = 1_000_000
        self.engine.dispose()


@sqlite_only
def test_a_full_disk_is_507_with_one_log_line_nothing_half_written_and_recovers(app, caplog):
    client = app.test_client()
    app.config["PROPAGATE_EXCEPTIONS"] = False  # as served: an error is an answer, not a raise
    table = Table(client)
    disk = Disk(app)
    disk.fill()
    caplog.clear()
    recorded = []
    for _ in range(50):
        response = table.hand(DRAW, **{"Accept-Language": "zh-TW"})
        if response.status_code != 201:
            break
        recorded.append(response.get_json()["number"])
    assert response.status_code == 507
    assert response.headers["Retry-After"] == "60"
    assert response.get_json() == {"code": 507, "status": "Insufficient Storage",
                                   "message": "伺服器的磁碟已滿：這次沒有寫入任何東西。請 60 秒後再試，或請管理者騰出空間。"}
    warnings = [record.getMessage() for record in caplog.records if record.levelno >= logging.WARNING]
    assert warnings == [f"507 POST {table.path}/hands: disk full: database or disk is full"]
    assert not any(record.exc_info for record in caplog.records)

    # Nothing half-written: the hands, the revision and the live changes are those of the answered hands.
    session = client.get(table.path, headers=table.headers()).get_json()
    hands = client.get(f"{table.path}/hands", headers=table.headers()).get_json()
    assert [hand["number"] for hand in hands] == recorded == list(range(1, len(recorded) + 1))
    assert session["state"]["hands_played"] == len(recorded)

    disk.free()
    # Ben wins 2 台 on Cat's discard; Amy deals: Cat pays 100 + 20 × 2 = 140.
    after = table.hand(discard("Ben", "Cat", 2))
    assert after.status_code == 201
    assert after.get_json()["number"] == len(recorded) + 1
    assert client.get(table.path, headers=table.headers()).get_json()["totals"] == {
        "Amy": 0, "Ben": 140, "Cat": -140, "Dan": 0}
