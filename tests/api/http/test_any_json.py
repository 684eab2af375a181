"""Any JSON at every JSON endpoint (issue 15, item 5): never a 5xx, and a refused request changes nothing.

hypothesis builds bodies of every shape: nested arrays and objects, integers
past 64 bits, NaN, text with NUL, lone surrogates, invisible characters and
over-long names, as whole bodies, as the fields of a valid body, or as one
value anywhere in a valid body (so that the checks behind the schema are
reached too), sometimes wrapped in up to 1,200 arrays. Each goes to score,
create session, record and correct a hand, seat change and import, on SQLite
(and PostgreSQL in ``make fuzz``: tests/fuzzing.py's ``databases``). A 4xx
must be JSON with a message and leave the sessions, their hands and audit,
and the number of sessions as they were; a body holding what
the API never takes (``refused``) must be a 4xx. (hypothesis raises the
recursion limit while it runs, so a 1,000-deep body parses here: the 400 for
it is tested without hypothesis, in test_text.py.)
"""
import json
import math
import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.api.sessions.tables import Table, discard, session_body
from tests.api.sessions.test_backup import draws_document
from tests.api.http.test_limits import sessions_count
from tests.fuzzing import databases, examples

ODD_TEXT = st.sampled_from(["\x00", "Amy\ud800", "\udfff", "Amy\u200b", "\ufeffAmy", "\u202eAmy", "\x1b[2J",
                            " Amy ", "Ame\u0301lie", "阿明", "B" * 41, "", "exhausted", "discard", "taiwan"])
TEXT = st.text(max_size=10) | ODD_TEXT
NUMBERS = (st.integers(-10, 10) | st.integers() | st.sampled_from([2**63 - 1, 2**63, -(2**63) - 1, 2**64, 10**300])
           | st.floats(allow_nan=True, allow_infinity=True))
LEAVES = st.none() | st.booleans() | NUMBERS | TEXT
ANY_JSON = st.recursive(LEAVES, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
                        max_leaves=12)
EXAMPLES = examples(bounded=25, deep=100)
INT64 = range(-(2**63), 2**63)


def refused(body, max_depth=32) -> bool:
    """Whether ``body`` holds anything the API never takes, wherever it is (issue 15, items 4 and 5).

    Control, format or surrogate characters in any text or key, an integer outside 64 bits,
    NaN or an infinity, or arrays and objects nested more than ``max_depth`` deep.
    """
    pending = [(body, 0)]
    while pending:
        value, depth = pending.pop()
        if depth > max_depth:
            return True
        texts = [value] if isinstance(value, str) else list(value) if isinstance(value, dict) else []
        if any(unicodedata.category(char) in ("Cc", "Cf", "Cs") for text in texts for char in text):
            return True
        if isinstance(value, int) and not isinstance(value, bool) and value not in INT64:
            return True
        if isinstance(value, float) and not math.isfinite(value):
            return True
        children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
        pending += [(child, depth + 1) for child in children]
    return False


def like(valid: dict):
    """Bodies shaped like ``valid``: each field kept, dropped or replaced by any JSON, maybe an extra field."""
    fields = {key: st.just(value) | ANY_JSON for key, value in valid.items()}
    return st.fixed_dictionaries({}, optional={**fields, "extra": ANY_JSON})


def paths(value, path=()):
    """Every place in ``value`` (a path of keys and indices), the whole value first."""
    yield path
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        yield from paths(item, path + (key,))


@st.composite
def one_place_changed(draw, valid: dict):
    """``valid`` with one value anywhere in it (a name in a list, a winner's field…) replaced by any JSON."""
    body = json.loads(json.dumps(valid))
    where = draw(st.sampled_from(list(paths(body))[1:]))
    parent = body
    for key in where[:-1]:
        parent = parent[key]
    parent[where[-1]] = draw(ODD_TEXT | NUMBERS | ANY_JSON)
    return body


def valid_bodies(table) -> dict:
    """One valid body for each JSON operation: (method, path) -> body."""
    return {
        ("POST", "/api/score"): {"ruleset": "taiwan", "hand": {"concealed": "123m456m789m123p5s", "winning_tile": "5s"},
                                 "win": {"by": "discard"}},
        ("POST", "/api/sessions"): session_body(),
        ("POST", f"{table.path}/hands"): discard("Ben", "Cat", 2),
        ("PUT", f"{table.path}/hands/1"): discard("Ben", "Cat", 3),
        ("POST", f"{table.path}/seats"): {"seat": 3, "player": "Eve"},
        ("POST", "/api/sessions/import"): draws_document(1),
    }


@pytest.fixture
def table(client):
    table = Table(client)
    table.hands_ok(discard("Ben", "Cat", 1))
    return table


def everything(app, table):
    """All a refused request must leave as it was."""
    return table.snapshot(), table.audit(), sessions_count(app)


OPERATIONS = ["POST /api/score", "POST /api/sessions", "POST hands", "PUT hands/1", "POST seats", "POST import"]


@pytest.mark.parametrize("database_kind", databases(), indirect=True)
@pytest.mark.parametrize("operation", range(len(OPERATIONS)), ids=OPERATIONS)
@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_any_json_is_answered_without_a_5xx_and_a_refusal_changes_nothing(app, client, table, operation, data):
    (method, path), valid = list(valid_bodies(table).items())[operation]
    body = data.draw(one_place_changed(valid) | like(valid) | ANY_JSON, label="body")
    wrapping = data.draw(st.sampled_from([0, 0, 0, 1, 31, 33, 1000, 1200]), label="arrays around it")
    text = "[" * wrapping + json.dumps(body) + "]" * wrapping  # json.dumps itself stops near 1,000 levels
    before = everything(app, table)
    response = client.open(path, method=method, data=text, content_type="application/json",
                           headers=table.headers())
    assert response.status_code < 500, (body, response.get_data(as_text=True))
    if refused(body, 32 - wrapping):
        assert 400 <= response.status_code < 500, (body, response.get_json())
    if response.status_code >= 400:
        assert isinstance(response.get_json()["message"], str), body
        assert everything(app, table) == before, body
