"""Rate limits hold for the whole server, not per worker (issue 15, item 2), on the production server.

Each gunicorn worker counts in its own memory and allows its share: with 2
workers and a limit of 4 session creations a minute, 2 each. However the
kernel spreads 10 connections over the workers, at most 4 sessions are
created, and at least 2 (the first worker reached allows its 2).
The same two workers show that each froze the app it loaded (tests/system/test_worker_heap.py).
"""
import re
import time

import pytest

from tests.api.sessions.tables import session_body
from tests.system.server import START_TIMEOUT_S, ProductionServer


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    directory = tmp_path_factory.mktemp("two-workers")
    running = ProductionServer(f"sqlite:///{directory / 'taizhang.sqlite'}", directory / "gunicorn.log", workers=2,
                               env={"TAIZHANG_RATE_LIMIT_CREATE_SESSION": "4 per minute"}).start()
    yield running
    running.stop()


def test_the_workers_together_allow_at_most_the_limit(server):
    statuses = [server.call("POST", "/api/sessions", session_body())[0] for _ in range(10)]
    assert set(statuses) == {201, 429}
    assert 2 <= statuses.count(201) <= 4


def test_each_worker_of_the_production_server_freezes_the_app_it_loaded(server):
    assert server.call("GET", "/api/health")[0] == 200
    deadline = time.monotonic() + START_TIMEOUT_S  # the other worker may still be loading the app
    while len(frozen_counts(server)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    counts = frozen_counts(server)
    assert len(counts) == 2 and min(counts) > 50_000, server.log()


def frozen_counts(server) -> list[int]:
    return [int(count) for count in re.findall(r"Froze (\d+) objects of the loaded app", server.log())]
