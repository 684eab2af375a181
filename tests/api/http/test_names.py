"""Two names a person cannot tell apart are not two people (issue 27, item 9).

"Amy", "AMY", "amy", "Ａｍｙ" (full-width), "Аmy" (a Cyrillic А) and
"A\u2003my" (an em space) were six players of one evening and six members of
one group. Now the second of them is refused naming the first, or (the
Cyrillic one) refused for mixing alphabets; code points no phone shows the
same way are refused too. Messages in the reader's language.
"""
import pytest

from tests.api.competitions.test_competitions import Cup
from tests.api.groups.groups import Club
from tests.api.sessions.tables import Table, session_body

LOOK_ALIKES = ["AMY", "amy", "Ａｍｙ", "A\u2003my", "Ａ ｍ ｙ"]


def create(client, players, language="en"):
    return client.post("/api/sessions", json=session_body(players=players), headers={"Accept-Language": language})


@pytest.mark.parametrize("second", LOOK_ALIKES)
def test_a_player_matching_another_after_folding_is_refused_naming_it(client, second):
    response = create(client, ["Amy", "Ben", second, "Dan"])
    assert response.status_code == 422
    assert response.get_json()["field"] == "players[2]"
    assert response.get_json()["message"] == (f"{second!r} looks like 'Amy', already a name here: use that one, or "
                                              f"a name that cannot be taken for it.")


def test_the_look_alike_message_is_in_the_readers_language(client):
    response = create(client, ["Amy", "amy", "Cat", "Dan"], "zh-TW")
    assert response.get_json()["message"] == "「amy」看起來與已有的「Amy」相同：請用那個名字，或換一個不會被認錯的名字。"
    response = create(client, ["Amy", "amy", "Cat", "Dan"], "zh-CN")
    assert response.get_json()["message"] == "“amy”看起来与已有的“Amy”相同：请用那个名字，或换一个不会被认错的名字。"


def test_a_name_mixing_look_alike_alphabets_is_refused(client):
    response = create(client, ["\u0410my", "Ben", "Cat", "Dan"])  # А: CYRILLIC CAPITAL LETTER A
    assert response.status_code == 422
    assert "'\u0410my' mixes letters of alphabets that look alike (Cyrillic, Latin)" in response.get_json()["message"]


@pytest.mark.parametrize("name, says", [
    ("Amy\ue000", "a private-use character (U+E000)"),
    ("Amy\ufdd0", "a non-character (U+FDD0)"),
    ("Amy\U0010fffe", "a non-character (U+10FFFE)"),
    ("Amy\U000e0fff", "an unassigned character (U+E0FFF)"),
])
def test_code_points_no_phone_shows_alike_are_refused(client, name, says):
    response = create(client, [name, "Ben", "Cat", "Dan"])
    assert response.status_code == 422
    assert says in response.get_json()["message"]


def test_names_written_in_several_scripts_that_do_not_look_alike_are_kept(client):
    players = ["Amy 阿美", "小明B", "Ολγα", "Kim 김"]
    response = create(client, players)
    assert response.status_code == 201, response.get_json()
    assert sorted(response.get_json()["totals"]) == sorted(players)


def test_a_newcomer_looking_like_someone_who_sat_is_refused_and_the_same_name_comes_back(client):
    table = Table(client)
    assert table.seat(0, "Eve").status_code == 201
    refused = table.seat(1, "ＥＶＥ")  # Eve sits in seat 0: a look-alike of hers is no one new
    assert refused.status_code == 422
    assert refused.get_json()["field"] == "player"
    assert table.seat(0, "Amy").status_code == 201  # Amy back in seat 0, Eve out
    refused = table.seat(2, "eve")
    assert refused.status_code == 422
    assert "looks like 'Eve'" in refused.get_json()["message"]
    assert table.seat(2, "Eve").status_code == 201


