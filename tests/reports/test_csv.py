"""The hands CSV: UTF-8 with BOM, one row per hand per seated player, with the payment."""
import csv
import io

from reports.build import build_report
from reports.csv import COLUMNS, render_csv
from tests.reports.evenings import FRIDAY_TOTALS, friday, record, session


def rows():
    data = render_csv(build_report(*friday()))
    assert data.startswith(b"\xef\xbb\xbf")
    return list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))


def test_header_and_one_row_per_hand_per_seated_player():
    parsed = rows()
    assert tuple(parsed[0]) == COLUMNS
    assert len(parsed) == 7 * 4
    assert [row["player"] for row in parsed if row["hand"] == "7"] == ["阿美", "小明", "Eve", "Dan"]


def test_payments_sum_to_every_participants_total():
    sums = {}
    for row in rows():
        sums[row["player"]] = sums.get(row["player"], 0) + int(row["payment"] or 0)
    assert sums == FRIDAY_TOTALS


def test_a_row_says_seat_wind_role_value_patterns_payment_and_running_total():
    by_key = {(row["hand"], row["player"]): row for row in rows()}
    ben = by_key[("1", "Ben")]
    assert (ben["seat"], ben["seat_wind"], ben["role"], ben["outcome"], ben["value"], ben["patterns"],
            ben["payment"], ben["running_total"]) == ("1", "S", "winner", "discard", "3", "門清 1台; 平胡 2台",
                                                      "160", "160")
    eve = by_key[("7", "Eve")]
    assert (eve["dealer"], eve["streak"], eve["seat"], eve["seat_wind"], eve["payment"], eve["running_total"]) == (
        "Eve", "2", "2", "E", "-260", "-160")  # Eve: -120, +220, then -260
    assert by_key[("6", "Dan")]["outcome"] == "draw: exhausted"


def test_voided_hand_keeps_its_rows_without_payments():
    voided = [row for row in rows() if row["hand"] == "3"]
    assert [(r["void"], r["player"], r["role"], r["payment"], r["running_total"]) for r in voided] == [
        ("1", "Amy", "discarder", "", ""), ("1", "Ben", "", "", ""),
        ("1", "小明", "", "", ""), ("1", "Dan", "winner", "", ""),
    ]


def test_names_a_spreadsheet_would_run_as_formulas_are_written_as_text():
    # OWASP's CSV injection advice: a cell starting with =, +, -, @, tab or CR gets a leading '.
    players = ['=HYPERLINK("http://x","y")', "+Ben", "-Cat", "@Dan"]
    table = session(players=players)
    entries = record(table, [("hand", {"winners": [{"player": "+Ben", "tai": 3}], "by": "discard",
                                       "discarder": "-Cat"})])
    data = render_csv(build_report(table, entries)).decode("utf-8-sig")
    parsed = list(csv.DictReader(io.StringIO(data)))
    assert [row["player"] for row in parsed] == ["'" + name for name in players]
    assert parsed[0]["dealer"] == "'" + players[0]
    # Numbers stay numbers: the -Cat row pays 100 + 20 × 3 = 160 as -160, not '-160.
    assert [row["payment"] for row in parsed] == ["0", "160", "-160", "0"]
