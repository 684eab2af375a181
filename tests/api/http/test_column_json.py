"""The text of the JSON columns (``api.db.column_json``): compact, names as UTF-8, read back exactly.

A session's players, stakes, options, state and totals, and each hand's body,
result and stored answer are JSON columns; rows written by ``json.dumps``'s
defaults (\\u escapes, spaces) before read back the same.
"""
import json

from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import text

from api.http import db
from tests.api.sessions.tables import Table, self_draw

# Text as it can reach a column: every character but lone surrogates, which the schemas refuse.
stored_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | stored_text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(stored_text, inner, max_size=4),
    max_leaves=20,
)


@given(json_values)
def test_every_value_reads_back_as_it_was_written(value):
    assert json.loads(db.column_json(value)) == value


def test_the_text_is_compact_and_names_are_utf8():
    assert db.column_json({"players": ["張三", "Ben"], "totals": {"張三": -160, "Ben": 480}}) == (
        '{"players":["張三","Ben"],"totals":{"張三":-160,"Ben":480}}')


def raw_players(app, session_id):
    """The players column's text as the database holds it."""
    cast = "CAST(players AS TEXT)" if db.get_engine(app).dialect.name == "postgresql" else "players"
    with db.get_engine(app).connect() as connection:
        return connection.execute(text(f"SELECT {cast} FROM sessions WHERE id = :id"), {"id": session_id}).scalar()


def test_a_session_with_chinese_names_is_stored_as_utf8_and_read_back(client, app):
    players = ["張三", "李四", "Cat", "Dan"]
    table = Table(client, players=players)
    table.hands_ok(self_draw("張三", 2))
    assert raw_players(app, table.id) == '["張三","李四","Cat","Dan"]'
    state = table.get()
    assert state["players"] == players
    # 張三 deals: 2 台 + 1 for the dealer = 3 台, 100 + 3 × 20 = 160 from each of the three others
    assert state["totals"] == {"張三": 480, "李四": -160, "Cat": -160, "Dan": -160}


def test_rows_written_by_json_dumps_are_read(client, app):
    table = Table(client, players=["張三", "李四", "Cat", "Dan"])
    with db.get_engine(app).begin() as connection:
        connection.execute(text("UPDATE sessions SET players = :old WHERE id = :id"),
                           {"old": json.dumps(["張三", "李四", "Cat", "Dan"]), "id": table.id})
    assert raw_players(app, table.id) == '["\\u5f35\\u4e09", "\\u674e\\u56db", "Cat", "Dan"]'
    assert table.get()["players"] == ["張三", "李四", "Cat", "Dan"]
