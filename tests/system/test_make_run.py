"""The README's first command (issue 26): ``make run`` serves the table on the network and says where.

It runs the Makefile's own recipe (``make -o .venv/.installed run``: the set-up
is the test run's, already done) on a free port chosen by the kernel: the
terminal shows the address phones on the Wi-Fi open and a QR code that reads
back (zbarimg) as that address; the server answers there (the machine's own
network address, not loopback) and the page learns it from ``GET /api/address``.
``make run HOST=127.0.0.1`` keeps it to the machine and says so, with no QR code
to scan.
"""
import ipaddress
import json
import urllib.request
from urllib.parse import urlsplit

import pytest

from tests.system.announcing import AnnouncingServer
from tests.system.server import ROOT
from tests.system.terminal import announced, qr_lines, read_qr


@pytest.fixture
def make_run(tmp_path):
    """``make run`` with the given variables (a port the kernel chooses, one worker), on a database of the test."""
    running = []

    def start(**variables) -> AnnouncingServer:
        arguments = [f"{name}={value}" for name, value in {"PORT": 0, "WORKERS": 1, **variables}.items()]
        running.append(AnnouncingServer(["make", "--no-print-directory", "-o", ".venv/.installed", "run", *arguments],
                                        env={"DATABASE_URL": f"sqlite:///{tmp_path / 'taizhang.sqlite'}"}, cwd=ROOT))
        return running[-1]

    yield start
    for server in running:
        server.stop()


def get_json(url: str):
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.status, json.loads(response.read())


def test_make_run_prints_the_network_address_and_its_qr_code_and_answers_there(make_run):
    terminal = make_run().terminal
    address = announced(terminal)
    assert read_qr(terminal) == address
    parts = urlsplit(address)
    assert parts.scheme == "http" and parts.port > 0
    assert not ipaddress.ip_address(parts.hostname).is_loopback  # an address of the machine's network
    assert get_json(f"{address}/api/health") == (200, {"status": "ok"})
    assert get_json(f"{address}/api/address") == (200, {"public_url": None, "network_url": address})
    with urllib.request.urlopen(f"{address}/", timeout=10) as page:
        assert page.status == 200 and b'<script type="module" blocking="render">' in page.read()  # its modules inline (esbuild)
    # The same server on loopback, as printed for this machine.
    assert f"This machine: http://127.0.0.1:{parts.port}" in terminal
    assert get_json(f"http://127.0.0.1:{parts.port}/api/health")[0] == 200
    assert 'docs/server.md, "Plain http and https"' in terminal


def test_make_run_on_loopback_says_no_phone_can_open_it_and_draws_no_code(make_run):
    terminal = make_run(HOST="127.0.0.1").terminal
    assert "Phones open:" not in terminal and len(qr_lines(terminal)) == 0
    line = next(line for line in terminal.splitlines() if "Only this machine can open it:" in line)
    url = line.split(": ", 1)[1]
    assert get_json(f"{url}/api/address") == (200, {"public_url": None, "network_url": None})
