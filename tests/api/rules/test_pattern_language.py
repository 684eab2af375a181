"""Pattern names in API answers follow the reader's script: 简体中文 to a zh-Hans reader, 繁體 to any other.

123m 456m 789p 234s 56s 55p + 7s on a discard scores 門清 1 + 平胡 2 (API.md); in 简体中文 门清 and 平和,
the mainland word for 平胡.
"""
from tests.api.sessions.tables import Table
from tests.api.sessions.test_events import Stream

SIMPLIFIED = {"Accept-Language": "zh-CN"}
ALL_CHOWS = {"concealed": "123m456m789p234s56s55p", "winning_tile": "7s"}
FULL_WIN = {"winners": [{"player": "Ben", "hand": ALL_CHOWS, "win": {}}], "by": "discard", "discarder": "Cat"}


def names(patterns):
    return [(pattern["id"], pattern["name"]) for pattern in patterns]


def test_rulesets_name_their_patterns_and_themselves_in_the_readers_script(client):
    simplified = {r["id"]: r for r in client.get("/api/rulesets", headers=SIMPLIFIED).get_json()}
    traditional = {r["id"]: r for r in client.get("/api/rulesets").get_json()}
    english = {r["id"]: r for r in client.get("/api/rulesets", headers={"Accept-Language": "en"}).get_json()}
    assert simplified["taiwan"]["name"] == "台湾十六张（庄家台，连庄）"
    assert traditional["taiwan"]["name"] == english["taiwan"]["name"] == "台灣十六張 (莊家台, 連莊)"
    assert dict(names(simplified["taiwan"]["patterns"]))["all_chows"] == "平和"
    assert dict(names(traditional["taiwan"]["patterns"]))["all_chows"] == "平胡"
    assert dict(names(english["taiwan"]["patterns"]))["all_chows"] == "平胡"
    assert dict(names(simplified["shanghai"]["patterns"]))["all_pungs"] == "碰碰胡"  # Shanghai's own word
    assert dict(names(simplified["taiwan"]["house_rules"]["on"]))["single_wait"] == "独听"
    assert [p["id"] for p in simplified["taiwan"]["patterns"]] == [p["id"] for p in traditional["taiwan"]["patterns"]]


def test_a_counted_hand_names_its_patterns_in_the_readers_script(client):
    body = {"ruleset": "taiwan", "hand": ALL_CHOWS, "win": {"by": "discard"}, "seat_wind": "S"}
    assert names(client.post("/api/score", json=body, headers=SIMPLIFIED).get_json()["patterns"]) == [
        ("concealed", "门清"), ("all_chows", "平和")]
    assert names(client.post("/api/score", json=body).get_json()["patterns"]) == [
        ("concealed", "門清"), ("all_chows", "平胡")]


def test_recorded_and_previewed_hands_name_their_patterns_in_the_readers_script(client):
    table = Table(client)
    preview = client.post(f"{table.path}/hands/preview", json=FULL_WIN, headers=table.headers(**SIMPLIFIED))
    assert names(preview.get_json()["scores"][0]["score"]["patterns"]) == [("concealed", "门清"), ("all_chows", "平和")]
    recorded = client.post(f"{table.path}/hands", json=FULL_WIN, headers=table.headers(**SIMPLIFIED)).get_json()
    assert names(recorded["scores"][0]["score"]["patterns"]) == [("concealed", "门清"), ("all_chows", "平和")]
    tai = next(r for r in recorded["lines"][0]["reasons"] if r["code"] == "tai")
    assert names(tai["patterns"]) == [("concealed", "门清"), ("all_chows", "平和")]
    listed = client.get(f"{table.path}/hands", headers=table.headers(**SIMPLIFIED)).get_json()
    assert names(listed[0]["scores"][0]["score"]["patterns"]) == [("concealed", "门清"), ("all_chows", "平和")]
    stored = client.get(f"{table.path}/hands/1", headers=table.headers()).get_json()
    assert names(stored["scores"][0]["score"]["patterns"]) == [("concealed", "門清"), ("all_chows", "平胡")]


def test_live_updates_name_patterns_in_the_followers_script(client):
    table = Table(client)
    simplified = Stream(client, table, **table.headers(**SIMPLIFIED))
    traditional = Stream(client, table, **table.headers())
    try:
        assert client.post(f"{table.path}/hands", json=FULL_WIN, headers=table.headers()).status_code == 201
        (_, _, data), = simplified.take(1)
        assert names(data["entry"]["scores"][0]["score"]["patterns"]) == [("concealed", "门清"), ("all_chows", "平和")]
        (_, _, data), = traditional.take(1)
        assert names(data["entry"]["scores"][0]["score"]["patterns"]) == [("concealed", "門清"), ("all_chows", "平胡")]
    finally:
        simplified.close()
        traditional.close()


def test_live_updates_name_patterns_in_the_script_the_stream_asks_for(client):
    """EventSource sends no Accept-Language of the page's choosing: ``?lang=`` says the page's language, and wins."""
    table = Table(client)
    asked_simplified = Stream(client, table, "?lang=zh-Hans", **table.headers(**{"Accept-Language": "en"}))
    asked_traditional = Stream(client, table, "?lang=zh-Hant", **table.headers(**SIMPLIFIED))
    try:
        assert client.post(f"{table.path}/hands", json=FULL_WIN, headers=table.headers()).status_code == 201
        (_, _, data), = asked_simplified.take(1)
        assert names(data["entry"]["scores"][0]["score"]["patterns"]) == [("concealed", "门清"), ("all_chows", "平和")]
        (_, _, data), = asked_traditional.take(1)
        assert names(data["entry"]["scores"][0]["score"]["patterns"]) == [("concealed", "門清"), ("all_chows", "平胡")]
    finally:
        asked_simplified.close()
        asked_traditional.close()


def test_a_stream_in_an_unknown_language_is_refused(client):
    table = Table(client)
    response = client.get(f"{table.path}/events?lang=fr", headers=table.headers())
    assert response.status_code == 422
    assert "zh-Hant, zh-Hans or en" in response.get_json()["message"]
