"""The group's reports: the PDF (also by ``?token=`` and from the command line) and the three CSVs."""
import csv
import datetime
import io

from api.groups.reports import group_report
from api.http import db
from ledger import group_store
from ledger.store import SessionRow
from tests.api.groups.groups import Club
from tests.api.sessions.tables import assert_rejected

BOM = b"\xef\xbb\xbf"


def small_club(client):
    """Ben wins 120 from Cat (1 台), Dan 140 from Cat (2 台); Cat pays Ben 100, then a voided 5 to Dan."""
    club = Club(client, name="Friday/club")
    ids = {name: club.add(name) for name in ("Amy", "Ben", "Cat", "Dan")}
    evening = club.evening(["Amy", "Ben", "Cat", "Dan"])
    evening.win("Ben", "Cat")
    evening.win("Dan", "Cat", tai=2)
    paid = club.pay("Cat", "Ben", 100, note="=cash").get_json()
    voided = club.pay("Cat", "Dan", 5).get_json()
    client.delete(f"{club.path}/payments/{voided['id']}", headers=club.headers())
    return club, ids, evening, paid, voided


def rows(response):
    assert response.status_code == 200 and response.data.startswith(BOM)
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"  # the charset named once (issue 29)
    return list(csv.reader(io.StringIO(response.data.decode("utf-8-sig"))))


def test_the_csvs_hold_standings_balances_and_payments(client):
    club, ids, evening, paid, voided = small_club(client)
    standings = rows(club.get("/standings.csv"))
    assert [row[:5] for row in standings[1:]] == [["1", ids["Dan"], "Dan", "140", "1"], ["2", ids["Ben"], "Ben", "120", "1"],
                                                  ["3", ids["Amy"], "Amy", "0", "1"], ["4", ids["Cat"], "Cat", "-260", "1"]]
    # Cat: -260 + 100 paid = -160; Ben 120 - 100 = 20; the voided 5 counts for nothing.
    assert rows(club.get("/balances.csv"))[1:] == [[ids["Amy"], "Amy", "0"], [ids["Ben"], "Ben", "20"],
                                                   [ids["Cat"], "Cat", "-160"], [ids["Dan"], "Dan", "140"]]
    payments = rows(club.client.get(f"{club.path}/payments.csv?token={club.tokens['read']}"))
    assert [row[2:] for row in payments[1:]] == [["Cat", "Ben", "100", "'=cash", "", "0"],
                                                 ["Cat", "Dan", "5", "", "", "1"]]
    assert_rejected(club.get("/standings.csv", query_string={"from": "2030-01-02", "to": "2030-01-01"}), "from")


def test_the_group_sheet_is_a_pdf_by_link_and_from_the_command_line(client, runner, tmp_path):
    club, *_ = small_club(client)
    response = client.get(f"{club.path}/report.pdf?token={club.tokens['read']}")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    assert response.data.startswith(b"%PDF")
    assert "Friday_club" in response.headers["Content-Disposition"]
    assert client.get(f"{club.path}/report.pdf").status_code == 401
    assert_rejected(club.get("/report.pdf", query_string={"from": "2030-01-02", "to": "2030-01-01"}), "from")
    target = tmp_path / "group.pdf"
    result = runner.invoke(args=["group-report", club.id, "-o", str(target)])
    assert result.exit_code == 0, result.output
    assert target.read_bytes().startswith(b"%PDF")
    unknown = runner.invoke(args=["group-report", "no-such-group"])
    assert unknown.exit_code != 0 and "No group 'no-such-group'" in unknown.output


def test_evenings_of_one_day_come_in_the_order_they_started_whatever_order_the_database_keeps(app, client):
    """Two tables of one evening: the sheet and the chart take them in the order they started, not as the
    database happens to return them (PostgreSQL's order changed with the rows an earlier test had deleted, and
    the standings picture drew the second table's money first)."""
    club = Club(client)
    for name in ("Amy", "Ben", "Cat", "Dan"):
        club.add(name)
    kept_first = club.evening(["Amy", "Ben", "Cat", "Dan"], name="Table 1")
    started_first = club.evening(["Amy", "Ben", "Cat", "Dan"], name="Table 2")
    with app.app_context():
        session = db.get_db()
        db.begin_write(session)
        row = session.get(SessionRow, kept_first.id)
        row.created_at = session.get(SessionRow, started_first.id).created_at + datetime.timedelta(seconds=1)
        session.commit()
        group = group_store.find_group(session, club.id)
        assert [evening.name for evening in group_report(session, group, None, None).by_day] == ["Table 2", "Table 1"]


def test_an_evenings_hand_count_leaves_out_a_voided_hand_in_the_list_and_on_the_sheet(app, client):
    """Three hands entered, the second voided: the table says 2 played, 1 voided; the group's list of
    evenings and its sheet say 2 (they said 3)."""
    club = Club(client)
    for name in ("Amy", "Ben", "Cat", "Dan"):
        club.add(name)
    evening = club.evening(["Amy", "Ben", "Cat", "Dan"])
    for winner in ("Ben", "Dan", "Ben"):
        evening.win(winner, "Cat")
    voided = client.delete(f"{evening.path}/hands/2", headers=club.headers())
    assert voided.status_code == 200, voided.get_json()
    assert client.get(evening.path, headers=club.headers()).get_json()["state"]["hands_played"] == 2
    assert [listed["hand_count"] for listed in club.get_ok()["evenings"]] == [2]
    with app.app_context():
        group = group_store.find_group(db.get_db(), club.id)
        assert [one.hands for one in group_report(db.get_db(), group, None, None).evenings] == [2]
