"""Errors raised by the ledger; the API turns them into 422 JSON responses."""
from words import ENGLISH, word


class LedgerError(ValueError):
    """A request the ledger cannot carry out; `message` says why, `field` where."""

    def __init__(self, message, field=None):
        super().__init__(message)
        self.message = message
        self.field = field

    #: The hand of a replay that was refused (a void or correction making a later hand impossible), if any.
    hand: int | None = None

    def located(self, message: str, field: str | None, hand: int | None = None) -> "LedgerError":
        """The same refusal said of a place further out (a winner, a hand of a replay): its kind and what it
        carries (`SwitchedOff.pattern`) kept, its English message and field made longer, its `hand` named."""
        error = type(self).__new__(type(self), message)  # not __init__: a subclass takes other arguments
        error.__dict__.update(self.__dict__, message=message, field=field)
        if hand is not None:
            error.hand = hand
        return error


class InvalidHand(LedgerError):
    """A hand that cannot be scored as given (wrong tiles, counts, winner…)."""


class InvalidRequest(LedgerError):
    """A well-formed request whose values are not valid."""


class SwitchedOff(InvalidRequest):
    """A win event of the rule set that this table's house rules switched off: not "unknown", the table chose
    not to play it. The API words it (``api.switched_off``); `message` is the English."""

    def __init__(self, ruleset: str, pattern: str, field: str | None = None):
        super().__init__(f"{pattern!r} is switched off at this table (its house rules do not play it)", field)
        self.ruleset = ruleset
        self.pattern = pattern


class Worded(InvalidRequest):
    """A refusal the words tables word (``api.<key>`` with ``values``): the API says it in the reader's
    language (``api.http.errors``); ``message`` is the English."""

    def __init__(self, key: str, field: str | None = None, **values):
        super().__init__(word(ENGLISH, f"api.{key}", **values), field)
        self.key = key
        self.values = values

    def __reduce__(self):
        """Pickled by its words (a draw computed in another process: ``api.http.offload.apart_value``)."""
        return _worded, (self.key, self.field, self.values)


def _worded(key: str, field: str | None, values: dict) -> Worded:
    return Worded(key, field, **values)
