"""A deadline for the request body: 408 for a client that sends it too slowly (``REQUEST_BODY_TIMEOUT``).

Under gevent a slow body costs a greenlet, not a thread, but would hold its connection as long as the
client likes. The deadline is a ``gevent.Timeout`` around each read for the time left: a socket timeout
bounds each ``recv``, and gunicorn's reader loops over as many as it takes. Under gevent only.
"""
import time

from gevent import Timeout, monkey
from werkzeug.exceptions import RequestTimeout

DEFAULT_SECONDS = 30
TOO_SLOW = "The request body did not arrive in time."


class DeadlineInput:
    """``wsgi.input`` whose reads fail with 408 once ``deadline`` (``time.monotonic``) has passed."""

    def __init__(self, stream, deadline: float):
        self.stream, self.deadline = stream, deadline

    def read(self, size=-1):
        return self._before_deadline(self.stream.read, size)

    def readline(self, size=-1):
        return self._before_deadline(self.stream.readline, size)

    def readlines(self, hint=-1):
        return self._before_deadline(self.stream.readlines, hint)

    def __iter__(self):
        return iter(self.readline, b"")

    def _before_deadline(self, read, size):
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise RequestTimeout(TOO_SLOW)
        with Timeout(left, RequestTimeout(TOO_SLOW)):
            return read(size)


class BodyDeadline:
    """WSGI middleware giving each request's body a deadline of ``seconds`` (see the module docstring)."""

    def __init__(self, app, seconds: float):
        self.app, self.seconds = app, seconds

    def __call__(self, environ, start_response):
        if self.seconds and monkey.is_module_patched("socket"):
            environ["wsgi.input"] = DeadlineInput(environ["wsgi.input"], time.monotonic() + self.seconds)
        return self.app(environ, start_response)


def init_app(app) -> None:
    app.config.setdefault("REQUEST_BODY_TIMEOUT", DEFAULT_SECONDS)
    app.wsgi_app = BodyDeadline(app.wsgi_app, float(app.config["REQUEST_BODY_TIMEOUT"]))
