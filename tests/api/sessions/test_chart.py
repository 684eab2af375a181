"""The evening's running totals: the series the charts are drawn from, and GET /api/sessions/<id>/chart.png.

The evening (Taiwanese, 100 + 20 a 台; Amy deals first and no dealer wins or pays, so no 莊家台):
1. Ben 3台 on Cat's discard: Cat pays 100 + 3 × 20 = 160.
2. Dan 1台 on Amy's, corrected afterwards to 2台: Amy pays 100 + 2 × 20 = 140 (not 120).
3. Dan 2台 on Ben's: voided, so it leaves no point.
4. Amy 1台 on Ben's: Ben pays 120 (Cat deals: the void gave the deal nothing).

Running totals, from 0, one point a played hand:
Amy 0, 0, -140, -20 · Ben 0, 160, 160, 40 · Cat 0, -160, -160, -160 · Dan 0, 0, 140, 140.
"""
import io

import pytest
from PIL import Image

from api.sessions.reports import session_report
from reports.chart import PALETTE_HEX
from tests.api.sessions.tables import Table, discard

RUNNING = {"Amy": [0, 0, -140, -20], "Ben": [0, 160, 160, 40], "Cat": [0, -160, -160, -160],
           "Dan": [0, 0, 140, 140]}
BEFORE_THE_CORRECTION = {"Amy": [0, 0, -120, 0], "Ben": [0, 160, 160, 40], "Cat": [0, -160, -160, -160],
                         "Dan": [0, 0, 120, 120]}


def evening(client, correct: bool = True) -> Table:
    table = Table(client, name="週五 小明家")
    table.hands_ok(discard("Ben", "Cat", 3), discard("Dan", "Amy", 1), discard("Dan", "Ben", 2))
    assert table.void(3).status_code == 200
    table.hands_ok(discard("Amy", "Ben", 1))
    if correct:
        assert table.correct(2, discard("Dan", "Amy", 2)).status_code == 200
    return table


@pytest.fixture
def table(client):
    return evening(client)


def chart(client, table, query="", **headers):
    return client.get(f"{table.path}/chart.png{query}", headers={**table.headers(), **headers})


def colours(response) -> set[tuple[int, int, int]]:
    image = Image.open(io.BytesIO(response.data)).convert("RGB")
    return {colour for _, colour in image.getcolors(maxcolors=10_000_000)}


def rgb(code: str) -> tuple[int, int, int]:
    return tuple(int(code[i:i + 2], 16) for i in (1, 3, 5))


def test_the_settlement_carries_the_running_totals_a_void_leaving_no_point_a_correction_moving_the_line(client):
    table = evening(client, correct=False)
    assert table.get("/settlement")["running_totals"] == BEFORE_THE_CORRECTION
    assert table.correct(2, discard("Dan", "Amy", 2)).status_code == 200
    settlement = table.get("/settlement?round_to=100")
    assert settlement["running_totals"] == RUNNING  # never rounded, unlike the totals
    # Down to the 100: Amy -100 (80 over), Ben 0 (40), Cat -200 (40), Dan 100 (40); the 200 short goes to the
    # largest remainders: Amy, then of the 40s Ben (first by name).
    assert settlement["totals"] == {"Amy": 0, "Ben": 100, "Cat": -200, "Dan": 100}


def test_the_reports_chart_is_drawn_from_the_same_series(app, table):
    with app.app_context():
        from ledger import store
        from api.http.db import get_db
        report = session_report(store.find_session(get_db(), table.id))
    assert report.running_totals() == RUNNING


def test_the_chart_is_a_png_with_each_players_colour(client, table):
    response = chart(client, table)
    assert response.status_code == 200
    assert response.mimetype == "image/png"
    assert response.headers["Cache-Control"] == "no-store"  # as the card: the evening goes on
    image = Image.open(io.BytesIO(response.data))
    assert image.format == "PNG"
    assert image.width == 1080 and 600 <= image.height <= 1200
    seen = colours(response)
    for code in PALETTE_HEX[:4]:  # Amy, Ben, Cat, Dan: the first four colours, in order of first appearance
        assert rgb(code) in seen


def test_the_language_changes_the_picture(client, table):
    english, simplified = chart(client, table, "?lang=en"), chart(client, table, "?lang=zh-Hans")
    assert english.status_code == simplified.status_code == 200
    assert english.data != simplified.data
    assert chart(client, table, "", **{"Accept-Language": "en"}).data == english.data


def test_the_read_only_link_opens_it_as_a_header_or_in_the_query(client, table):
    read = table.created["read_token"]
    assert client.get(f"{table.path}/chart.png", headers={"Authorization": f"Bearer {read}"}).status_code == 200
    assert client.get(f"{table.path}/chart.png?token={read}").status_code == 200


def test_no_token_another_evenings_token_or_an_unknown_evening_opens_nothing(client, table):
    assert client.get(f"{table.path}/chart.png").status_code == 401
    other = Table(client)
    assert client.get(f"{table.path}/chart.png", headers=other.headers()).status_code == 403
    missing = client.get("/api/sessions/nosuchevening/chart.png", headers=table.headers())
    assert missing.status_code == 404
    assert missing.get_json()["message"]


def test_an_unknown_language_is_refused_by_name(client, table):
    response = chart(client, table, "?lang=fr")
    assert response.status_code == 422
    assert "lang" in str(response.get_json())
