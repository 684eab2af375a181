"""Marshmallow fields every resource's schemas use: strict booleans, names, numbers bounded by a setting.

Schemas check the *shape* of a request; the ledger checks what it means.
"""
import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import marshmallow as ma
from marshmallow import ValidationError, fields, validate

from api.http.limits import DEFAULTS, limit
from api.http.language import request_language
from api.http.text import name_problem, normal_name
from ledger.payments import MAX_STAKE
from ledger.store import as_utc
from words import ENGLISH, word

TIMESTAMP = {"format": "date-time", "description": "ISO 8601, UTC"}
EARLIEST = datetime.datetime(2000, 1, 1, tzinfo=datetime.timezone.utc)  # before Taizhang, and any phone
CLOCK_SKEW = datetime.timedelta(minutes=5)  # the exporting server's clock may run a little ahead of ours
# Row ids (payments, seasons), hand numbers and revisions live in 32-bit INTEGER columns: PostgreSQL refuses a
# larger number in a query ("integer out of range", a 500), so a larger one is refused, or is no row, before
# any query (tests/api/http/test_parameters.py).
ROW_ID_MAX = 2**31 - 1


# api.http.text.name_problem's kinds -> their messages
NAME_PROBLEMS = {"private_use": "api.name_private_use", "noncharacter": "api.name_noncharacter",
                 "unassigned": "api.name_unassigned", "mixed_scripts": "api.name_mixed_scripts"}


