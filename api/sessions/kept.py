"""The answer to ``GET /api/sessions/<id>``, built once per revision and kept (issue 44 item 2).

Phones poll their evening every few seconds and its answer changes only with its revision, which every
change of the evening's row or entries moves on. Each process keeps, per evening, token level and group,
the last answer's bytes and the revision they show; a poll whose token check (which reads the revision,
``api.http.auth``) finds that revision kept costs the check and a write of the bytes. The revision is the
database's, so what one process kept is never stale after another's change. A competition's table is not
kept (its round's clock is in the answer). At most ``STATE_KEPT_EVENINGS`` answers a process, the least
recently read dropped first.
"""
import threading
from collections import OrderedDict
from collections.abc import Hashable

from flask import Response, current_app

DEFAULTS = {"STATE_KEPT_EVENINGS": 20_000}
EXTENSION = "taizhang.kept_answers"


class KeptAnswers:
    """Each key's last answer (bytes) and the revision it shows, at most ``capacity`` keys."""

    def __init__(self, capacity: int):
        self.capacity = capacity
        self._kept: OrderedDict[Hashable, tuple[int, bytes]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, revision: int) -> bytes | None:
        """The answer kept for ``key`` if it shows ``revision``, else None."""
        with self._lock:
            kept = self._kept.get(key)
            if kept is None or kept[0] != revision:
                return None
            self._kept.move_to_end(key)
            return kept[1]

    def keep(self, key: Hashable, revision: int, body: bytes) -> None:
        with self._lock:
            self._kept[key] = (revision, body)
            self._kept.move_to_end(key)
            while len(self._kept) > self.capacity:
                self._kept.popitem(last=False)


def kept_answers() -> KeptAnswers:
    return current_app.extensions[EXTENSION]


def json_answer(body: bytes) -> Response:
    """A 200 of JSON ``body`` as ``flask.jsonify`` would send it."""
    return current_app.response_class(body, mimetype=current_app.json.mimetype)


def init_app(app) -> None:
    for name, value in DEFAULTS.items():
        app.config.setdefault(name, value)
    app.extensions[EXTENSION] = KeptAnswers(int(app.config["STATE_KEPT_EVENINGS"]))
