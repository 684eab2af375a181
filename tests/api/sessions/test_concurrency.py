"""Hands posted at the same moment to a real server (gunicorn, two processes × four threads).

On SQLite and PostgreSQL: no hand is lost or recorded twice, hand numbers are
consecutive, and the totals equal a replay of the recorded hands; a retried
POST racing its first attempt (same Idempotency-Key) records one hand.
"""
import http.client
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

from ledger.entries import hand_from_request
from ledger.table import play
from tests.api.sessions.tables import PLAYERS, TAIWAN_STAKES, discard, session_body

ROOT = Path(__file__).resolve().parents[3]
HANDS_PER_THREAD = 20
START_TIMEOUT_S = 60


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """``gunicorn 'api:create_app()'`` on a loopback port, on the given database."""

    def __init__(self, database_url, log_path):
        self.port = free_port()
        self.log = open(log_path, "w+b")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "--workers", "2", "--threads", "4",
             "--bind", f"127.0.0.1:{self.port}", "api:create_app()"],
            cwd=ROOT, env={**os.environ, "DATABASE_URL": database_url}, stdout=self.log, stderr=self.log)

    def wait_until_up(self):
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            try:
                if self.call("GET", "/api/health")[0] == 200:
                    return
            except OSError:
                time.sleep(0.2)
        self.log.seek(0)
        pytest.fail(f"the server did not start:\n{self.log.read().decode(errors='replace')}")

    def call(self, method, path, body=None, headers=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            payload = None if body is None else json.dumps(body)
            connection.request(method, path, body=payload,
                               headers={"Content-Type": "application/json", **(headers or {})})
            response = connection.getresponse()
            return response.status, json.loads(response.read() or b"null")
        finally:
            connection.close()

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


@pytest.fixture(scope="module")
def server(module_database_url, tmp_path_factory):
    """One server per kind of database for both tests, each on an evening of its own (tests/conftest.py)."""
    running = Server(module_database_url, tmp_path_factory.mktemp("concurrency") / "gunicorn.log")
    try:
        running.wait_until_up()
        yield running
    finally:
        running.stop()


@pytest.fixture
def table(server):
    status, created = server.call("POST", "/api/sessions", session_body())
    assert status == 201, created
    return created["id"], {"Authorization": f"Bearer {created['token']}"}


def at_once(*jobs):
    """Run each job in its own thread, all released together; their results in order."""
    barrier = threading.Barrier(len(jobs))
    results = [None] * len(jobs)

    def run(index, job):
        barrier.wait()
        results[index] = job()

    threads = [threading.Thread(target=run, args=(i, job)) for i, job in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_two_threads_posting_hands_lose_and_duplicate_nothing(server, table):
    session_id, auth = table
    path = f"/api/sessions/{session_id}/hands"
    # Every body differs (winner pair and 台), so each recorded hand can be traced to one request.
    sent = {"first": [discard("Amy", "Ben", tai) for tai in range(HANDS_PER_THREAD)],
            "second": [discard("Cat", "Dan", tai) for tai in range(HANDS_PER_THREAD)]}

    def post_all(bodies):
        return [server.call("POST", path, body, auth) for body in bodies]

    responses = at_once(lambda: post_all(sent["first"]), lambda: post_all(sent["second"]))
    for thread_responses in responses:
        assert [status for status, _ in thread_responses] == [201] * HANDS_PER_THREAD
        numbers = [hand["number"] for _, hand in thread_responses]
        assert numbers == sorted(numbers)  # each thread's hands in the order it sent them
    returned = sorted(hand["number"] for thread_responses in responses for _, hand in thread_responses)
    assert returned == list(range(1, 2 * HANDS_PER_THREAD + 1))

    status, hands = server.call("GET", path, headers=auth)
    assert status == 200
    assert [hand["number"] for hand in hands] == list(range(1, 2 * HANDS_PER_THREAD + 1))
    recorded = [json.dumps(hand["body"], sort_keys=True) for hand in hands]
    expected = [json.dumps(body, sort_keys=True) for body in sent["first"] + sent["second"]]
    assert Counter(recorded) == Counter(expected)

    entries = [hand_from_request(hand["body"], "taiwan") for hand in hands]
    evening = play("taiwan", PLAYERS, TAIWAN_STAKES, {}, entries)
    status, session = server.call("GET", f"/api/sessions/{session_id}", headers=auth)
    assert session["totals"] == evening.totals
    assert [hand["payments"] for hand in hands] == [result.payments for result in evening.results]
    assert session["state"]["hands_played"] == 2 * HANDS_PER_THREAD


def test_a_retry_racing_its_first_attempt_records_one_hand(server, table):
    session_id, auth = table
    path = f"/api/sessions/{session_id}/hands"
    for tai in range(5):
        headers = {**auth, "Idempotency-Key": f"hand-{tai}"}
        body = discard("Amy", "Ben", tai)
        first, second = at_once(lambda: server.call("POST", path, body, headers),
                                lambda: server.call("POST", path, body, headers))
        assert first == second
        assert first[0] == 201
    status, hands = server.call("GET", path, headers=auth)
    assert [hand["number"] for hand in hands] == [1, 2, 3, 4, 5]
    assert [hand["body"]["winners"][0]["tai"] for hand in hands] == [0, 1, 2, 3, 4]
