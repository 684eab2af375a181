"""How POST /api/sessions/<id>/hands writes (issue 7): the Idempotency-Key is checked by the INSERT itself
(``store.append_entry``), and looked up only when the INSERT finds it taken or the recorder refuses the
hand, so a retry still gets its first answer.
"""
from tests.api.tables import DRAW, Table, assert_matches_replay, assert_rejected, discard, self_draw


def test_a_retry_gets_its_first_answer_even_when_the_table_has_moved_on_since(app, client):
    table = Table(client)
    first = table.hand(self_draw("Dan", 1), **{"Idempotency-Key": "dan-wins"})
    assert first.status_code == 201
    assert table.seat(3, "Eve").status_code == 201  # Dan leaves: the same hand now would be refused
    assert_rejected(table.hand(self_draw("Dan", 1)), "winners[0].player", "'Dan' is not seated")
    retry = table.hand(self_draw("Dan", 1), **{"Idempotency-Key": "dan-wins"})
    assert (retry.status_code, retry.get_json()) == (201, first.get_json())
    assert [hand["number"] for hand in table.hands()] == [1]
    assert_matches_replay(app, table)


def test_a_used_key_with_a_body_that_is_invalid_now_is_422_for_the_key(client):
    table = Table(client)
    assert table.hand(DRAW, **{"Idempotency-Key": "k"}).status_code == 201
    before = table.snapshot()
    response = table.hand(discard("Amy", "Amy"), **{"Idempotency-Key": "k"})
    assert_rejected(response, "Idempotency-Key", "already used", "hand 1")
    assert table.snapshot() == before
