"""Issue 26: ``deploy/``, checked as far as a test machine can: the units and proxy configurations parse with
their own tools, and the server runs behind Caddy and behind nginx, each configured by the files of ``deploy/``.

- ``systemd-analyze verify`` reads the service, the backup service and its timer
  (with ``/opt/taizhang/bin/taizhang`` pointed at this test run's ``taizhang``, as
  verify checks that the command exists) and has nothing to say;
  ``caddy validate`` accepts the Caddyfile and ``nginx -t`` the site with its
  proxy snippet (a self-signed certificate standing in for Let's Encrypt's).
- The proxy path, on loopback and plain http (a certificate cannot be had
  here): only the site's address and the upstream port are changed. Behind
  each proxy, with ``TAIZHANG_TRUSTED_PROXIES=1``: the rate limit counts each
  client apart (clients are told apart by their loopback source address,
  127.0.0.2 and 127.0.0.3; a forged ``X-Forwarded-For`` does not get a client
  a fresh count), ``GET /api/address`` gives the public URL links carry, and an
  event stream opened through the proxy brings a hand recorded meanwhile
  (a buffering proxy would hold it until the stream ends).
"""
import http.client
import json
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.api.sessions.tables import session_body
from tests.system.announcing import TAIZHANG
from tests.system.server import ROOT, ProductionServer, free_port

DEPLOY = ROOT / "deploy"
PUBLIC_URL = "https://taizhang.example.org"
UPSTREAM = "127.0.0.1:8000"
START_TIMEOUT_S = 30
WAIT_S = 30


def test_the_systemd_units_verify(tmp_path):
    for name in ("taizhang.service", "taizhang-backup.service", "taizhang-backup.timer"):
        text = (DEPLOY / name).read_text(encoding="utf-8")
        (tmp_path / name).write_text(text.replace("/opt/taizhang/bin/taizhang", TAIZHANG), encoding="utf-8")
    result = subprocess.run(["systemd-analyze", "verify", "taizhang.service", "taizhang-backup.service",
                             "taizhang-backup.timer"], cwd=tmp_path, capture_output=True, text=True)
    assert (result.returncode, result.stdout + result.stderr) == (0, "")


def test_the_caddyfile_validates(tmp_path):
    result = subprocess.run(["caddy", "validate", "--config", DEPLOY / "Caddyfile", "--adapter", "caddyfile"],
                            env=caddy_env(tmp_path), capture_output=True, text=True)
    assert result.returncode == 0 and "Valid configuration" in result.stdout + result.stderr, result.stderr


def test_the_nginx_site_passes_nginx_t(tmp_path):
    certificate, key = tmp_path / "fullchain.pem", tmp_path / "privkey.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
                    "/CN=taizhang.example.org", "-keyout", key, "-out", certificate], check=True, capture_output=True)
    site = (DEPLOY / "nginx" / "taizhang.conf").read_text(encoding="utf-8")
    site = site.replace("/etc/letsencrypt/live/taizhang.example.org/fullchain.pem", str(certificate))
    site = site.replace("/etc/letsencrypt/live/taizhang.example.org/privkey.pem", str(key))
    site = site.replace("/etc/nginx/snippets/taizhang-proxy.conf", str(DEPLOY / "nginx" / "taizhang-proxy.conf"))
    (tmp_path / "site.conf").write_text(site, encoding="utf-8")
    result = subprocess.run(["nginx", "-t", "-p", tmp_path, "-e", tmp_path / "error.log",
                             "-c", write_nginx_conf(tmp_path, f"include {tmp_path / 'site.conf'};")],
                            capture_output=True, text=True)
    assert result.returncode == 0 and "test is successful" in result.stderr, result.stderr


def caddy_env(tmp_path: Path) -> dict:
    """Caddy's own files (certificates, autosave) in the test's folder."""
    return {**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data"),
            "XDG_CONFIG_HOME": str(tmp_path / "config")}


def write_nginx_conf(tmp_path: Path, http_block: str) -> Path:
    """A main nginx.conf whose files are all in ``tmp_path``, with ``http_block`` inside ``http {}``."""
    conf = tmp_path / "nginx.conf"
    conf.write_text(f"""
pid {tmp_path / 'nginx.pid'};
error_log {tmp_path / 'error.log'};
events {{ worker_connections 64; }}
http {{
    access_log off;
    client_body_temp_path {tmp_path / 'body'};
    proxy_temp_path {tmp_path / 'proxy'};
    fastcgi_temp_path {tmp_path / 'fastcgi'};
    uwsgi_temp_path {tmp_path / 'uwsgi'};
    scgi_temp_path {tmp_path / 'scgi'};
    {http_block}
}}
""", encoding="utf-8")
    return conf


# -- the proxy path -----------------------------------------------------------------------------------------------


def proxied_server(directory: Path) -> ProductionServer:
    """The server as deploy/taizhang.env sets it up behind one proxy."""
    return ProductionServer(f"sqlite:///{directory / 'taizhang.sqlite'}", directory / "gunicorn.log", workers=1,
                            env={"TAIZHANG_TRUSTED_PROXIES": "1", "TAIZHANG_PUBLIC_URL": PUBLIC_URL,
                                 "TAIZHANG_RATE_LIMIT_CREATE_SESSION": "2 per minute"}).start()


