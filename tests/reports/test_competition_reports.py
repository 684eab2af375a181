"""The results sheet and the standings picture (reports.competition) of the hand-worked competition of twelve.

The standings are the fixture's (fixtures/competition_twelve.json, worked by hand in its notes and played
through the ledger as tests/ledger/test_competition_fixture.py does): after three rounds, with Cat
withdrawn after round 1, three sitting out in rounds 2 and 3 and the correction of round 2's table 2.
What the sheet must show of them, from the notes' "Final standings" and the rounds' nets (points as decimals
of at most two places: 25/3 is 8.33, 17/6 2.83, 7/3 2.33, 1/2 0.5):

- 1 Jay 25/3 +350: round 1 T3 東 0 (2 points), round 2 T2 南 +250 (4), round 3 T1 北 +100 (7/3).
- 8 Fay 17/6 -150: round 1 T3 西 -250 (1/2), round 2 sat out, round 3 T1 南 +100 (7/3).
- 9 Cat 2 +100, withdrawn: round 1 only, T1 西 +100 (2).
- 11 Gus 1 -250 and 12 Dan 1 -500: level on points, net money breaks the tie.
"""
import csv
import io

from PIL import Image

from api.competitions.views import standings_view
from ledger.competition import rank_entrants
from reports.card import render_card
from reports.competition import ResultsSheet, render_results_sheet, standings_card, standings_csv
from reports.fonts import report_font
from tests.ledger.test_competition_fixture import NAMES, RULES, played_through
from tests.reports.poppler import pages


def final_rows() -> list[dict]:
    """The fixture's twelve after its three rounds (its correction made), as GET …/standings answers them."""
    return standings_view(rank_entrants(*played_through(), RULES), dict(enumerate(NAMES, start=1)))


def sheet(ended: int = 3) -> ResultsSheet:
    return ResultsSheet("Twelve cup", "taiwan", 3, ended, (4, 2, 1, 0), final_rows())


def lines(pdf: bytes) -> list[list[str]]:
    return [line.split() for page in pages(pdf) for line in page.splitlines() if line.split()]


def test_the_sheet_lists_every_entrants_rounds_as_worked_by_hand():
    found = lines(render_results_sheet(sheet(), report_font(), "en"))
    text = [" ".join(line) for line in found]
    start = text.index(next(line for line in text if line.startswith("1 Jay")))
    assert text[start:start + 3] == ["1 Jay 8.33 +350 1 3 東 Ivy, Fay, Ben 0 2",
                                     "2 2 南 Gus, Ben, Hal +250 4",
                                     "3 1 北 Eve, Fay, Amy +100 2.33"]
    fay = text.index(next(line for line in text if line.startswith("8 Fay")))
    assert text[fay:fay + 3] == ["8 Fay 2.83 -150 1 3 西 Jay, Ivy, Ben -250 0.5", "2 sat out 0",
                                 "3 1 南 Eve, Amy, Jay +100 2.33"]
    assert "9 Cat (withdrawn) 2 +100 1 1 西 Amy, Gus, Dan +100 2" in text
    ranks = [(line[0], line[1]) for line in found if line[0].isdigit() and len(line) > 1 and line[1] in NAMES]
    assert ranks == [("1", "Jay"), ("2", "Amy"), ("3", "Eve"), ("4", "Kim"), ("5", "Ivy"), ("6", "Lee"),
                     ("7", "Hal"), ("8", "Fay"), ("9", "Cat"), ("10", "Ben"), ("11", "Gus"), ("12", "Dan")]
    assert "Final: all 3 rounds played" in text
    assert any("placement points 4/2/1/0 by net money" in line for line in text)


def test_the_sheet_as_it_stands_in_chinese():
    found = "\n".join(pages(render_results_sheet(sheet(ended=2), report_font(), "zh-Hans")))
    assert "目前成绩：2/3 轮已结束" in found and "轮空" in found and "（退赛）" in found
    assert "名次分 4/2/1/0" in found


def test_the_picture_shows_rank_name_points_and_net():
    rows = sheet().standings
    card = standings_card(sheet(), "en")
    assert card.subtitles == ("Final standings: all 3 rounds played", "12 entrants",
                              "Ranked by placement points, then net money")
    assert [(row.name, row.detail, row.amount) for row in card.rows[:2]] == [("1. Jay", "8.33 pts", 350),
                                                                               ("2. Amy", "8 pts", 400)]
    # Fay's 17/6 as two places, Cat withdrawn (said so), Gus's single point
    assert [(row.name, row.detail) for row in card.rows[7:11]] == [
        ("8. Fay", "2.83 pts"), ("9. Cat (withdrawn)", "2 pts"), ("10. Ben", "1.5 pts"), ("11. Gus", "1 pt")]
    hant = standings_card(sheet(), "zh-Hant")
    assert [(row.name, row.detail) for row in hant.rows[7:9]] == [("8. Fay", "2.83 分"), ("9. Cat（退賽）", "2 分")]
    assert len(card.rows) == len(rows) == 12 and card.rows_note == ""
    assert Image.open(io.BytesIO(render_card(card, report_font()))).size == (1080, 1920)


def test_the_csv_gives_points_as_decimals_a_spreadsheet_reads_as_numbers():
    """Jay 25/3 (8.33), Eve 41/6 (6.83), Kim 11/2 (5.5); Jay's round 3: three tied for first at T1 share places
    1-3 (place 2) and (4 + 2 + 1) / 3 = 7/3 points (2.33)."""
    found = {row["name"]: row for row in csv.DictReader(io.StringIO(standings_csv(final_rows(), 3).decode("utf-8-sig")))}
    assert [(name, found[name]["points"]) for name in ("Jay", "Eve", "Kim", "Cat", "Ben")] == [
        ("Jay", "8.33"), ("Eve", "6.83"), ("Kim", "5.5"), ("Cat", "2"), ("Ben", "1.5")]
    assert (found["Jay"]["round_3_place"], found["Jay"]["round_3_points"]) == ("2", "2.33")
    assert (found["Fay"]["round_1_place"], found["Fay"]["round_1_points"]) == ("3.5", "0.5")
