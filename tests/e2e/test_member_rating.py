"""A member's rating on the phone (issue 43): the member page's rating, its history chart under the net chart,
and the standings' rating line, in 繁, 简 and EN, at 390 and 320 px in normal and big text (check_view: tap
targets, overflow, axe, names), with screenshots tests/artifacts/20-group-member-rating-<lang>-<size>-<width>.png.

The group is fixtures/group_ratings.json played through the API, its six members named in each language.
What the page shows is compared with what GET …/ratings answers (itself held to openskill by
tests/api/groups/test_group_ratings.py): the first member (Amy's part) played eight evenings, seven of them
closed and rated, so the net chart has eight points and the rating chart seven.
"""
import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.api.groups.test_group_ratings import play_evenings
from tests.e2e.test_every_group_view import english_in_text
from tests.e2e.test_every_view import check_view, go

FIXTURE = json.loads((Path(__file__).resolve().parents[2] / "fixtures" / "group_ratings.json").read_text("utf-8"))
NAMES = {
    "zh-Hant": ("zh-TW", "週五牌友會", ["阿美", "志明", "淑芬", "建宏", "小芸", "阿凱"]),
    "zh-Hans": ("zh-CN", "周五牌友会", ["小王", "阿芳", "老李", "建国", "小张", "阿凯"]),
    "en": ("en-US", "Friday club", FIXTURE["members"]),
}


def renamed(value, names):
    """The fixture's bodies with its English names as this language names them."""
    if isinstance(value, dict):
        return {renamed(key, names): renamed(item, names) for key, item in value.items()}
    if isinstance(value, list):
        return [renamed(item, names) for item in value]
    return names.get(value, value) if isinstance(value, str) else value


def seed(api, club, members):
    """The fixture's group through the API (``play_evenings``): the group, member ids, ratings by name."""
    group = api.post("/api/groups", data={"name": club, "defaults": {"ruleset": "taiwan"}}).json()
    tokens = {level: {"Authorization": f"Bearer {group[f'{level}_token']}"} for level in ("admin", "member")}

    def send(method, path, body, level, status):
        response = api.fetch(path, method=method, data=body, headers=tokens[level])
        assert response.status == status, response.text()
        return response.json()

    ids = {name: send("POST", f"/api/groups/{group['id']}/members", {"name": name}, "admin", 201)["id"]
           for name in members}
    play_evenings(send, group["id"], renamed(FIXTURE["evenings"], dict(zip(FIXTURE["members"], members))))
    rated = send("GET", f"/api/groups/{group['id']}/ratings", None, "member", 200)["ratings"]
    return group, ids, {row["name"]: row for row in rated}


@pytest.mark.parametrize("lang", list(NAMES))
def test_the_member_page_shows_the_rating_and_its_history_and_the_standings_their_ratings(new_phone, api, axe_core,
                                                                                        lang):
    locale, club, members = NAMES[lang]
    group, ids, rated = seed(api, club, members)
    amy = members[0]
    page = new_phone(locale=locale).new_page()
    page.goto(f"/#g={group['id']}&t={group['member_token']}&r={group['read_token']}")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    page.evaluate(axe_core.read_text(encoding="utf-8"))
    found = []

    go(page, f"member/{ids[amy]}", "rating-chart")
    expect(page.get_by_test_id("net-chart").locator("circle")).to_have_count(8)
    expect(page.get_by_test_id("rating-now")).to_have_text(f"{rated[amy]['rating']:.2f}")
    points = page.get_by_test_id("rating-chart").locator("rect")
    expect(points).to_have_count(7)
    assert [float(point.get_attribute("data-rating")) for point in points.all()] == [
        point["rating"] for point in rated[amy]["history"]]
    check_view(page, "group-member-rating", lang, found)
    found += [f"member {lang}: {item}" for item in english_in_text(page, lang)]

    go(page, "standings", "ranking")
    lines = page.get_by_test_id("standing-rating")
    expect(lines).to_have_count(6)
    for row in page.get_by_test_id("ranking").locator("li").all():
        name = next(name for name, member in ids.items() if member == row.get_attribute("data-member"))
        expect(row.get_by_test_id("standing-rating")).to_contain_text(f"{rated[name]['rating']:.2f}")
    check_view(page, "group-standings-rating", lang, found)
    assert found == [], "\n".join(found)
