"""The database down or busy: 503 with ``Retry-After`` and a JSON message, and one log line per request.

A lost or refused connection, an exhausted pool or SQLite's "database is locked" is no bug of the
request: the client should try again shortly (``is_unavailable``). A full disk is a 507 with a longer
``Retry-After`` (space comes back when someone frees it); the transaction was rolled back whole, so the
next request once there is room succeeds (``tests/api/http/test_disk_full.py``). Any other database
error (a missing table, a constraint) stays a 500 with its traceback: those are bugs.
"""
import sqlite3

from flask import current_app, request
from sqlalchemy import exc

from api.http.language import say

DEFAULT_RETRY_AFTER_S = 5
DISK_FULL_RETRY_AFTER_S = 60
SQLITE_FULL = "database or disk is full"
PG_DISK_FULL = "53100"
MESSAGE = "The database is unavailable for the moment; nothing was changed. Try again in {} s."


def is_unavailable(error: exc.SQLAlchemyError | sqlite3.OperationalError) -> bool:
    """True when ``error`` says the database cannot be reached or is busy; SQLite's "locked" from ``BEGIN
    IMMEDIATE`` arrives as pysqlite raised it (begun on the driver's connection)."""
    if isinstance(error, sqlite3.OperationalError):
        return "database is locked" in str(error)
    if isinstance(error, exc.TimeoutError | exc.InterfaceError):
        return True
    if not isinstance(error, exc.OperationalError):
        return False
    if error.connection_invalidated:
        return True
    if isinstance(error.orig, sqlite3.OperationalError):
        return "database is locked" in str(error.orig)
    return True  # PostgreSQL's OperationalError: the connection, the server, not the statement


def is_full(error: exc.SQLAlchemyError | sqlite3.OperationalError) -> bool:
    """True when ``error`` says the database's disk is full."""
    cause = getattr(error, "orig", None) or error
    if isinstance(cause, sqlite3.OperationalError):
        return SQLITE_FULL in str(cause)
    return getattr(cause, "sqlstate", None) == PG_DISK_FULL


def disk_full(error) -> tuple:
    retry_after = current_app.config["DISK_FULL_RETRY_AFTER"]
    cause = str(getattr(error, "orig", None) or error).strip().splitlines()[0]
    current_app.logger.warning("507 %s %s: disk full: %s", request.method, request.path, cause)
    return ({"code": 507, "status": "Insufficient Storage", "message": say("disk_full", seconds=retry_after)}, 507,
            {"Retry-After": str(retry_after)})


def database_unavailable(error: exc.SQLAlchemyError | sqlite3.OperationalError):
    if is_full(error):
        return disk_full(error)
    if not is_unavailable(error):
        raise error  # Flask's 500 handling, traceback logged
    retry_after = current_app.config["DATABASE_RETRY_AFTER"]
    cause = str(getattr(error, "orig", None) or error).strip().splitlines()[0]
    current_app.logger.warning("503 %s %s: database unavailable: %s", request.method, request.path, cause)
    return ({"code": 503, "status": "Service Unavailable", "message": MESSAGE.format(retry_after)}, 503,
            {"Retry-After": str(retry_after)})


def init_app(app) -> None:
    app.config.setdefault("DATABASE_RETRY_AFTER", DEFAULT_RETRY_AFTER_S)
    app.config.setdefault("DISK_FULL_RETRY_AFTER", DISK_FULL_RETRY_AFTER_S)
    for error in (exc.OperationalError, exc.InterfaceError, exc.TimeoutError, sqlite3.OperationalError):
        app.register_error_handler(error, database_unavailable)
