"""What the benchmarks' abusers share: one request on a connection of its own, its status or the error's name."""
from __future__ import annotations

import http.client
import json


def call(port: int, method: str, path: str, body=None, headers: dict | None = None, timeout: float = 60):
    """``method path`` to the server on ``port`` (``body``: bytes as they are, else JSON); the answer's status, or
    the name of the error that ended the request (``ConnectionResetError``, ``TimeoutError`` …)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
        connection.request(method, path, body=data, headers={"Content-Type": "application/json", **(headers or {})})
        response = connection.getresponse()
        response.read()
        return response.status
    except (OSError, http.client.HTTPException) as error:
        return type(error).__name__
    finally:
        connection.close()
