"""Fuzzing (issue 7): the served OpenAPI document against the app, and garbage hands through /api/score.

- schemathesis generates requests for every operation of ``/api/openapi.json``,
  both fitting the documented schemas and breaking them. Every response must be
  no 5xx, a documented status with the documented content type, headers and
  body schema, and a request that breaks the documented schema must be refused.
  Session operations run on one evening (their ``session_id`` and token are
  filled in), so they reach the code behind the token check; group operations
  on one group with four members, an evening and a payment (``group_id``, the
  admin token and, half the time, a real ``member`` and ``payment_id``), so
  that generated members, payment numbers, seasons and headers (``If-Match``,
  ``X-Client``, ``Idempotency-Key``, ``Last-Event-ID``) reach the queries
  (issue 27: ``members/%00``, ``payments/2147483648``, ``season=10**20``,
  ``If-Match: ""`` were 500s found from outside). ``make fuzz`` sends each
  generated request to SQLite and then to PostgreSQL (generating it is paid
  once); ``make test`` to SQLite alone, as what PostgreSQL alone refuses (NUL,
  wide integers and strings, bad UTF-8, dates) has explicit tests on both:
  test_text.py, test_parameters.py, test_column_widths.py, test_limits.py.
- hypothesis throws garbage hands at ``/api/score``: random tile text, melds,
  flags, winds, options and rule sets, and legal worked hands with tiles added,
  removed or swapped. The answer is a 200 whose total is the sum of its
  patterns (in 台), or a 422 with a message; never anything else.
"""
import contextlib
import json
from pathlib import Path
from typing import NamedTuple

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import CHECKS as REGISTERED_CHECKS
from schemathesis.checks import CoverageScenario, load_all_checks
from schemathesis.core.parameters import ParameterLocation
from schemathesis.generation.meta import CoveragePhaseData

from api import create_app
from api.http import db
from tests.api.groups.groups import Club
from tests.api.sessions.tables import Table, discard, self_draw
from tests.databases import app_on, fresh_database_url
from tests.fuzzing import databases, deep_run, examples

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"
load_all_checks()
CHECKS = REGISTERED_CHECKS.get_all()  # every check the installed schemathesis has
EXAMPLES_PER_OPERATION = examples(bounded=5, deep=25)

sqlite_only = pytest.mark.parametrize("database_kind", ["sqlite"], indirect=True)


def served_spec() -> dict:
    """The OpenAPI document exactly as the app serves it (from an app on a throw-away in-memory database)."""
    app = create_app({"TESTING": True, "DATABASE_URL": "sqlite://"})
    try:
        return app.test_client().get("/api/openapi.json").get_json()
    finally:
        db.dispose(app)


schema = schemathesis.openapi.from_dict(served_spec())
# A request whose shape is valid may still mean nothing at this table (a player who is not seated, tiles that are
# no win, `reason` without a draw): the schema cannot say so, and the documented answer is a 422 naming the field.
# A well-shaped change may also come after another phone's (412, a stale If-Match) or after closing (409).
schema.config.checks.positive_data_acceptance.expected_statuses = ["2xx", "401", "403", "404", "409", "412", "422"]
TRIED: dict[str, set] = {}  # operation → the coverage scenarios and places sent so far (make test)


@schema.hook
def filter_case(context, case) -> bool:
    """``make test`` sends each of schemathesis's coverage scenarios once per place it applies to (a field, a
    header, a method), not every variant (each wrong type of each field: most of the module's requests);
    ``make fuzz`` sends them all. A request without the token is such a place, so it is always sent."""
    data = case.meta.phase.data if case.meta else None
    if deep_run() or not isinstance(data, CoveragePhaseData):
        return True
    place = (data.scenario, data.location, data.parameter, data.parameter_location)
    tried = TRIED.setdefault(case.operation.label, set())
    if place in tried:
        return False
    tried.add(place)
    return True


def evening_on(app) -> Table:
    """A session with two hands, so hand 1 exists for GET, PUT and DELETE (and its event stream ends at once)."""
    app.config.update(EVENTS_STREAM_S=0.3, EVENTS_HEARTBEAT_S=0.1)
    table = Table(app.test_client())
    table.hands_ok(discard("Ben", "Cat", 3), self_draw("Ben", 2))
    return table


