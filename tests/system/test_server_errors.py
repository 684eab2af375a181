"""Errors gunicorn writes itself, before the app sees the request, are JSON like the app's (issue 15, item 8),
with the security headers of every answer of the app (issue 27, item 8).

They used to be HTML pages. ``api.gunicorn_config.GeventWorker`` writes
``{"code", "status", "message"}`` with gunicorn's own status and message (its wording).
They then said neither ``nosniff`` nor anything against framing.
"""
import json
import socket

import pytest

from tests.system.server import module_server


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from module_server(tmp_path_factory, "server-errors", workers=1)


def raw(server, request: bytes) -> tuple[str, dict, bytes]:
    """Send ``request`` as is; the status line, headers and body of the answer."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as client:
        client.sendall(request)
        answer = b""
        while chunk := client.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    status, *lines = head.decode("latin-1").split("\r\n")
    return status, {name.lower(): value for name, _, value in (line.partition(": ") for line in lines)}, body


@pytest.mark.parametrize(("request_bytes", "status", "message"), [
    (b"GET /" + b"x" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", "414 URI Too Long",
     "Request Line is too large (5014 > 4094)"),  # "GET /" + 5000 + " HTTP/1.1"
    (b"GET /api/health HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n", "400 Bad Request",
     "Invalid HTTP header name: 'Bad Header'"),
    (b"GET /api/health HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-%d: 1\r\n" % n for n in range(200)) + b"\r\n",
     "431 Request Header Fields Too Large", "Error parsing headers: 'limit request headers fields'"),
    (b"BROKEN\r\n\r\n", "400 Bad Request", "Invalid Request Line 'Invalid HTTP request line: 'BROKEN''"),
], ids=["uri-too-long", "bad-header", "too-many-headers", "bad-request-line"])
def test_errors_of_the_server_itself_are_json_nosniff_and_never_framed(server, request_bytes, status, message):
    status_line, headers, body = raw(server, request_bytes)
    assert status_line == f"HTTP/1.1 {status}"
    assert headers["content-type"] == "application/json"
    code, _, reason = status.partition(" ")
    assert json.loads(body) == {"code": int(code), "status": reason, "message": message}
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["x-frame-options"] == "DENY"
    assert headers["content-security-policy"] == "frame-ancestors 'none'"
