"""Headers every answer carries so that a browser does not misread it or show it inside another site.

``nosniff``: a browser never guesses HTML or script from bytes a player typed (a name in a CSV). No
framing (``X-Frame-Options: DENY``, ``frame-ancestors 'none'``): framed, the page's buttons could be
clicked through a decoy; a policy an answer sets itself includes it. Set in ``after_request``, by the
stream gate's refusals and by gunicorn's own errors alike: ``HEADERS`` is their one list
(``tests/api/http/test_security_headers.py``, ``tests/system/test_server_errors.py``).
"""
FRAME_ANCESTORS = "frame-ancestors 'none'"
HEADERS = {"X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY", "Content-Security-Policy": FRAME_ANCESTORS}


def secure(response):
    """The headers above (an ``after_request`` hook); a policy already set is kept, as it names its own framing."""
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def init_app(app) -> None:
    app.after_request(secure)