class Proxy:
    """A reverse proxy started from ``command`` on ``port``, until ``stop``."""

    def __init__(self, command: list, port: int, log: Path, env: dict | None = None):
        self.port = port
        self.log = log
        with open(log, "ab") as out:
            self.process = subprocess.Popen([str(part) for part in command], stdout=out, stderr=subprocess.STDOUT,
                                            env=env, start_new_session=True)
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                if request(port, "GET", "/api/health")[0] == 200:
                    return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"{command[0]} did not start:\n{log.read_text(errors='replace')}")

    def stop(self):
        """Ask it to stop, then kill it: an event stream still open through it would hold it for its grace period."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


def caddy(tmp_path: Path, upstream_port: int) -> Proxy:
    """deploy/Caddyfile with the site on plain http on loopback, and no admin endpoint (tests run side by side)."""
    port = free_port()
    text = (DEPLOY / "Caddyfile").read_text(encoding="utf-8")
    assert text.count("taizhang.example.org {") == 1 and text.count(UPSTREAM) == 1
    text = text.replace("taizhang.example.org {", f"http://127.0.0.1:{port} {{").replace(UPSTREAM,
                                                                                         f"127.0.0.1:{upstream_port}")
    assert text.count("grace_period") == 1
    (tmp_path / "Caddyfile").write_text(text.replace("grace_period", "admin off\n\tgrace_period"), encoding="utf-8")
    return Proxy(["caddy", "run", "--config", tmp_path / "Caddyfile", "--adapter", "caddyfile"], port,
                 tmp_path / "caddy.log", caddy_env(tmp_path))


def nginx(tmp_path: Path, upstream_port: int) -> Proxy:
    """deploy/nginx/taizhang-proxy.conf in a server on plain http on loopback."""
    port = free_port()
    snippet = (DEPLOY / "nginx" / "taizhang-proxy.conf").read_text(encoding="utf-8")
    assert UPSTREAM in snippet
    (tmp_path / "proxy.conf").write_text(snippet.replace(UPSTREAM, f"127.0.0.1:{upstream_port}"), encoding="utf-8")
    conf = write_nginx_conf(tmp_path, f"server {{ listen 127.0.0.1:{port}; include {tmp_path / 'proxy.conf'}; }}")
    return Proxy(["nginx", "-p", tmp_path, "-e", tmp_path / "error.log", "-c", conf, "-g", "daemon off;"], port,
                 tmp_path / "nginx.log")


@pytest.fixture(scope="module", params=["caddy", "nginx"])
def proxy(request, tmp_path_factory):
    """A server and each proxy in front of it, for the module's tests (each asks from addresses of its own)."""
    directory = tmp_path_factory.mktemp(request.param)
    server = proxied_server(directory)
    try:
        started = {"caddy": caddy, "nginx": nginx}[request.param](directory, server.port)
    except BaseException:
        server.kill()
        raise
    started.server = server
    yield started
    started.stop()
    server.kill()  # its graceful stop would wait out the live test's stream (30 s); not what this module tests


@pytest.fixture
def server(proxy):
    return proxy.server


def request(port: int, method: str, path: str, body=None, headers: dict | None = None, source: str = "127.0.0.1"):
    """One request to ``127.0.0.1:port`` from the loopback address ``source``; (status, JSON or None)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT_S, source_address=(source, 0))
    try:
        connection.request(method, path, body=None if body is None else json.dumps(body),
                           headers={"Content-Type": "application/json", **(headers or {})})
        response = connection.getresponse()
        data = response.read()
        return response.status, json.loads(data) if data and response.getheader("Content-Type", "").startswith(
            "application/json") else None
    finally:
        connection.close()


def test_behind_the_proxy_each_client_has_its_own_rate_limit(proxy):
    amy = [request(proxy.port, "POST", "/api/sessions", session_body(), source="127.0.0.2")[0] for _ in range(2)]
    forged = request(proxy.port, "POST", "/api/sessions", session_body(), source="127.0.0.2",
                     headers={"X-Forwarded-For": "10.1.2.3"})[0]
    ben = request(proxy.port, "POST", "/api/sessions", session_body(), source="127.0.0.3")[0]
    assert (amy, forged, ben) == ([201, 201], 429, 201)


def test_behind_the_proxy_links_carry_the_public_url_and_the_page_is_served(proxy):
    assert request(proxy.port, "GET", "/api/address") == (200, {"public_url": PUBLIC_URL, "network_url": None})
    assert request(proxy.port, "GET", "/")[0] == 200


def test_live_updates_come_through_the_proxy_as_they_happen(proxy, server):
    status, session = server.call("POST", "/api/sessions", session_body())
    assert status == 201, session
    stream = http.client.HTTPConnection("127.0.0.1", proxy.port, timeout=WAIT_S)
    try:
        stream.request("GET", f"/api/sessions/{session['id']}/events?token={session['token']}")
        response = stream.getresponse()
        assert response.status == 200 and response.getheader("Content-Type").startswith("text/event-stream")
        # Recorded on the server directly, after the stream opened: it must come through the open stream.
        hand = {"winners": [{"player": "Ben", "tai": 3}], "by": "discard", "discarder": "Cat"}
        status, _ = server.call("POST", f"/api/sessions/{session['id']}/hands", hand,
                                {"Authorization": f"Bearer {session['token']}"})
        assert status == 201
        change = {}
        for raw in response:
            line = raw.decode().rstrip("\n")
            if line.startswith("data: "):
                change = json.loads(line[len("data: "):])
                if change.get("revision", 0) > session["revision"]:
                    break
        assert change["revision"] == session["revision"] + 1
    finally:
        stream.close()
