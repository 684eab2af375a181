"""Every text answer compressed (Flask-Compress): the page, its scripts and styles, its words and the JSON API.

A table's Wi-Fi is slow (``benchmarks/page_load.py``). Flask-Compress picks the best encoding offered,
leaves small answers alone and says ``Vary: Accept-Encoding``. Event streams are not compressed: a
compressor holds bytes back, and an event held back is a hand a table does not see. Under ``/api/`` the
route's ETag is put back (Flask-Compress appends the encoding to it): it names the evening's revision,
which a client sends back as ``If-Match``.
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
