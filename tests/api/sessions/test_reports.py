"""Settlement, PDF sheet, CSV and the report CLI, on sessions recorded through the API.

The small evening (taiwan, 底 100, 台 20, dealer bonus on; Amy deals first), worked by hand:

  #1  Ben 3台 on Cat's discard, dealer Amy not involved: Cat pays 100 + 20×3 = 160.
      Ben deals next, streak 0.
  #2  Dan self-draws 1台; dealer Ben (streak 0, extra 1): Amy and Cat pay 100 + 20 = 120,
      Ben pays 100 + 20×(1 + 1) = 140; Dan +380. Cat deals next.
  #3  draw: Cat keeps the deal, streak 1.
  #4  Amy 2台 on Cat's discard; Cat deals at streak 1 (extra 3): 100 + 20×(2 + 3) = 200.
  #5  Ben 8台 on Amy's discard, then voided: counts for nothing.

Totals: Amy -120 + 200 = 80; Ben 160 - 140 = 20; Cat -160 - 120 - 200 = -480; Dan 380.
Only Cat owes, so one zero-sum group of four: 3 transfers, Cat pays each creditor.
"""
import csv
import io
import json
import re
from pathlib import Path
from urllib.parse import quote

import pytest

from tests.api.sessions.tables import Table, discard
from tests.reports import poppler

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"
SMALL_TOTALS = {"Amy": 80, "Ben": 20, "Cat": -480, "Dan": 380}
SMALL_TRANSFERS = [{"from": "Cat", "to": "Dan", "amount": 380}, {"from": "Cat", "to": "Amy", "amount": 80},
                   {"from": "Cat", "to": "Ben", "amount": 20}]
ALL_CHOWS = {"concealed": "123m456m789p234s56s55p", "winning_tile": "7s"}  # 門清 1 + 平胡 2 on a discard
REPORTS = ("settlement", "report.pdf", "hands.csv")


def create(client, name="週五 Friday", players=("Amy", "Ben", "Cat", "Dan"), stakes=None, options=None,
           ruleset="taiwan"):
    body = {"name": name, "ruleset": ruleset, "players": list(players),
            "stakes": stakes or {"base": 100, "per_tai": 20}, "options": options or {}}
    response = client.post("/api/sessions", json=body)
    assert response.status_code == 201, response.get_json()
    created = response.get_json()
    return created["id"], {"Authorization": f"Bearer {created['token']}"}


def post(client, path, auth, body):
    response = client.post(path, json=body, headers=auth)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


@pytest.fixture
def small(client):
    """The evening of the module docstring; hand 1 is a full entry."""
    session_id, auth = create(client)
    hands = f"/api/sessions/{session_id}/hands"
    post(client, hands, auth, {"winners": [{"player": "Ben", "hand": ALL_CHOWS, "win": {}}],
                               "by": "discard", "discarder": "Cat"})
    post(client, hands, auth, {"winners": [{"player": "Dan", "tai": 1}], "by": "self_draw"})
    post(client, hands, auth, {"draw": True})
    post(client, hands, auth, {"winners": [{"player": "Amy", "tai": 2}], "by": "discard", "discarder": "Cat"})
    post(client, hands, auth, {"winners": [{"player": "Ben", "tai": 8}], "by": "discard", "discarder": "Amy"})
    assert client.delete(f"{hands}/5", headers=auth).status_code in (200, 204)
    return session_id, auth


def get(client, session_id, what, auth, query=""):
    return client.get(f"/api/sessions/{session_id}/{what}{query}", headers=auth)


def test_settlement_of_a_small_evening(client, small):
    response = get(client, *small[:1], "settlement", small[1])
    assert response.status_code == 200
    # Each total from 0 after every played hand: the draw (#3) leaves a flat point, the void (#5) none.
    running = {"Amy": [0, 0, -120, -120, 80], "Ben": [0, 160, 20, 20, 20], "Cat": [0, -160, -280, -280, -480],
               "Dan": [0, 0, 380, 380, 380]}
    assert response.get_json() == {"totals": SMALL_TOTALS, "transfers": SMALL_TRANSFERS, "running_totals": running}


