"""The body a hand's or a seat change's schema loaded is what the service gets: names normalised (NFC, trimmed,
a full-width space too), nothing else of the body changed, and the request's own JSON left as it came.

Taiwanese stakes 底 100, 台 20; Amélie deals first (streak 0), so a payment between her and another player
adds 1 台 (RULES.md §6).
"""
from api.sessions import service
from api.sessions.schemas import HandBodySchema
from tests.api.sessions.tables import Table

PLAYERS = ["Amélie", "Ben", "Cat", "Dan"]
DECOMPOSED = "Ame\u0301lie "  # Amélie with a combining accent and a trailing space
FULL_WIDTH = "\u3000Ben"  # an ideographic space before Ben's name
# An exposed 南 pung, 123m 456m 789p 234s, waiting on 5s for the pair (as in test_hands.py).
SOUTH_PUNG = {"concealed": "123m456m789p234s5s", "melds": [{"kind": "pung", "tiles": "222z"}], "winning_tile": "5s"}


def received(monkeypatch, name: str) -> list:
    """Every body the service function ``name`` is called with, the call itself going on."""
    bodies = []
    real = getattr(service, name)

    def spy(db, session_id, *args):
        bodies.append(args[-3])
        return real(db, session_id, *args)

    monkeypatch.setattr(service, name, spy)
    return bodies


def test_a_posted_hand_reaches_the_service_as_its_schema_loaded_it(app, client, monkeypatch):
    table = Table(client, players=PLAYERS)
    bodies = received(monkeypatch, "record_hand")
    sent = {"winners": [{"player": DECOMPOSED, "hand": SOUTH_PUNG}], "by": "discard", "discarder": FULL_WIDTH}
    response = table.hand(sent)
    assert response.status_code == 201, response.get_json()
    # As sent, names normalised: not the nested schemas' defaults (melds' concealed, flowers, win's flags).
    normalised = {"winners": [{"player": "Amélie", "hand": SOUTH_PUNG}], "by": "discard", "discarder": "Ben"}
    with app.app_context():
        assert bodies == [normalised] == [HandBodySchema().load(sent)]
    assert sent["winners"][0]["player"] == DECOMPOSED  # loading leaves the document it read as it was
    # Amélie deals and sits 東 in 東局 of the 東 round: the 南 pung scores 0 台, plus the dealer extra 1;
    # Ben pays 100 + 20 × 1 = 120.
    stored = table.get("/hands/1")
    assert (stored["body"], stored["payments"]) == (normalised, {"Amélie": 120, "Ben": -120, "Cat": 0, "Dan": 0})


def test_a_correction_reaches_the_service_as_its_schema_loaded_it(client, monkeypatch):
    table = Table(client, players=PLAYERS)
    assert table.hand({"winners": [{"player": "Cat", "tai": 1}], "by": "self_draw"}).status_code == 201
    bodies = received(monkeypatch, "correct_hand")
    sent = {"winners": [{"player": "Cat\u3000", "tai": 1}], "by": "discard", "discarder": DECOMPOSED}
    response = table.correct(1, sent)
    assert response.status_code == 200, response.get_json()
    normalised = {"winners": [{"player": "Cat", "tai": 1}], "by": "discard", "discarder": "Amélie"}
    assert bodies == [normalised]
    # Dealer Amélie discards to Cat: she pays 100 + 20 × (1 + 1) = 140.
    assert (response.get_json()["body"], table.totals()) == (normalised, {"Amélie": -140, "Ben": 0, "Cat": 140,
                                                                          "Dan": 0})


def test_a_seat_change_reaches_the_service_with_its_name_normalised(client, monkeypatch):
    table = Table(client, players=PLAYERS)
    bodies = received(monkeypatch, "seat_player")
    response = table.seat(3, " Eve\u3000")
    assert response.status_code == 201, response.get_json()
    assert bodies == [{"seat": 3, "player": "Eve"}]
    assert table.session()["state"]["seats"] == ["Amélie", "Ben", "Cat", "Eve"]
