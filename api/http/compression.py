"""Every text answer compressed (Flask-Compress): the page, its scripts and styles, its words and the JSON API.

Why: at a table's Wi-Fi (1.6 Mbps down) the page's 281 KB of text took 1.4 s to arrive; gzip alone makes it
95 KB (issue 32; ``benchmarks/page_load.py`` measures the page against a floor). Flask-Compress picks the best
encoding the browser offers (zstd, br, gzip, deflate), leaves answers under 500 bytes alone, and says ``Vary:
Accept-Encoding`` on every answer so that no cache hands a compressed body to a client that cannot read it.

Two things are kept as they were:

- Event streams (``text/event-stream``, ``api.sessions.events``) are not in the list of types compressed: a
  compressor holds bytes back until it has a block, and an event held back is a table that does not see a hand
  (``tests/api/test_compression.py``).
- The revision ETag of an evening (``ETag: "n"``, API.md "Revisions"): Flask-Compress appends the encoding to a
  strong ETag (``"n:br"``), and a client that sends it back as ``If-Match`` would be refused. Under ``/api/`` the
  ETag the route set is put back: there it names the evening's revision, which is the same in every encoding.
"""
from flask import request
from flask_compress import Compress

# Flask-Compress's own list of text types (event streams are not in it); its hook is ours, ``compressed``. The
# page's files are sent as streams (Werkzeug's send_file): Flask-Compress compresses those chunk by chunk, with
# every encoding it has but gzip unless asked (gzip is what a browser offers on plain http, with deflate), and
# answers a revalidation of them with a 304 only for the endpoints it is told (the page's static files).
SETTINGS = {"COMPRESS_REGISTER": False, "COMPRESS_ALGORITHM_STREAMING": ["zstd", "br", "gzip", "deflate"],
            "COMPRESS_STREAMING_ENDPOINT_CONDITIONAL": ["web.static"]}
compress = Compress()


def compressed(response):
    """The answer compressed for this request (an ``after_request`` hook, registered first so that it runs last)."""
    etag = response.headers.get("ETag")
    response = compress.after_request(response)
    if etag is not None and request.path.startswith("/api/"):
        response.headers["ETag"] = etag
    return response


def init_app(app) -> None:
    for key, value in SETTINGS.items():
        app.config.setdefault(key, value)
    compress.init_app(app)
    app.after_request(compressed)
