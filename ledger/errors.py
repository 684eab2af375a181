"""Errors raised by the ledger; the API turns them into 422 JSON responses."""


class LedgerError(ValueError):
    """A request the ledger cannot carry out; `message` says why, `field` where."""

    def __init__(self, message, field=None):
        super().__init__(message)
        self.message = message
        self.field = field


class InvalidHand(LedgerError):
    """A hand that cannot be scored as given (wrong tiles, counts, winner…)."""


class InvalidRequest(LedgerError):
    """A well-formed request whose values are not valid."""