def test_a_member_name_or_alias_matching_another_members_is_refused_naming_it(client):
    club = Club(client)
    amy = club.add("Amy")
    club.add("Ben")
    for body in ({"name": "ＡＭＹ"}, {"name": "Zed", "aliases": ["A\u2003MY"]}):
        refused = club.post("/members", body)
        assert refused.status_code == 422
        assert "looks like 'Amy'" in refused.get_json()["message"]
    renamed = club.client.patch(f"{club.path}/members/Ben", json={"name": "amy"}, headers=club.headers("admin"))
    assert renamed.status_code == 422
    assert renamed.get_json()["field"] == "name"
    own = club.client.patch(f"{club.path}/members/{amy}", json={"aliases": ["AMY"]}, headers=club.headers("admin"))
    assert own.status_code == 200  # her own name written another way is one of hers
    assert sorted(member["name"] for member in club.get_ok()["members"]) == ["Amy", "Ben"]


@pytest.mark.parametrize("first, second", [("Amy", "Ａｍｙ"), ("Coco", "Сосо")])  # (Cyrillic С о с о: issue 39)
def test_a_group_document_with_two_look_alike_members_is_refused(client, first, second):
    document = {"format": "taizhang-group", "version": 1, "name": "Club", "evenings": [], "payments": [],
                "seasons": [], "members": [{"id": "m1", "name": first}, {"id": "m2", "name": second}]}
    response = client.post("/api/groups/import", json=document)
    assert response.status_code == 422
    assert response.get_json()["field"] == "members[1]"
    assert f"looks like {first!r}" in response.get_json()["message"]


# Issue 39: names wholly of another alphabet, compared by their confusable skeleton (UTS #39): Greek Α Μ Υ,
# Cyrillic А М У are each confusables.txt's A M Y; Cyrillic С о с о its C o c o.
WHOLE_ALPHABET = [("Amy", "ΑΜΥ"), ("Amy", "АМУ"), ("Coco", "Сосо"), ("amy", "ΑΜΥ")]


@pytest.mark.parametrize("first, second", WHOLE_ALPHABET)
def test_a_player_wholly_of_a_look_alike_alphabet_is_refused_naming_the_first(client, first, second):
    response = create(client, [first, "Ben", second, "Dan"])
    assert response.status_code == 422, response.get_json()
    assert response.get_json()["field"] == "players[2]"
    assert response.get_json()["message"] == (f"{second!r} looks like {first!r}, already a name here: use that one, "
                                              f"or a name that cannot be taken for it.")


@pytest.mark.parametrize("first, second", WHOLE_ALPHABET)
def test_a_member_or_alias_wholly_of_a_look_alike_alphabet_is_refused_naming_the_member(client, first, second):
    club = Club(client)
    club.add(first)
    for body, field in (({"name": second}, "name"), ({"name": "Zed", "aliases": [second]}, "aliases[0]")):
        refused = club.post("/members", body)
        assert refused.status_code == 422, refused.get_json()
        assert refused.get_json()["field"] == field
        assert f"looks like {first!r}" in refused.get_json()["message"]
    assert [member["name"] for member in club.get_ok()["members"]] == [first]


def test_an_entrant_wholly_of_a_look_alike_alphabet_is_refused_naming_the_entrant(client):
    cup = Cup(client)
    refused = cup.post("/entrants", {"names": ["Amy", "Coco", "ΑΜΥ"]}, extra={"Accept-Language": "zh-TW"})
    assert refused.status_code == 422 and refused.get_json()["field"] == "names[2]"
    assert refused.get_json()["message"] == "「ΑΜΥ」看起來與已有的「Amy」相同：請用那個名字，或換一個不會被認錯的名字。"
    cup.ok(cup.post("/entrants", {"names": ["Amy", "Coco"]}), 201)
    later = cup.post("/entrants", {"names": ["Сосо"]})
    assert later.status_code == 422 and "looks like 'Coco'" in later.get_json()["message"]
    assert [entrant["name"] for entrant in cup.ok(cup.get())["entrants"]] == ["Amy", "Coco"]


def test_names_of_other_alphabets_that_look_like_nobody_here_are_kept(client):
    club = Club(client)
    for name in ["Amy", "Ολγα", "Оля", "Ann", "Arny"]:  # "Arny" is not "Amy" in capitals: ARNY, AMY
        club.add(name)
    assert len(club.get_ok()["members"]) == 5
