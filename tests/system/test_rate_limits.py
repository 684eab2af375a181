"""Rate limits hold for the whole server, not per worker (issue 15, item 2), on the production server.

Each gunicorn worker counts in its own memory and allows its share: with 2
workers and a limit of 4 session creations a minute, 2 each. However the
kernel spreads 10 connections over the workers, at most 4 sessions are
created, and at least 2 (the first worker reached allows its 2).
"""
import pytest

from tests.api.sessions.tables import session_body
from tests.system.server import ProductionServer


@pytest.fixture
def server(tmp_path):
    running = ProductionServer(f"sqlite:///{tmp_path / 'taizhang.sqlite'}", tmp_path / "gunicorn.log", workers=2,
                               env={"TAIZHANG_RATE_LIMIT_CREATE_SESSION": "4 per minute"}).start()
    yield running
    running.stop()


def test_the_workers_together_allow_at_most_the_limit(server):
    statuses = [server.call("POST", "/api/sessions", session_body())[0] for _ in range(10)]
    assert set(statuses) == {201, 429}
    assert 2 <= statuses.count(201) <= 4
