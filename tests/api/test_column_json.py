"""The text of the JSON columns (``api.db.column_json``, ``api.db.column_value``): orjson, read back exactly.

A session's players, stakes, options, state and totals, and each hand's body,
result and stored answer are JSON columns. orjson writes and reads them; what
it refuses goes to ``json``; rows written by ``json.dumps`` before read back the same.
"""
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import text

from api import db
from tests.api.tables import Table, self_draw

# Every character, lone surrogates included: a name sent as "\ud800" is such a string.
any_text = st.text(st.characters(codec=None, categories=None), max_size=12)
int64 = st.integers(min_value=-(2**63), max_value=2**64 - 1)
json_values = st.recursive(
    st.none() | st.booleans() | int64 | any_text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(any_text, inner, max_size=4),
    max_leaves=20,
)


@given(json_values)
def test_every_value_reads_back_as_it_was_written(value):
    assert db.column_value(db.column_json(value)) == value


@given(json_values)
def test_rows_written_by_json_dumps_before_read_back_the_same(value):
    assert db.column_value(json.dumps(value)) == value
    assert db.column_value(json.dumps(value).encode()) == value  # psycopg hands over bytes


def test_the_text_is_compact_and_names_are_utf8():
    assert db.column_json({"players": ["張三", "Ben"], "totals": {"張三": -160, "Ben": 480}}) == (
        '{"players":["張三","Ben"],"totals":{"張三":-160,"Ben":480}}')


def test_a_lone_surrogate_is_written_escaped_as_json_does():
    assert db.column_json(["Amy\ud800"]) == '["Amy\\ud800"]'
    assert db.column_value('["Amy\\ud800"]') == ["Amy\ud800"]


def test_integer_keys_become_strings_as_json_does():
    assert db.column_json({0: "first", 1: "second"}) == '{"0":"first","1":"second"}'


def test_the_widest_integers_read_back_as_integers():
    value = {"high": 2**64 - 1, "low": -(2**63)}
    assert db.column_value(db.column_json(value)) == value
    assert type(db.column_value(db.column_json(value))["high"]) is int


@pytest.mark.parametrize("wide", [2**64, -(2**63) - 1, 10**30])
def test_an_integer_past_64_bits_is_refused_not_read_back_as_a_float(wide):
    with pytest.raises(ValueError, match=f"cannot hold the integer {wide}"):
        db.column_json({"totals": {"Amy": [wide]}, "name": "Amy\ud800"})  # the surrogate: json's way


def test_what_json_refuses_is_still_refused():
    with pytest.raises(TypeError):
        db.column_json({"at": object()})


def raw_players(app, session_id):
    """The players column's text as the database holds it."""
    cast = "CAST(players AS TEXT)" if db.get_engine(app).dialect.name == "postgresql" else "players"
    with db.get_engine(app).connect() as connection:
        return connection.execute(text(f"SELECT {cast} FROM sessions WHERE id = :id"), {"id": session_id}).scalar()


# A lone surrogate in a name is refused at the door now (tests/api/test_text.py); rows that hold one
# from before are still written and read by ``json`` (test_a_lone_surrogate_is_written_escaped_as_json_does).
@pytest.mark.parametrize("players, stored", [
    (["張三", "李四", "Cat", "Dan"], '["張三","李四","Cat","Dan"]'),
])
def test_a_session_with_chinese_names_is_stored_and_read_back(client, app, players, stored):
    table = Table(client, players=players)
    table.hands_ok(self_draw("張三", 2))
    assert raw_players(app, table.id) == stored
    state = table.get()
    assert state["players"] == players
    # 張三 deals: 2 台 + 1 for the dealer = 3 台, 100 + 3 × 20 = 160 from each of the three others
    assert state["totals"] == {"張三": 480, "李四": -160, players[2]: -160, "Dan": -160}


def test_rows_written_by_json_dumps_are_read(client, app):
    table = Table(client, players=["張三", "李四", "Cat", "Dan"])
    with db.get_engine(app).begin() as connection:
        connection.execute(text("UPDATE sessions SET players = :old WHERE id = :id"),
                           {"old": json.dumps(["張三", "李四", "Cat", "Dan"]), "id": table.id})
    assert raw_players(app, table.id) == '["\\u5f35\\u4e09", "\\u674e\\u56db", "Cat", "Dan"]'
    assert table.get()["players"] == ["張三", "李四", "Cat", "Dan"]
