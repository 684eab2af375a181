"""The limits of what one request or one session may hold: app settings with documented defaults.

Each is a Flask config key (``create_app({"MAX_NAME_LENGTH": 30})``, or set on
``app.config`` before the first request) read through ``limit(key)``; the
defaults are set far above any real evening and far below what fills a disk
or stalls a worker. What each means (README.md, "Limits", says the same):

- ``MAX_NAME_LENGTH``: characters in a player's name, as sent and after
  normalisation (NFC, trimmed): sessions, seats, hands and imports.
- ``MAX_PARTICIPANTS``: people in one session's totals (everyone who ever
  sat); the seat change that would bring one more is refused. Settlement
  finds the exact fewest transfers for at most 16 (``ledger.settlement``),
  so this may be lowered, never raised past 16.
- ``MAX_HANDS``: hands in one session (recording one more is refused; an
  import with more is refused before its replay).
- ``MAX_IMPORT_BYTES``: the size of a document sent to ``POST /api/sessions/import`` (413 above).
- ``MAX_GROUP_IMPORT_BYTES``: the size of a whole group's document sent to ``POST /api/groups/import``.
- ``MAX_ROUND_TO``: the largest ``round_to`` of the settlement and the PDF.
- ``MAX_JSON_DEPTH``: how deeply arrays and objects may nest in any JSON
  body (a hand needs 5 levels, an import 7).
- ``HANDS_PAGE_LIMIT``: the largest ``limit`` of ``GET …/hands``.
"""
from flask import current_app

from ledger.settlement import MAX_EXACT_PARTICIPANTS

DEFAULTS = {
    "MAX_NAME_LENGTH": 40,
    "MAX_PARTICIPANTS": MAX_EXACT_PARTICIPANTS,
    "MAX_HANDS": 5_000,
    "MAX_IMPORT_BYTES": 2 * 1024 * 1024,
    "MAX_GROUP_IMPORT_BYTES": 64 * 1024 * 1024,
    "MAX_ROUND_TO": 1_000_000,
    "MAX_JSON_DEPTH": 32,
    "HANDS_PAGE_LIMIT": 1_000,
}


def limit(key: str) -> int:
    """The app's setting ``key`` (one of ``DEFAULTS``)."""
    return current_app.config[key]


def init_app(app) -> None:
    """Fill in the default of every limit the app's config does not set."""
    for key, value in DEFAULTS.items():
        app.config.setdefault(key, value)
    if app.config["MAX_PARTICIPANTS"] > MAX_EXACT_PARTICIPANTS:
        raise ValueError(f"MAX_PARTICIPANTS is at most {MAX_EXACT_PARTICIPANTS}: settlement cannot settle more")
