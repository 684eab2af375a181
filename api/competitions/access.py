"""A competition's two tokens, and the tokens of its tables (API.md: Competitions).

The organiser token does everything, the read-only one reads; only their SHA-256 is kept. A table's
tokens are an HMAC of the organiser token and the table's evening id (``table_tokens``), so the organiser
can be shown every table's links again (the cards are printed from them) while only hashes are stored; a
table's token scores that table and nothing more (``api.http.auth.OWNER``). New links for a table are
derived with their count (``TableRow.links``).
"""
import base64
import functools
import hashlib
import hmac

from flask import g
from flask_smorest import abort

from api.http.auth import ORGANIZER, CLIENT_HEADER, SecuredBlueprint, bearer_token, end_read_and_take_body, \
    token_matches
from api.http.db import get_db
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


def table_tokens(organizer_token: str, session_id: str, links: int = 0) -> tuple[str, str]:
    """The write and read-only tokens of the table whose evening is ``session_id``, after ``links`` renewals.

    >>> write, read = table_tokens("organiser", "ab" * 20)
    >>> write != read and table_tokens("organiser", "ab" * 20) == (write, read) != table_tokens("organiser", "ab" * 20, 1)
    True
    """
    renewal = f":{links}" if links else ""
    return tuple(base64.urlsafe_b64encode(hmac.new(organizer_token.encode(), f"{kind}:{session_id}{renewal}".encode(),
                                                   hashlib.sha256).digest()).rstrip(b"=").decode()
                 for kind in ("write", "read"))


def current_competition() -> competition_store.CompetitionRow:
    """The competition of a ``competition_token`` route, its token checked."""
    return g.competition


class CompetitionBlueprint(SecuredBlueprint):
    """A Blueprint of ``/api/competitions/<competition_id>…`` whose operations need one of its tokens."""

    def competition_token(self, need: str = READ, *, in_query: bool = False):
        """Check the competition's token (``need``: ``ORGANIZER`` or ``READ``) before anything else, and document it;
        a change then ends the read, and its service checks the token again under the lock."""

        def decorate(function):
            changing = function.__name__.upper() != "GET"

            @functools.wraps(function)
            def checked(*args, **kwargs):
                competition_id = kwargs["competition_id"]
                competition = competition_store.find_competition(get_db(), competition_id)
                g.access = competition_access(bearer_token(in_query), competition, competition_id, need)
                g.competition = competition
                if changing:
                    end_read_and_take_body()
                return function(*args, **kwargs)

            documented = self._document(checked, ERRORS)
            if changing:
                documented = self.doc(parameters=[CLIENT_HEADER])(documented)
            return documented

        return decorate

