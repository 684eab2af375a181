"""Ratings through the API (API.md: Ratings) against openskill's own ``rate`` over orders listed by hand.

fixtures/group_ratings.json: six members over ten closed evenings (ties, a
substitute, a void, a correction, the eighth closed last) and an eleventh
left open. Each evening's order was read off its totals by hand; the test
rates those orders with ``PlackettLuce().rate`` game by game, not through
``ledger.ratings``.
"""
import csv
import io
import json
import re
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from tests.api.groups.groups import Club
from tests.reports import poppler

FIXTURE = json.loads((Path(__file__).resolve().parents[3] / "fixtures" / "group_ratings.json").read_text("utf-8"))
OPTIONS = {"dealer_bonus": False}
STAKES = {"base": 50, "per_tai": 10}


def ok(response, status=200):
    assert response.status_code == status, response.get_json()
    return response.get_json()


def play_evenings(send, group_id: str, evenings: list[dict]) -> dict[str, str]:
    """The evenings through the API in order, ``send(method, path, body, level, status)`` answering the JSON;
    every one closed but the open one, ``close_last`` closed after all the others. Evening key -> session id."""
    sessions, last = {}, []
    for evening in evenings:
        created = send("POST", "/api/sessions", {
            "group": group_id, "name": evening["key"], "ruleset": "taiwan", "stakes": STAKES, "options": OPTIONS,
            "players": evening["players"]}, "member", 201)
        path = sessions[evening["key"]] = f"/api/sessions/{created['id']}"
        for event in evening["events"]:
            if "hand" in event:
                send("POST", f"{path}/hands", event["hand"], "member", 201)
            elif "seat" in event:
                send("POST", f"{path}/seats", event["seat"], "member", 201)
            elif "void" in event:
                send("DELETE", f"{path}/hands/{event['void']}", None, "member", 200)
            else:
                send("PUT", f"{path}/hands/{event['correct']['number']}", event["correct"]["body"], "member", 200)
        assert send("GET", path, None, "member", 200)["totals"] == evening["totals"]
        if evening.get("close_last"):
            last.append(path)
        elif not evening.get("open"):
            send("POST", f"{path}/close", None, "admin", 200)
    for path in last:
        send("POST", f"{path}/close", None, "admin", 200)
    return {key: path.rsplit("/", 1)[1] for key, path in sessions.items()}


def play(client) -> tuple[Club, dict[str, str]]:
    """The fixture's group through the Flask test client: the club, evening key -> session id."""
    club = Club.with_members(client, FIXTURE["members"])

    def send(method, path, body, level, status):
        return ok(client.open(path, method=method, json=body, headers=club.headers(level)), status)

    return club, play_evenings(send, club.id, FIXTURE["evenings"])


def openskill_replay() -> dict[str, tuple[float, float, list[float]]]:
    """member -> (μ, σ, rating after each game): the hand-listed orders through openskill directly."""
    model, found = PlackettLuce(), {}
    for evening in FIXTURE["evenings"]:
        order = evening["order"]
        if not order:
            continue
        players = [name for group in order for name in group]
        ranks = [1 + sum(len(group) for group in order[:place]) for place, group in enumerate(order) for _ in group]
        teams = [[found[name][0] if name in found else model.rating()] for name in players]
        for name, [after] in zip(players, model.rate(teams, ranks=ranks)):
            history = found[name][1] if name in found else []
            found[name] = (after, [*history, round(after.mu - 3 * after.sigma, 2)])
    return {name: (rating.mu, rating.sigma, history) for name, (rating, history) in found.items()}


def test_the_ratings_of_the_group_of_six_are_openskills_over_the_hand_listed_orders(client):
    club, sessions = play(client)
    answer = club.get_ok("/ratings")
    expected = openskill_replay()
    assert answer["model"] == "plackett-luce"
    assert {row["name"] for row in answer["ratings"]} == set(FIXTURE["members"])
    for row in answer["ratings"]:
        mu, sigma, history = expected[row["name"]]
        assert row["mu"] == pytest.approx(mu, abs=1e-9) and row["sigma"] == pytest.approx(sigma, abs=1e-9)
        assert row["rating"] == round(mu - 3 * sigma, 2)
        assert row["games"] == len(history)
        assert [point["rating"] for point in row["history"]] == history
    keys = {session: key for key, session in sessions.items()}
    amy = next(row for row in answer["ratings"] if row["name"] == "Amy")
    assert [keys[point["evening"]] for point in amy["history"]] == ["e1", "e2", "e4", "e5", "e6", "e8", "e9"]
    ratings = [row["rating"] for row in answer["ratings"]]
    assert ratings == sorted(ratings, reverse=True)


def test_the_worked_game_is_the_first_point_of_each_history(client):
    club, _ = play(client)
    worked = FIXTURE["worked_game"]["expect"]
    first = {row["name"]: row["history"][0]["rating"] for row in club.get_ok("/ratings")["ratings"]}
    assert first["Amy"] == worked["Amy"]["rating"] == 3.0
    assert first["Ben"] == first["Cat"] == first["Dan"] == worked["Ben"]["rating"] == -0.47


def test_standings_and_the_member_page_carry_the_same_rating(client):
    club, _ = play(client)
    rated = {row["member"]: row for row in club.get_ok("/ratings")["ratings"]}
    for row in club.standings()["standings"]:
        assert row["rating"] == rated[row["member"]]["rating"]
    page = club.get_ok("/members/Amy")
    amy = rated[page["member"]["id"]]
    assert page["rating"] == {key: amy[key] for key in ("rating", "mu", "sigma", "games", "history")}


def test_the_standings_csv_and_the_group_sheet_carry_the_ratings(client):
    club, _ = play(client)
    rated = {row["name"]: row["rating"] for row in club.get_ok("/ratings")["ratings"]}
    rows = csv.DictReader(io.StringIO(club.get("/standings.csv").data.decode("utf-8-sig")))
    assert {row["name"]: float(row["rating"]) for row in rows} == rated
    text = "\n".join(poppler.pages(club.get("/report.pdf", query_string={"lang": "en"}).data))
    for name, rating in rated.items():
        assert re.search(rf"^\s*\d\s+{name}\s+[+-]?\d+\s+{rating:.2f}\s", text, re.M), name


def test_a_period_rates_its_evenings_alone_and_a_bad_date_is_refused_in_the_readers_language(client):
    club, _ = play(client)
    assert club.get_ok("/ratings", query_string={"to": "2000-01-01"}) == {"model": "plackett-luce", "ratings": []}
    assert [row["rating"] for row in club.standings(to="2000-01-01")["standings"]] == []
    for language, word in (("en", "is not a day"), ("zh-TW", "不是日期"), ("zh-CN", "不是日期")):
        response = club.get("/ratings", query_string={"from": "2026-02-30"}, headers={"Accept-Language": language})
        assert response.status_code == 422 and word in response.get_json()["message"], response.get_json()
    response = club.get("/ratings", query_string={"from": "2026-03-02", "to": "2026-03-01"})
    assert response.status_code == 422 and "from" in response.get_json()["message"]


def test_a_member_with_no_closed_evening_has_no_rating(client):
    club = Club.with_members(client, ["Amy", "Ben", "Cat", "Dan", "Eve"])
    club.evening(["Amy", "Ben", "Cat", "Dan"]).win("Amy", "Ben")
    assert club.get_ok("/ratings")["ratings"] == []
    assert {row["rating"] for row in club.standings()["standings"]} == {None}
    assert club.get_ok("/members/Eve")["rating"] is None
