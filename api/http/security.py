"""Headers every answer carries so that a browser does not misread it or show it inside another site.

- ``X-Content-Type-Options: nosniff`` on everything: a browser takes the
  declared type (JSON, CSV, PNG, PDF, event stream) and never guesses HTML or
  script from bytes a player typed (a name in a CSV, an export).
- No framing: ``X-Frame-Options: DENY`` and ``frame-ancestors 'none'`` in
  the ``Content-Security-Policy`` of every answer. Framed by another site,
  the page's "New links", void and close buttons could be clicked through a
  decoy (clickjacking). An answer that sets its own policy (the phone page's,
  ``api.page.routes``) includes ``frame-ancestors 'none'`` itself; every other
  one gets that directive alone, which restricts nothing else (the Swagger
  UI at ``/api/docs`` keeps its inline script).

Set in ``after_request``, which Flask runs for answers of views, of error
handlers (404, 409, 412, 413, 415, 422, 429, 503, 507, the JSON 500) and for
streams, whose headers go before their first byte; by ``secure`` on the
refusals of ``api.sessions.stream_gate``, which answers before Flask; and by
``api.gunicorn_config.write_json_error`` on gunicorn's own errors (400, 414,
431), written before the app sees the request. ``HEADERS`` is their one list.
``tests/api/http/test_security_headers.py`` checks one answer of every kind,
``tests/system/test_server_errors.py`` gunicorn's.
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
