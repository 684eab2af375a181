"""A competition's two tokens, and the tokens of its tables (API.md: Competitions).

Creating a competition answers an organiser token (everything) and a read-only token (what a spectator
and the wall read), once; the database keeps their SHA-256, as for sessions and groups. A request is
refused without a token (401), with a token that is neither (403, never the data), and with the read-only
token on a change (403).

**A table's tokens** are not random: each is an HMAC of the organiser token and the table's evening id
(``api.http.auth.table_tokens``), and the evening keeps their hashes as any evening does. So the organiser, presenting
their token, can be shown every table's links again at any time (``GET /api/competitions/<id>``: the
cards are printed from them), while nothing but hashes is stored, and a table's token opens that table
only, and scores it and nothing more (``api.http.auth.OWNER``); the organiser's opens every table with
everything. New links it makes for a table are derived with their count (``TableRow.links``).
"""
from flask import g
from flask_smorest import abort

from api.http.auth import ORGANIZER, SecuredBlueprint, TokenCheck, token_matches
from api.http.language import say
from ledger import competition_store

READ = "read"
ERRORS = {401: "No bearer token", 403: "A token that does not open this competition, or its read-only token on "
                                       "a change", 404: "Unknown competition (or entrant, round of it)"}


def competition_level(token: str, competition: competition_store.CompetitionRow) -> str | None:
    """``ORGANIZER`` or ``READ``: which of the competition's tokens ``token`` is, else None (constant time)."""
    organizer = token_matches(token, competition.organizer_token_hash)
    read = token_matches(token, competition.read_token_hash)
    return ORGANIZER if organizer else READ if read else None


def competition_access(token: str, competition, competition_id: str, need: str) -> str:
    """The level of ``token`` on the competition if at least ``need``; else 404, 403."""
    if competition is None:
        abort(404, message=say("no_competition", competition_id=competition_id))
    level = competition_level(token, competition)
    if level is None:
        abort(403, message=say("wrong_competition_token"))
    if need == ORGANIZER and level != ORGANIZER:
        abort(403, message=say("competition_read_only"))
    return level


def current_competition() -> competition_store.CompetitionRow:
    """The competition of a ``competition_token`` route, its token checked."""
    return g.opened


COMPETITION_TOKEN = TokenCheck("competition_id", competition_store.find_competition, competition_access, ERRORS)


class CompetitionBlueprint(SecuredBlueprint):
    """A Blueprint of ``/api/competitions/<competition_id>…`` whose operations need one of its tokens."""

    def competition_token(self, need: str = READ, *, in_query: bool = False):
        """``token`` with the competition's tokens (``ORGANIZER`` or ``READ``)."""
        return self.token(COMPETITION_TOKEN, need, in_query=in_query)
