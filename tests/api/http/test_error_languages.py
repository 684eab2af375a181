"""The API's own error messages in the reader's Accept-Language: 简体中文, 繁體中文, else English as before."""
import pytest

from tests.api.sessions.tables import Table, discard

SIMPLIFIED = {"Accept-Language": "zh-CN,zh;q=0.9,en;q=0.5"}
TRADITIONAL = {"Accept-Language": "zh-TW"}


def message(response, status):
    assert response.status_code == status, response.get_json()
    return response.get_json()["message"]


@pytest.mark.parametrize("accept, expected", [
    ({}, "This token does not open this session."),
    ({"Accept-Language": "fr-FR, de"}, "This token does not open this session."),
    (SIMPLIFIED, "这个链接打不开这个牌局。"),
    ({"Accept-Language": "zh-Hans"}, "这个链接打不开这个牌局。"),
    ({"Accept-Language": "zh-SG"}, "这个链接打不开这个牌局。"),
    (TRADITIONAL, "這個連結打不開這個牌局。"),
    ({"Accept-Language": "zh-HK"}, "這個連結打不開這個牌局。"),
    ({"Accept-Language": "zh"}, "這個連結打不開這個牌局。"),
])
def test_a_wrong_token_is_told_in_the_readers_language(client, accept, expected):
    table, other = Table(client), Table(client)
    assert message(client.get(f"{table.path}/hands", headers={**other.headers(), **accept}), 403) == expected


def test_link_and_evening_errors_in_simplified_chinese(client):
    table = Table(client)
    table.hands_ok(discard("Ben", "Cat", 2))
    read_only = {"Authorization": f"Bearer {table.created['read_token']}", **SIMPLIFIED}
    assert message(client.get(f"{table.path}/hands", headers=SIMPLIFIED), 401).startswith("这个牌局需要它的令牌")
    assert message(client.post(f"{table.path}/hands", json=discard("Amy", "Dan"), headers=read_only), 403) == (
        "这是只读链接：只能查看牌局，不能更改。")
    unknown = "0" * 40
    assert message(client.get(f"/api/sessions/{unknown}/hands", headers=table.headers(**SIMPLIFIED)),
                   404) == f"找不到牌局 {unknown}。"
    assert message(client.get("/api/no-such-thing", headers=SIMPLIFIED), 404) == "这里什么都没有：请检查网址。"
    assert message(client.get(f"{table.path}/hands/9", headers=table.headers(**SIMPLIFIED)), 404) == (
        "这个牌局没有第 9 局。")
    stale = client.post(f"{table.path}/hands", json=discard("Amy", "Dan"), headers=table.headers(
        **SIMPLIFIED, **{"If-Match": '"0"'}))
    assert message(stale, 412) == f"另一部手机改了这个牌局：现在是第 {stale.get_json()['revision']} 版。"


def test_a_bad_lang_is_refused_in_the_readers_language_naming_lang(client):
    table = Table(client)
    refused = client.get(f"{table.path}/card.png?lang=fr", headers=table.headers(**SIMPLIFIED))
    text = message(refused, 422)
    assert text.startswith("请求无效：") and "lang" in text
    english = message(client.get(f"{table.path}/card.png?lang=fr", headers=table.headers()), 422)
    assert english.startswith("Invalid request: ") and "lang" in english


def test_group_link_errors_in_the_readers_language(client):
    from tests.api.groups.groups import Club
    club = Club(client)
    read = {**club.headers("read"), **SIMPLIFIED}
    assert message(client.post(f"{club.path}/members", json={"name": "Amy"}, headers=read), 403) == (
        "这需要牌友会的成员链接；这是只读链接。")
    other = Club(client, name="Other")
    assert message(client.get(club.path, headers={**other.headers("admin"), **TRADITIONAL}), 401) == (
        "這個連結打不開這個牌友會（或已經換新）：請要新連結。")
    assert message(client.get(f"/api/groups/{'0' * 40}", headers={**club.headers(), **SIMPLIFIED}), 404) == (
        f"找不到牌友会 {'0' * 40}。")
    assert message(client.patch(f"{club.path}/members/Nobody", json={"name": "X"}, headers=club.headers("member")),
                   403) == "This needs the group's admin link; this is its member link."
