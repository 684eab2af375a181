"""The production server for system tests and benchmarks: gunicorn as ``make serve`` runs it, on loopback.

``ProductionServer(database_url, log_path)`` runs ``gunicorn 'api:create_app()'``
with the settings of ``api.gunicorn_config`` (the gevent worker) and ``WORKERS`` processes (the Makefile's default) on a
free port, in a process group of its own, so ``kill()`` can SIGKILL the master
and every worker at once, as a power cut or the OOM killer would.
``Connection`` is one keep-alive HTTP connection, as a phone or script holds.
"""
from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WORKERS = len(os.sched_getaffinity(0))  # as `make serve`: one per core (nproc)
START_TIMEOUT_S = 60
REQUEST_TIMEOUT_S = 30


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Connection:
    """One keep-alive connection to ``127.0.0.1:port``; JSON in, (status, JSON) out."""

    def __init__(self, port: int):
        self.http = http.client.HTTPConnection("127.0.0.1", port, timeout=REQUEST_TIMEOUT_S)

    def call(self, method: str, path: str, body=None, headers: dict | None = None) -> tuple[int, object]:
        payload = None if body is None else json.dumps(body)
        self.http.request(method, path, body=payload, headers={"Content-Type": "application/json",
                                                                **(headers or {})})
        response = self.http.getresponse()
        data = response.read()
        return response.status, json.loads(data) if data else None

    def close(self) -> None:
        self.http.close()


class ProductionServer:
    """gunicorn serving the app on ``database_url``; ``start`` again after ``stop`` or ``kill``."""

    def __init__(self, database_url: str, log_path: Path, *, app: str = "api:create_app()",
                 ready_path: str = "/api/health", workers: int = WORKERS, env: dict | None = None,
                 open_files: tuple[int, int] | None = None):
        """``env``: more environment for the server, e.g. ``{"TAIZHANG_RATELIMIT_ENABLED": "false"}``;
        ``open_files``: its (soft, hard) limit on open files, as a machine might set them (``prlimit``)."""
        self.database_url, self.log_path, self.app, self.ready_path = database_url, log_path, app, ready_path
        self.workers, self.env, self.open_files = workers, env or {}, open_files
        self.process: subprocess.Popen | None = None
        self.port = 0

    def start(self) -> ProductionServer:
        """Start on a fresh free port and wait until ``ready_path`` answers 200."""
        self.port = free_port()
        with open(self.log_path, "ab") as log:
            limit = ["prlimit", "--nofile=%d:%d" % self.open_files, "--"] if self.open_files else []
            self.process = subprocess.Popen(
                [*limit, sys.executable, "-m", "gunicorn", "--config", "python:api.gunicorn_config",
                 "--workers", str(self.workers), "--bind", f"127.0.0.1:{self.port}", self.app],
                cwd=ROOT, env={**os.environ, "DATABASE_URL": self.database_url, **self.env}, stdout=log,
                stderr=subprocess.STDOUT, start_new_session=True)
        self._wait_until_up()
        return self

    def connect(self) -> Connection:
        return Connection(self.port)

    def call(self, method: str, path: str, body=None, headers: dict | None = None) -> tuple[int, object]:
        """One request on a connection of its own."""
        connection = self.connect()
        try:
            return connection.call(method, path, body, headers)
        finally:
            connection.close()

    def stop(self) -> None:
        """Shut down gracefully (SIGTERM to the master, which stops its workers)."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()
        self.process = None

    def kill(self) -> None:
        """SIGKILL the master and every worker at once: no handler runs, nothing is flushed."""
        if self.process is not None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        self.process = None

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def _wait_until_up(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            try:
                if self.call("GET", self.ready_path)[0] == 200:
                    return
            except OSError:
                time.sleep(0.1)
        self.kill()
        raise RuntimeError(f"gunicorn did not start:\n{self.log()}")


def module_server(tmp_path_factory, name: str, **settings):
    """A module-scoped fixture's body: one server on a SQLite file of its own folder, stopped after the module."""
    directory = tmp_path_factory.mktemp(name)
    running = ProductionServer(f"sqlite:///{directory / 'taizhang.sqlite'}", directory / "gunicorn.log",
                               **settings).start()
    yield running
    running.stop()
