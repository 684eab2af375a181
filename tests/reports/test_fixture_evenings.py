"""Every hand-worked evening of fixtures/ (taiwan, shanghai, substitutes, house rules) makes a PDF and a CSV with its totals."""
import csv
import io
import re
from pathlib import Path

import pytest

from reports.build import build_report
from reports.csv import render_csv
from reports.fonts import report_font
from reports.pdf import render_pdf
from tests.reports import poppler
from tests.reports.evenings import fixture_evening

EVENINGS = sorted((Path(__file__).resolve().parents[2] / "fixtures").glob("evening_*.json"))


@pytest.mark.parametrize("path", EVENINGS, ids=lambda path: path.stem)
def test_fixture_evening_report_shows_its_hand_worked_totals(path):
    evening, session, entries = fixture_evening(path)
    report = build_report(session, entries)
    assert report.totals == evening["totals"]
    text = "\n".join(poppler.pages(render_pdf(report, report_font())))
    for player, total in evening["totals"].items():
        amount = re.escape(f"{total:+d}" if total else "0")
        assert re.search(rf"^\s*\d+\s+{player}\s+{amount}\s+{amount}\s*$", text, re.M), player
    rows = csv.DictReader(io.StringIO(render_csv(report).decode("utf-8-sig")))
    sums = dict.fromkeys(evening["totals"], 0)
    for row in rows:
        sums[row["player"]] += int(row["payment"] or 0)
    assert sums == evening["totals"]


@pytest.mark.parametrize("path", [p for p in EVENINGS if p.stem.startswith("evening_rules_change_")],
                         ids=lambda path: path.stem)
def test_a_change_of_house_rules_from_a_hand_on_is_on_the_sheet(path):
    """The sheet names the rules the evening started with ("-": none) and, on a line of its own, those from hand 3."""
    evening, session, entries = fixture_evening(path)
    report = build_report(session, entries)
    change = next(e["house_rules"] for e in evening["events"] if "house_rules" in e)
    assert report.header.house_rules == {} and report.header.house_rules_changes == ((3, change),)
    text = "\n".join(poppler.pages(render_pdf(report, report_font(), lang="en")))
    assert re.search(r"家規 house rules\s+-", text) and re.search(r"from hand 3\s+\S", text)
    zh = "\n".join(poppler.pages(render_pdf(report, report_font())))
    assert re.search(r"第 3 局起\s+\S", zh)


def test_shanghai_hands_show_points_and_wasteland():
    path = next(p for p in EVENINGS if "shanghai" in p.stem)
    _, session, entries = fixture_evening(path)
    report = build_report(session, entries)
    assert {w.unit for hand in report.hands for w in hand.winners} == {"points"}
    assert any(hand.wasteland for hand in report.hands)
    text = "\n".join(poppler.pages(render_pdf(report, report_font())))
    assert re.search(r"荒番\d", text) and re.search(r"\d+分", text)
