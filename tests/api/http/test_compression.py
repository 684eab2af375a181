"""Issue 32: every text answer compressed with ``Vary: Accept-Encoding`` (api/http/compression.py), the event
stream excepted, and an evening's revision ETag the same in every encoding."""
import gzip
import json
import re

import pytest

from tests.api.sessions.tables import Table, discard

sqlite_only = pytest.mark.parametrize("database_kind", ["sqlite"], indirect=True)  # nothing database-specific
GZIP = {"Accept-Encoding": "gzip"}


def address(client, path: str) -> str:
    """The release's address of a page file (``/app/app.css?v=…``), as the page's import map gives it."""
    html = client.get("/").get_data(as_text=True)
    return json.loads(re.search(r'<script type="importmap">(.*?)</script>', html).group(1))["imports"][path]


@sqlite_only
def test_the_page_its_scripts_styles_words_and_the_json_api_come_compressed_with_vary(client):
    table = Table(client)
    answers = {"/": {}, address(client, "/app/js/main.js"): {}, address(client, "/app/app.css"): {},
               address(client, "/app/words/zh-Hant.json"): {}, "/api/rulesets": {}, table.path: table.headers()}
    for path, headers in answers.items():
        plain = client.get(path, headers=headers)
        packed = client.get(path, headers={**headers, **GZIP})
        assert plain.status_code == packed.status_code == 200, path
        assert "Content-Encoding" not in plain.headers, path  # a client that asks for none gets none
        assert packed.headers["Content-Encoding"] == "gzip", path
        assert "Accept-Encoding" in packed.headers["Vary"] and "Accept-Encoding" in plain.headers["Vary"], path
        assert gzip.decompress(packed.data) == plain.data, path
        assert len(packed.data) < len(plain.data) * 0.7, path


@sqlite_only
def test_the_brotli_a_browser_prefers_on_https_is_offered_too(client):
    assert client.get("/", headers={"Accept-Encoding": "gzip, deflate, br"}).headers["Content-Encoding"] == "br"


@sqlite_only
def test_an_evenings_etag_stays_its_revision_when_compressed_and_still_answers_304(client):
    table = Table(client)
    posted = table.hand(discard("Ben", "Cat", tai=3), **GZIP)
    assert posted.headers["Content-Encoding"] == "gzip" and posted.headers["ETag"] == '"2"'
    read = client.get(table.path, headers=table.headers(**GZIP))
    assert read.headers["Content-Encoding"] == "gzip" and read.headers["ETag"] == '"2"'
    assert client.get(table.path, headers=table.headers(**GZIP, **{"If-None-Match": '"2"'})).status_code == 304
    # If-Match with the ETag as it came compressed is the revision: the change is made.
    assert table.hand(discard("Cat", "Dan", tai=1), **GZIP, **{"If-Match": read.headers["ETag"]}).status_code == 201


@sqlite_only
def test_the_event_stream_is_not_compressed_so_no_event_waits_for_a_block(client):
    table = Table(client)
    client.application.config["EVENTS_HEARTBEAT_S"] = 0.05
    stream = client.get(f"{table.path}/events", headers=table.headers(**{"Accept-Encoding": "gzip, deflate, br, zstd"}),
                        buffered=False)
    try:
        assert stream.status_code == 200 and stream.mimetype == "text/event-stream"
        assert "Content-Encoding" not in stream.headers
        assert next(iter(stream.response)).decode("utf-8")  # plain text from the first chunk on
    finally:
        stream.close()