def test_settlement_rounded_to_the_smallest_note(client, small):
    # Rounded down to hundreds: Amy 0, Ben 0, Cat -500, Dan 300, which leaves 200 over; the two largest
    # remainders (Amy 80 and Dan 80, ties by name) go up: Amy 100, Ben 0, Cat -500, Dan 400.
    body = get(client, small[0], "settlement", small[1], "?round_to=100").get_json()
    assert body["totals"] == {"Amy": 100, "Ben": 0, "Cat": -500, "Dan": 400}
    assert body["transfers"] == [{"from": "Cat", "to": "Dan", "amount": 400}, {"from": "Cat", "to": "Amy", "amount": 100}]
    assert body["rounding"]["round_to"] == 100
    assert body["rounding"]["adjustments"] == {"Amy": 20, "Ben": -20, "Cat": -20, "Dan": 20}
    assert body["rounding"]["explanation"].endswith("rounded up instead: Amy, Dan.")


@pytest.mark.parametrize("what", ["settlement", "report.pdf"])
@pytest.mark.parametrize("bad", ["abc", "0", "-10", "2.5", ""])
def test_bad_round_to_is_a_422_naming_it(client, small, what, bad):
    response = get(client, small[0], what, small[1], f"?round_to={bad}")
    assert response.status_code == 422
    assert "round_to" in response.get_json()["message"]
    assert get(client, small[0], "settlement", small[1]).get_json()["totals"] == SMALL_TOTALS


@pytest.mark.parametrize("what", REPORTS)
def test_every_report_needs_the_sessions_token(client, small, what):
    session_id, _ = small
    _, other_auth = create(client, name="other table")
    assert get(client, session_id, what, {}).status_code == 401
    assert get(client, session_id, what, {"Authorization": "Bearer nonsense"}).status_code == 403
    assert get(client, session_id, what, other_auth).status_code == 403
    missing = get(client, "no-such-session", what, other_auth)
    assert missing.status_code == 404 and "application/json" in missing.content_type


def test_pdf_report(client, small):
    session_id, auth = small
    response = get(client, session_id, "report.pdf", auth)
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    date = client.get(f"/api/sessions/{session_id}", headers=auth).get_json()["created_at"][:10]
    disposition = response.headers["Content-Disposition"]
    assert disposition.startswith("attachment;")
    assert f'filename="Friday {date}.pdf"' in disposition  # the ASCII fallback
    assert f"filename*=UTF-8''{quote(f'週五 Friday {date}.pdf')}" in disposition
    text = "\n".join(poppler.pages(response.data))
    for expected in ["週五 Friday", date, "Amy", "Ben", "Cat", "Dan", "門清 1台", "平胡 2台", "作廢"]:
        assert expected in text
    for transfer in SMALL_TRANSFERS:
        assert re.search(rf"^\s*{transfer['from']}\s+{transfer['to']}\s+{transfer['amount']}\s*$", text, re.M)
    assert all(font["emb"] == "yes" for font in poppler.fonts(response.data))


def test_pdf_report_with_rounding_explains_it(client, small):
    response = get(client, small[0], "report.pdf", small[1], "?round_to=100")
    text = " ".join(" ".join(poppler.pages(response.data)).split())
    assert "所以餘數最大的 2 人（同數依名字）改為進位：Amy、Dan。" in text  # the sheet's language, 繁體 by default
    assert re.search(r"Cat Dan 400", text)
    english = " ".join(" ".join(poppler.pages(get(client, small[0], "report.pdf", small[1],
                                                  "?round_to=100&lang=en").data)).split())
    assert "rounded up instead: Amy, Dan." in english


def test_csv_export(client, small):
    session_id, auth = small
    response = get(client, session_id, "hands.csv", auth)
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"  # the charset named once (issue 29)
    assert ".csv" in response.headers["Content-Disposition"]
    assert response.data.startswith(b"\xef\xbb\xbf")
    rows = list(csv.DictReader(io.StringIO(response.data.decode("utf-8-sig"))))
    assert len(rows) == 5 * 4
    assert [(r["player"], r["payment"]) for r in rows if r["hand"] == "2"] == [
        ("Amy", "-120"), ("Ben", "-140"), ("Cat", "-120"), ("Dan", "380")]
    assert {r["void"] for r in rows if r["hand"] == "5"} == {"1"}
    totals = {}
    for row in rows:
        totals[row["player"]] = totals.get(row["player"], 0) + int(row["payment"] or 0)
    assert totals == SMALL_TOTALS


