"""A competition's documents and draws worked out in a child process of a gevent worker
(``api.http.offload.apart``), on the production server: the cards, the sheet and the picture come back whole,
the same bytes when asked again (kept per revision), new ones after a hand (a new revision); a draw's
refusal by the ledger comes back as the refusal, in the reader's language; no child is left behind.
"""
import http.client

import pytest

from tests.api.competitions.test_competitions import BODY, NAMES
from tests.api.sessions.tables import discard
from tests.system.server import module_server


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One server for the module (each test draws a competition of its own)."""
    yield from module_server(tmp_path_factory, "apart", workers=1)


def fetched(server, path: str, token: str) -> bytes:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    try:
        connection.request("GET", path, headers={"Authorization": f"Bearer {token}"})
        response = connection.getresponse()
        data = response.read()
        assert response.status == 200, (path, response.status, data[:200])
        return data
    finally:
        connection.close()


def children(pid: int) -> list[str]:
    with open(f"/proc/{pid}/task/{pid}/children") as found:
        return found.read().split()


def test_documents_drawn_apart_come_back_whole_and_kept_per_revision(server):
    status, cup = server.call("POST", "/api/competitions", BODY)
    assert status == 201
    path, organizer = f"/api/competitions/{cup['id']}", cup["organizer_token"]
    auth = {"Authorization": f"Bearer {organizer}"}
    assert server.call("POST", f"{path}/entrants", {"names": NAMES[:8]}, auth)[0] == 201
    status, drawn = server.call("POST", f"{path}/rounds", {"seed": 3}, auth)
    assert status == 201
    cards = fetched(server, f"{path}/tables.pdf", organizer)
    sheet = fetched(server, f"{path}/report.pdf", cup["read_token"])
    picture = fetched(server, f"{path}/standings.png", cup["read_token"])
    assert cards.startswith(b"%PDF") and cards.rstrip().endswith(b"%%EOF")
    assert sheet.startswith(b"%PDF") and sheet.rstrip().endswith(b"%%EOF")
    assert picture.startswith(b"\x89PNG")
    assert fetched(server, f"{path}/tables.pdf", organizer) == cards
    assert fetched(server, f"{path}/report.pdf", cup["read_token"]) == sheet
    assert server.call("POST", f"{path}/rounds/1/start", None, auth)[0] == 200
    table = drawn["tables"][0]
    east, south, west, north = table["seats"]
    assert server.call("POST", f"/api/sessions/{table['session']}/hands", discard(south, west, 3),
                       {"Authorization": f"Bearer {table['token']}"})[0] == 201
    assert fetched(server, f"{path}/report.pdf", cup["read_token"]) != sheet
    workers = children(server.process.pid)
    assert len(workers) == 1 and children(int(workers[0])) == []  # every drawing child reaped
    assert "Traceback" not in server.log_path.read_text()


def test_a_draw_refused_in_the_child_is_refused_in_the_readers_language(server):
    status, cup = server.call("POST", "/api/competitions", BODY)
    path, auth = f"/api/competitions/{cup['id']}", {"Authorization": f"Bearer {cup['organizer_token']}"}
    assert server.call("POST", f"{path}/entrants", {"names": NAMES[:3]}, auth)[0] == 201
    status, refusal = server.call("POST", f"{path}/rounds", {"seed": 3}, {**auth, "Accept-Language": "zh-TW"})
    assert status == 422 and refusal["field"] == "entrants"
    assert refusal["message"] == "這一輪只有 3 位參賽者可排：至少要 4 位才開得了一桌。"