class StrictBoolean(fields.Boolean):
    """JSON ``true`` or ``false`` only: ``"yes"``, ``1`` or ``"on"`` are refused, not guessed at (by type: ``1``
    and ``0`` equal ``True`` and ``False`` in Python, so a set of those would take them)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool):
            return value
        raise self.make_error("invalid", input=value)


class Name(fields.String):
    """A name, kept normalised (NFC, trimmed): 1 to ``max_length`` characters (a config key or a number), checked
    as sent (what the OpenAPI document states) and once normalised (what is kept)."""

    default_error_messages = {"blank": "A name must be non-empty text, not only spaces.",
                              "too_long": "At most {maximum} characters."}

    def __init__(self, *, max_length: str | int = "MAX_NAME_LENGTH", **kwargs):
        self.max_length = max_length
        documented = DEFAULTS[max_length] if isinstance(max_length, str) else max_length
        metadata = {"minLength": 1, "maxLength": documented, "pattern": r"\S",
                    "description": "Trimmed and NFC-normalised; no control or invisible format characters",
                    **kwargs.pop("metadata", {})}
        super().__init__(metadata=metadata, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        sent = super()._deserialize(value, attr, data, **kwargs)
        name = normal_name(sent)
        if not name:
            raise self.make_error("blank")
        maximum = limit(self.max_length) if isinstance(self.max_length, str) else self.max_length
        if max(len(sent), len(name)) > maximum:
            raise self.make_error("too_long", maximum=maximum)
        problem = name_problem(name)
        if problem is not None:
            key, values = problem
            raise ValidationError(word(request_language(ENGLISH), NAME_PROBLEMS[key], name=name, **values))
        return name


class Day(fields.Date):
    """A day, YYYY-MM-DD; anything else refused in the reader's language (a period's ``from`` and ``to``)."""

    def _deserialize(self, value, attr, data, **kwargs):
        try:
            return super()._deserialize(value, attr, data, **kwargs)
        except ValidationError:
            raise ValidationError(word(request_language(ENGLISH), "api.not_a_day", value=str(value))) from None


class Bounded(fields.Integer):
    """A whole number from ``minimum`` up to the app's setting ``limit_key`` (``api.http.limits``)."""

    default_error_messages = {"range": "Must be a whole number from {minimum} to {maximum}."}

    def __init__(self, *, minimum: int, limit_key: str, **kwargs):
        self.minimum, self.limit_key = minimum, limit_key
        metadata = {"minimum": minimum, "maximum": DEFAULTS[limit_key], **kwargs.pop("metadata", {})}
        super().__init__(metadata=metadata, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        number = super()._deserialize(value, attr, data, **kwargs)
        maximum = limit(self.limit_key)
        if not self.minimum <= number <= maximum:
            raise self.make_error("range", minimum=self.minimum, maximum=maximum)
        return number


class BoundedList(fields.List):
    """A list of at most the app's setting ``limit_key`` items (``api.http.limits``), refused in the reader's
    language past it (checked before its items are)."""

    def __init__(self, inner, *, limit_key: str, **kwargs):
        self.limit_key = limit_key
        metadata = {"maxItems": DEFAULTS[limit_key], **kwargs.pop("metadata", {})}
        super().__init__(inner, metadata=metadata, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        maximum = limit(self.limit_key)
        if isinstance(value, list) and len(value) > maximum:
            raise ValidationError(word(request_language(ENGLISH), "api.too_many_items", count=len(value),
                                       maximum=maximum))
        return super()._deserialize(value, attr, data, **kwargs)


def configured_limits(app):
    """An apispec attribute function: the OpenAPI document states this app's limits, not the defaults."""

    def limits(converter, field, **kwargs) -> dict:
        if isinstance(field, Name) and isinstance(field.max_length, str):
            return {"maxLength": app.config[field.max_length]}
        if isinstance(field, Bounded):
            return {"maximum": app.config[field.limit_key]}
        if isinstance(field, BoundedList):
            return {"maxItems": app.config[field.limit_key]}
        return {}

    return limits


def strict_int(description: str, metadata: dict | None = None, **kwargs) -> fields.Integer:
    """A JSON integer (``3.0`` or ``"3"`` refused); ``metadata`` documents ranges the ledger checks."""
    return fields.Integer(strict=True, metadata={"description": description, **(metadata or {})}, **kwargs)


def amounts(description: str) -> fields.Dict:
    """Money by player name (an answer's totals or payments)."""
    return fields.Dict(keys=fields.String(), values=fields.Integer(), required=True,
                       metadata={"description": description})


class Timestamp(fields.AwareDateTime):
    """An ISO 8601 date-time with its UTC offset, read back in UTC, from 2000 up to now (``CLOCK_SKEW`` allowed):
    an import holds what happened, nothing else."""

    default_error_messages = {"range": "Must be a moment from 2000-01-01 up to now (in UTC), not {value}."}

    def _deserialize(self, value, attr, data, **kwargs):
        moment = super()._deserialize(value, attr, data, **kwargs)
        try:
            moment = moment.astimezone(datetime.timezone.utc)
        except OverflowError:
            raise self.make_error("range", value=value) from None
        if not EARLIEST <= moment <= datetime.datetime.now(datetime.timezone.utc) + CLOCK_SKEW:
            raise self.make_error("range", value=value)
        return moment


def timestamp(description: str, **kwargs) -> Timestamp:
    """An ISO 8601 date-time with its UTC offset (read back in UTC, from 2000 up to now)."""
    return Timestamp(format="iso", metadata={"description": description}, **kwargs)


def utc_iso(moment: datetime.datetime) -> str:
    """ISO 8601 in UTC, as every answer gives times.

    >>> utc_iso(datetime.datetime(2026, 11, 29, 20, 5))
    '2026-11-29T20:05:00+00:00'
    """
    return as_utc(moment).isoformat()


def valid_time_zone(name: str) -> None:
    """A marshmallow validator: `name` must be an IANA time zone this server knows."""
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as error:
        raise ma.ValidationError(f"unknown time zone {name!r}; give an IANA name such as Asia/Taipei") from error


class StakesSchema(ma.Schema):
    base = strict_int("底 (taiwan, taiwan_zz) or 底分 (shanghai): a positive whole amount", required=True,
                      validate=validate.Range(1, MAX_STAKE, error="stakes base must be a whole number from {min} "
                                                                  "to {max}, not {input!r}"))
    per_tai = strict_int("台: a positive whole amount per 台 (taiwan, taiwan_zz only; 0 or left out in shanghai)",
                         validate=validate.Range(0, MAX_STAKE, error="stakes per_tai must be a whole number from 1 "
                                                                     "to {max} (0 in shanghai), not {input!r}"))