def record_fixture(client, name):
    """Post a fixture evening through the API (its rejected events must be refused)."""
    evening = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    session_id, auth = create(client, name=evening["name"], players=evening["players"], stakes=evening["stakes"],
                              options=evening["options"], ruleset=evening["ruleset"])
    for event in evening["events"]:
        kind = "hand" if "hand" in event else "seat"
        response = client.post(f"/api/sessions/{session_id}/{kind}s", json=event[kind], headers=auth)
        assert response.status_code == (422 if event.get("reject") else 201), (event, response.get_json())
    return evening, session_id, auth


def test_substitutes_are_settled_and_reported(client):
    evening, session_id, auth = record_fixture(client, "evening_substitutes.json")
    settlement = get(client, session_id, "settlement", auth).get_json()
    running = settlement.pop("running_totals")
    assert settlement == {"totals": evening["totals"], "transfers": evening["transfers"]}
    assert {player: series[-1] for player, series in running.items()} == evening["totals"]
    text = "\n".join(poppler.pages(get(client, session_id, "report.pdf", auth).data))
    for player, total in evening["totals"].items():
        amount = re.escape(f"{total:+d}")
        assert re.search(rf"^\s*\d+\s+{player}\s+{amount}\s+{amount}\s*$", text, re.M), player
    # Eve sits in for Amy after hand 2, Fay for Cat after hand 4, Amy comes back for Eve after hand 6
    spells = re.findall(r"^\s*([0-3])\s+(\w+)\s+#(\d+) - #(\d+)\s*$", text, re.M)
    assert spells == [("0", "Amy", "1", "2"), ("0", "Eve", "3", "6"), ("0", "Amy", "7", "13"),
                      ("1", "Ben", "1", "13"), ("2", "Cat", "1", "4"), ("2", "Fay", "5", "13"),
                      ("3", "Dan", "1", "13")]
    rows = list(csv.DictReader(io.StringIO(get(client, session_id, "hands.csv", auth).data.decode("utf-8-sig"))))
    assert [row["player"] for row in rows if row["hand"] in ("2", "3")] == [
        "Amy", "Ben", "Cat", "Dan", "Eve", "Ben", "Cat", "Dan"]
    totals = {}
    for row in rows:
        totals[row["player"]] = totals.get(row["player"], 0) + int(row["payment"])
    assert totals == evening["totals"]


def test_an_evening_named_by_its_date_downloads_with_the_date_once(client):
    """The page names an evening by its date: its files were "2026-12-07 2026-12-07.pdf" (issue 40, item 9)."""
    session_id, auth = create(client, name="placeholder")
    day = client.get(f"/api/sessions/{session_id}", headers=auth).get_json()["created_at"][:10]
    session_id, auth = create(client, name=day)
    for what, extension in (("report.pdf?tz=UTC", "pdf"), ("hands.csv", "csv")):
        disposition = get(client, session_id, what, auth).headers["Content-Disposition"]
        assert f'filename="{day}.{extension}"' in disposition, disposition


def test_cli_writes_the_same_report(app, client, runner, small, tmp_path):
    session_id, _ = small
    target = tmp_path / "sheet.pdf"
    result = runner.invoke(args=["report", session_id, "-o", str(target)])
    assert result.exit_code == 0, result.output
    text = "\n".join(poppler.pages(target.read_bytes()))
    for transfer in SMALL_TRANSFERS:
        assert re.search(rf"^\s*{transfer['from']}\s+{transfer['to']}\s+{transfer['amount']}\s*$", text, re.M)


def test_cli_names_an_unknown_session(runner):
    result = runner.invoke(args=["report", "no-such-session"])
    assert result.exit_code != 0
    assert "No session 'no-such-session'" in result.output


def test_the_pdf_takes_a_language_and_a_time_zone_and_refuses_unknown_ones(client):
    table = Table(client)
    table.hands_ok(discard("Ben", "Cat", 3))
    ok = client.get(f"{table.path}/report.pdf?lang=en&tz=Asia/Taipei", headers=table.headers())
    assert ok.status_code == 200 and ok.data.startswith(b"%PDF")
    for query, field in [("lang=fr", "lang"), ("tz=Mars/Olympus", "tz")]:
        refused = client.get(f"{table.path}/report.pdf?{query}", headers=table.headers())
        assert refused.status_code == 422, query
        assert field in refused.get_json()["message"]
