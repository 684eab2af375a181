"""A competition's documents rendered once per revision, and how often they, its draws and its ends may be asked.

The cards, the results sheet and the picture are kept per revision of the competition and of its tables
(``api.http.rendered``): the same revision asked again is not drawn again (the drawing functions are
counted), a new one is. Limits: ``RATE_LIMIT_DOCUMENTS`` per link over the three, ``RATE_LIMIT_ROUNDS`` per
competition over its draws, starts and ends, refused ones not counted (``api.http.ratelimits``).

Worked amounts as tests/api/competitions/test_competitions.py: at table 1 南 wins 3 台 on 西's discard,
100 + 20 × 3 = 160, so the sheet shows +160 once the hand is in and no 160 before.
"""
import pytest

from api.competitions import reports
from reports import competition
from tests.api.competitions.test_competitions import NAMES, ZH_HANS, ZH_HANT, entered
from tests.api.sessions.tables import discard
from tests.reports.poppler import pages


@pytest.fixture
def drawings(monkeypatch):
    """How many times each drawing function of the competition's documents ran."""
    counted = {"tables.pdf": 0, "report.pdf": 0, "standings.png": 0}

    def counting(name, function):
        def drawn(*args):
            counted[name] += 1
            return function(*args)
        return drawn

    monkeypatch.setattr(competition, "render_table_cards", counting("tables.pdf", competition.render_table_cards))
    monkeypatch.setattr(reports, "RENDERINGS", {name: counting(name, function)
                                                for name, function in reports.RENDERINGS.items()})
    return counted


def test_the_same_revisions_cards_are_drawn_once_and_a_new_revision_anew(client, drawings):
    cup = entered(client, NAMES[:8])
    cup.ok(cup.post("/rounds", {"seed": 3}), 201)
    first = client.get(f"{cup.path}/tables.pdf?lang=en", headers=cup.headers("organizer"))
    again = client.get(f"{cup.path}/tables.pdf?lang=en&token={cup.tokens['organizer']}")
    assert first.status_code == again.status_code == 200
    assert again.data == first.data and drawings["tables.pdf"] == 1
    assert "ends at" not in pages(first.data)[0]
    cup.ok(cup.post("/rounds/1/start"))  # a new revision: the cards now say when the round ends
    started = client.get(f"{cup.path}/tables.pdf?lang=en", headers=cup.headers("organizer"))
    assert drawings["tables.pdf"] == 2 and "This round ends at" in pages(started.data)[0]
    chinese = client.get(f"{cup.path}/tables.pdf", headers=cup.headers("organizer", ZH_HANS))
    assert drawings["tables.pdf"] == 3 and "第1桌" in pages(chinese.data)[0].replace(" ", "")


def test_the_sheet_and_the_picture_are_drawn_again_when_a_table_records_a_hand(client, drawings):
    cup = entered(client, NAMES[:8])
    drawn = cup.ok(cup.post("/rounds", {"seed": 3}), 201)
    cup.ok(cup.post("/rounds/1/start"))
    before = [client.get(f"{cup.path}/report.pdf?lang=en", headers=cup.headers("read")) for _ in range(3)]
    assert {response.status_code for response in before} == {200} and drawings["report.pdf"] == 1
    assert "160" not in "".join(pages(before[0].data))
    for _ in range(2):
        assert client.get(f"{cup.path}/standings.png?token={cup.tokens['read']}").status_code == 200
    assert drawings["standings.png"] == 1
    table = drawn["tables"][0]
    east, south, west, north = table["seats"]
    hand = client.post(f"/api/sessions/{table['session']}/hands", json=discard(south, west, 3),
                       headers={"Authorization": f"Bearer {table['token']}"})
    assert hand.status_code == 201
    after = client.get(f"{cup.path}/report.pdf?lang=en", headers=cup.headers("organizer"))
    assert drawings["report.pdf"] == 2 and "+160" in "".join(pages(after.data))
    assert client.get(f"{cup.path}/standings.png?token={cup.tokens['read']}").status_code == 200
    assert drawings["standings.png"] == 2


def test_documents_are_limited_per_link_in_the_readers_language(make_app):
    client = make_app(RATELIMIT_ENABLED=True, RATE_LIMIT_DOCUMENTS="3 per minute").test_client()
    cup = entered(client, NAMES[:8])
    cup.ok(cup.post("/rounds", {"seed": 3}), 201)
    for suffix in ("/tables.pdf", "/report.pdf", "/standings.png"):
        assert cup.get(suffix, level="organizer").status_code == 200
    past = cup.get("/report.pdf", level="organizer", extra=ZH_HANT)
    assert past.status_code == 429 and int(past.headers["Retry-After"]) >= 1
    assert past.get_json()["message"].startswith("這個連結下載的文件和圖片太多（每個連結最多 3 per minute）")
    assert cup.get("/report.pdf", level="read").status_code == 200  # another link has a counter of its own
    assert cup.post("/rounds/1/start").status_code == 200  # and changes are not documents


def test_draws_starts_and_ends_are_limited_per_competition_refused_ones_not_counted(make_app):
    client = make_app(RATELIMIT_ENABLED=True, RATE_LIMIT_ROUNDS="3 per hour").test_client()
    cup = entered(client, NAMES[:8], rounds=3)
    other = entered(client, NAMES[:8])
    for _ in range(3):
        assert cup.post("/rounds", {"seed": 3}, level="read").status_code == 403  # refused: not counted
    cup.ok(cup.post("/rounds", {"seed": 3}), 201)
    cup.ok(cup.post("/rounds/1/start"))
    cup.ok(cup.post("/rounds/1/end"))
    past = cup.post("/rounds", {"seed": 4}, extra=ZH_HANS)
    assert past.status_code == 429 and int(past.headers["Retry-After"]) >= 1
    assert past.get_json()["message"].startswith("这个比赛抽签、开始和结束各轮的次数太多（最多 3 per hour）")
    assert len(cup.ok(cup.get())["drawn"]) == 1  # nothing was drawn
    other.ok(other.post("/rounds", {"seed": 3}), 201)  # another competition has a counter of its own
