"""A member's season as a picture: ``GET /api/groups/<id>/members/<member>/chart.png`` (API.md: Pictures).

The group of six of fixtures/group_ratings.json: Amy played e1, e2, e4, e5, e6, e8, e9 and the open e11,
eight evenings, seven of them rated.
"""
import io

from PIL import Image

from api.groups import figures
from api.http.db import get_db
from ledger import group_store
from tests.api.groups.test_group_ratings import play


def test_the_members_chart_is_a_png_in_each_language_with_the_read_token_alone(client):
    club, _ = play(client)
    pictures = set()
    for lang in ("zh-Hant", "zh-Hans", "en"):
        response = club.client.get(f"{club.path}/members/Amy/chart.png",
                                   query_string={"lang": lang, "token": club.tokens["read"]})
        assert response.status_code == 200 and response.mimetype == "image/png"
        image = Image.open(io.BytesIO(response.data))
        assert image.size == (1080, 1260)
        pictures.add(response.data)
    assert len(pictures) == 3
    assert club.get("/members/Nobody/chart.png").status_code == 404
    refused = club.get("/members/Amy/chart.png", query_string={"to": "2026-02-30"})
    assert refused.status_code == 422 and "2026-02-30" in refused.get_json()["message"]


def test_the_season_is_the_cumulative_net_and_the_rating_after_each_rated_evening(app, client):
    club, sessions = play(client)
    rated = {row["name"]: row for row in club.get_ok("/ratings")["ratings"]}
    with app.app_context():
        db = get_db()
        amy = group_store.find_member(db, club.id, "Amy")
        series, ratings = figures.member_season(db, club.id, amy, None, None)
    # Amy's nets, by hand from the fixture's totals: e1 +210, e2 +80, e4 −130, e5 −60, e6 −30, e8 −70, e9 0, e11 −130
    assert series == [210, 290, 160, 100, 70, 0, 0, -130]
    assert [place for place, _ in ratings] == [1, 2, 3, 4, 5, 6, 7]
    assert [rating for _, rating in ratings] == [point["rating"] for point in rated["Amy"]["history"]]