def club_on(app) -> Club:
    """A group with four members, an evening of theirs with a hand, and a payment."""
    club = Club(app.test_client())
    for name in ("Amy", "Ben", "Cat", "Dan"):
        club.add(name)
    evening = club.evening(["Amy", "Ben", "Cat", "Dan"])
    evening.win("Amy", "Ben")
    club.evening_id = evening.id  # (an example that deletes it leaves the rest a 404)
    assert club.pay("Ben", "Amy", 120).status_code == 201
    return club


class Target(NamedTuple):
    kind: str
    app: object
    evening: Table
    club: Club


@pytest.fixture
def targets(request, shared_apps, tmp_path):
    """The app on each database of ``databases()``, each with its evening and its group: every generated
    request goes to each, so that generating it (most of the fuzzing's time) is paid once for them all."""
    with contextlib.ExitStack() as stack:
        found = []
        for kind in databases():
            url = fresh_database_url(request, kind, tmp_path)
            app = stack.enter_context(app_on(shared_apps, kind, url))
            found.append(Target(kind, app, evening_on(app), club_on(app)))
        yield found


@schema.parametrize()
@settings(max_examples=EXAMPLES_PER_OPERATION, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
def test_every_operation_answers_as_documented(case, targets):
    generated = dict(case.path_parameters or {})
    for target in targets:
        case.path_parameters = dict(generated)
        try:
            call_and_validate(case, target)
        except BaseException as error:
            error.add_note(f"on {target.kind}")
            raise


def call_and_validate(case, target: Target) -> None:
    app, evening, club = target.app, target.evening, target.club
    case.operation.schema.app = app  # the checks' own probes (a request without the token, …) go to it too
    token = {}
    path = case.path_parameters
    valid_path = not case.meta.is_negative_at(ParameterLocation.PATH)
    gives_token = not leaves_out_the_token(case) and not case.meta.is_negative_at(ParameterLocation.HEADER)
    if "group_id" in path and valid_path:
        path["group_id"] = club.id
        if "session_id" in path:
            path["session_id"] = club.evening_id
        half_the_time = len(str(path.get("member", path.get("payment_id", "")))) % 2 == 0
        if "member" in path and half_the_time:
            path["member"] = "Amy"
        if "payment_id" in path and half_the_time:
            path["payment_id"] = 1
        if gives_token:
            token = club.headers("admin")
    elif "session_id" in path and valid_path:
        path["session_id"] = evening.id
        if gives_token:
            token = {"Authorization": f"Bearer {evening.token}"}  # given, not generated: a valid token
    # Plain answers: schemathesis's WSGI transport does not decode a compressed body (Flask-Compress answers
    # the encodings its requests offer); compression has its own tests (tests/api/http/test_compression.py).
    case.call_and_validate(app=app, headers={**token, "Accept-Encoding": "identity"}, checks=CHECKS)


def leaves_out_the_token(case) -> bool:
    """The case schemathesis made to see that a request without ``Authorization`` is refused."""
    data = getattr(case.meta.phase, "data", None) if case.meta else None
    return (getattr(data, "parameter", None) or "").lower() == "authorization" and (
        getattr(data, "scenario", None) == CoverageScenario.MISSING_PARAMETER)


# -- garbage hands through /api/score ---------------------------------------------------------

TILE_TEXT = st.text(alphabet="0123456789mpszfMPSZ東南西北中發白紅梅蘭竹菊春夏秋冬萬筒條索 ,x-", max_size=40)
TILES = st.one_of(TILE_TEXT, st.lists(TILE_TEXT, max_size=20), st.none(), st.integers(), st.booleans())
ANY_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner,
                                                                                    max_size=3), max_leaves=6)
RULESETS = st.sampled_from(["taiwan", "taiwan_zz", "shanghai"]) | st.text(max_size=10)
WINDS = st.sampled_from(["E", "S", "W", "N"]) | st.text(max_size=2)
OPTION_NAMES = ["dealer_bonus", "multiple_winners", "max_tai", "see_flower_see_word"]
GARBAGE_EXAMPLES = examples(bounded=60, deep=400)
EVENTS = ["heavenly_win", "earthly_win", "heavenly_ready", "earthly_ready", "eight_flowers", "seven_flowers_rob"]


