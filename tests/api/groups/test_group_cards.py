"""A group's standings and balances as pictures, and its sheet in the reader's language.

The group is tests/reports/test_group_card.py's small one, played here through the API: net Dan +260,
Amy +160, Ben 0, 小明 -420 over two evenings. Then 小明 pays Dan 100: balances Dan +160, Amy +160,
Ben 0, 小明 -320; 小明 pays Dan 160 and Amy 160 (no one settles with fewer than two transfers).
"""
import io

import pytest
from PIL import Image

from tests.api.groups.groups import Club
from tests.reports import poppler
from tests.reports.test_group_card import GROUP, assert_like_reference


@pytest.fixture
def club(client):
    club = Club(client, name=GROUP)
    for name in ("Amy", "Ben", "小明", "Dan"):
        club.add(name)
    first = club.evening(["Amy", "Ben", "小明", "Dan"])
    first.win("Ben", "小明")
    first.win("Dan", "小明", tai=2)
    second = club.evening(["Amy", "Ben", "小明", "Dan"], name="Friday again")
    second.win("Dan", "Ben")
    second.win("Amy", "小明", tai=3)
    assert [(row["name"], row["net"]) for row in club.standings()["standings"]] == [
        ("Dan", 260), ("Amy", 160), ("Ben", 0), ("小明", -420)]
    assert club.pay("小明", "Dan", 100).status_code == 201
    return club


def picture(response) -> Image.Image:
    assert response.status_code == 200, response.get_json()
    assert response.mimetype == "image/png" and "Accept-Language" in response.headers["Vary"]
    image = Image.open(io.BytesIO(response.data))
    image.load()
    assert image.format == "PNG" and image.width == 1080 and image.height >= 1920
    return image


def test_the_standings_picture_is_the_hand_worked_ranking(club):
    response = club.get("/standings.png", query_string={"lang": "zh-Hant"})
    picture(response)
    assert_like_reference(response.data)
    assert "standings" in response.headers["Content-Disposition"]
    assert club.get("/standings.png", headers={"Accept-Language": "zh-CN"}).data != response.data
    # A period with no evening of the group (both were played today, long after 2020) draws no one.
    assert picture(club.get("/standings.png", query_string={"to": "2020-01-01"})).height == 1920


def test_the_balances_picture_by_link_in_every_language_and_rounded(client, club):
    by_link = client.get(f"{club.path}/balances.png?token={club.tokens['read']}&lang=en")
    picture(by_link)
    assert "balances" in by_link.headers["Content-Disposition"]
    balances = club.balances()
    assert balances["balances"] == {"Dan": 160, "Amy": 160, "Ben": 0, "小明": -320}
    assert sorted((t["from"], t["to"], t["amount"]) for t in balances["transfers"]) == [
        ("小明", "Amy", 160), ("小明", "Dan", 160)]
    pictures = {lang: club.get("/balances.png", query_string={"lang": lang}).data for lang in ("zh-Hans", "zh-Hant")}
    assert len({by_link.data, *pictures.values()}) == 3
    assert club.get("/balances.png").data == pictures["zh-Hant"]  # the date on it is today's in every request
    assert club.get("/balances.png", query_string={"round_to": 100}).data != pictures["zh-Hant"]


@pytest.mark.parametrize("suffix", ["/standings.png", "/balances.png"])
def test_a_card_needs_this_groups_token_and_a_known_lang(client, club, suffix):
    assert client.get(club.path + suffix).status_code == 401
    other = Club(client, name="Other club")
    # Another group's token opens nothing here (401, as a wrong token; 403 is for a level too low, and any
    # of this group's tokens may read).
    wrong = client.get(f"{club.path}{suffix}?token={other.tokens['admin']}")
    assert wrong.status_code == 401 and wrong.get_json()["message"]
    refused = club.get(suffix, query_string={"lang": "fr"})
    assert refused.status_code == 422 and "lang" in refused.get_json()["message"]


def test_the_group_sheet_speaks_simplified_chinese_or_english(client, runner, tmp_path, club):
    def sheet(**kwargs):
        response = club.get("/report.pdf", **kwargs)
        assert response.status_code == 200 and "Accept-Language" in response.headers["Vary"]
        return "\n".join(poppler.pages(response.data))

    simplified = sheet(headers={"Accept-Language": "zh-CN,zh;q=0.9"})
    for heading in ("牌友会 group sheet", "战绩 standings", "成员 member", "净 net", "点炮率", "未结 open balances",
                    "余额 balance", "走势 cumulative net money", "场次 evenings", "结果 totals", "台湾十六张", "第1页"):
        assert heading in simplified, heading
    assert "戰績" not in simplified and "台灣十六張" not in simplified
    english = sheet(query_string={"lang": "en"})
    assert "Taiwanese 16" in english and "page 1" in english and "台灣十六張" not in english
    assert "戰績 standings" in sheet() and "台灣十六張" in sheet()  # 繁體 by default
    refused = club.get("/report.pdf", query_string={"lang": "zh-CN"})
    assert refused.status_code == 422 and "lang" in refused.get_json()["message"]
    target = tmp_path / "group.pdf"
    result = runner.invoke(args=["group-report", club.id, "-o", str(target), "--lang", "zh-Hans"])
    assert result.exit_code == 0, result.output
    assert "战绩 standings" in "\n".join(poppler.pages(target.read_bytes()))