def optional(**fields):
    """A dict with any subset of ``fields`` (each a strategy)."""
    return st.fixed_dictionaries({}, optional=fields)


MELDS = st.lists(optional(kind=st.sampled_from(["chow", "pung", "kong"]) | ANY_JSON, tiles=TILES,
                          concealed=st.booleans() | ANY_JSON), max_size=7)
GARBAGE_REQUESTS = st.fixed_dictionaries(
    {"ruleset": RULESETS,
     "hand": optional(concealed=TILES, melds=MELDS, winning_tile=TILES, flowers=TILES)},
    optional={
        "win": optional(by=st.sampled_from(["discard", "self_draw", "robbing_kong"]) | ANY_JSON,
                        after_kong=st.booleans(), last_tile=st.booleans(), declared_ready=st.booleans(),
                        event=st.sampled_from(EVENTS) | st.none() | ANY_JSON),
        "seat_wind": WINDS, "round_wind": WINDS, "hand_wind": WINDS, "dealer": st.none() | st.booleans(),
        "options": st.dictionaries(st.sampled_from(OPTION_NAMES) | st.text(max_size=6), ANY_JSON, max_size=3),
    },
)


def worked_requests() -> list[dict]:
    """The legal requests of the worked-hand fixtures (their own checks say what they score)."""
    requests = []
    for path in sorted(FIXTURES.glob("worked_hands_*.json")):
        requests += [hand["request"] for hand in json.loads(path.read_text(encoding="utf-8"))["hands"]]
    return requests


def as_list(tiles) -> list[str]:
    """Tiles as a list of two-character codes (compact text expanded, suit letter after each run)."""
    if isinstance(tiles, list):
        return list(tiles)
    codes, digits = [], ""
    for char in tiles or "":
        if char.isdigit():
            digits += char
        else:
            codes += [digit + char for digit in digits]
            digits = ""
    return codes


@st.composite
def mutated_requests(draw):
    """A worked hand with tiles added, removed or swapped in its concealed tiles or winning tile."""
    request = json.loads(json.dumps(draw(st.sampled_from(worked_requests()))))
    hand = {key: value for key, value in (request.get("hand") or {}).items() if value is not None}
    request["hand"] = hand
    concealed = as_list(hand.get("concealed"))
    tile = st.builds(lambda n, s: f"{n}{s}", st.integers(1, 9), st.sampled_from("mps")) | st.builds(
        lambda n, s: f"{n}{s}", st.integers(0, 9), st.sampled_from("mpszf"))
    for _ in range(draw(st.integers(1, 3))):
        action = draw(st.sampled_from(["add", "remove", "swap", "swap", "swap", "winning"]))
        if action == "add" or not concealed:
            concealed.insert(draw(st.integers(0, len(concealed))), draw(tile))
        elif action == "remove":
            concealed.pop(draw(st.integers(0, len(concealed) - 1)))
        elif action == "swap":
            concealed[draw(st.integers(0, len(concealed) - 1))] = draw(tile)
        else:
            hand["winning_tile"] = draw(tile)
    hand["concealed"] = concealed
    return request


def assert_200_or_422(client, request):
    response = client.post("/api/score", json=request)
    assert response.status_code in (200, 422), (request, response.get_data(as_text=True))
    body = response.get_json()
    if response.status_code == 200 and body["unit"] == "tai":
        assert body["total"] == sum(pattern["value"] for pattern in body["patterns"]), (request, body)
    elif response.status_code == 422:
        assert isinstance(body["message"], str) and body["message"], (request, body)


@sqlite_only
@settings(max_examples=GARBAGE_EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(request=GARBAGE_REQUESTS)
def test_garbage_hands_are_422_never_500(client, request):
    assert_200_or_422(client, request)


@sqlite_only
@settings(max_examples=GARBAGE_EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(request=mutated_requests())
def test_worked_hands_with_tiles_added_removed_or_swapped_are_200_or_422(client, request):
    assert_200_or_422(client, request)
