"""The PDF settlement sheet, read back with poppler as a reader would see it."""
import re
from pathlib import Path

import pytest
from reportlab.lib.pagesizes import A4, landscape

from reports.build import build_report
from reports.chart import running_total_chart
from reports.fonts import report_font, with_fallbacks
from reports.pdf import page_size, render_pdf
from tests.reports import poppler
from tests.reports.evenings import FRIDAY_TOTALS, PATTERN_NAMES, fixture_evening, friday, long_evening, record, session

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@pytest.fixture(scope="module")
def friday_pdf():
    return render_pdf(build_report(*friday()), report_font())


@pytest.fixture(scope="module")
def long_pdf():
    return render_pdf(build_report(*long_evening(500)), report_font())


def test_text_has_header_players_patterns_and_standings(friday_pdf):
    text = "\n".join(poppler.pages(friday_pdf))
    for expected in ["週五麻將 Friday", "2024-05-03", "台灣十六張", "底 100 / 台 20", *PATTERN_NAMES]:
        assert expected in text
    for player, total in FRIDAY_TOTALS.items():
        amount = re.escape(f"{total:+d}")
        assert re.search(rf"{player}\s+{amount}\s+{amount}", text), player


def test_text_has_every_transfer(friday_pdf):
    text = "\n".join(poppler.pages(friday_pdf))
    for payer, payee, amount in [("阿美", "Ben", 380), ("Dan", "Ben", 200), ("Amy", "小明", 160),
                                 ("Eve", "小明", 100), ("Eve", "Ben", 60)]:
        assert re.search(rf"^\s*{payer}\s+{payee}\s+{amount}\s*$", text, re.M), (payer, payee)


def test_hands_table_rows_show_dealer_winner_discarder_and_payments(friday_pdf):
    text = "\n".join(poppler.pages(friday_pdf))
    # hand 7: 小明 self-draws 3台 off dealer Eve (連2); columns Amy Ben 小明 Dan Eve 阿美, Amy and Ben gone
    assert re.search(r"^\s*7\s+東風西局\s+Eve 連2\s+小明 3台\s+自摸\s+\+580\s+-160\s+-260\s+-160\s*$", text, re.M)
    assert re.search(r"^\s*1\s+東風東局\s+Amy\s+Ben 3台: 門清 1台, 平胡 2台\s+小明 放槍\s+0\s+\+160\s+-160\s+0\s*$",
                     text, re.M)


def test_voided_hand_is_listed_and_marked(friday_pdf):
    text = "\n".join(poppler.pages(friday_pdf))
    assert re.search(r"^\s*3\s+東風南局\s+Ben 連1\s+Dan 5台\s+Amy 放槍(\s+void){4}\s*$", text, re.M)
    assert "作廢" in text


def test_seat_history_and_statistics(friday_pdf):
    text = "\n".join(poppler.pages(friday_pdf))
    for seat, player, span in [(0, "阿美", "#5 - #7"), (2, "小明", "#1 - #2"), (2, "Eve", "#4 - #7")]:
        assert re.search(rf"^\s*{seat}\s+{player}\s+{span}\s*$", text, re.M)
    assert re.search(r"^\s*小明\s+5\s+1\s+1\s+1\s+0\s+\+580 \(#7\)\s*$", text, re.M)  # no 詐胡


def test_every_font_is_embedded(friday_pdf, long_pdf):
    for pdf in (friday_pdf, long_pdf):
        fonts = poppler.fonts(pdf)
        assert fonts and all(font["emb"] == "yes" for font in fonts), fonts


def test_500_hands_render_on_a4_with_headers_on_every_page(long_pdf):
    pages = poppler.pages(long_pdf)
    assert poppler.info(long_pdf)["Page size"].strip().endswith("(A4)")
    assert len(pages) > 10
    for page in pages:
        assert "長夜 Long night · 2024-05-03" in page
    hand_pages = [page for page in pages if re.search(r"^\s*\d+\s+第\d+將", page, re.M)]
    assert len(hand_pages) > 8
    for page in hand_pages:
        assert re.search(r"#\s+圈/局\s+莊 dealer\s+胡 winners", page)  # the repeated header row
    numbers = {int(n) for n in re.findall(r"^\s*(\d+)\s+(?:第\d+將 )?[東南西北]風", "\n".join(pages), re.M)}
    assert numbers == set(range(1, 501))


def test_substitute_gets_a_column_and_a_seat_spell(long_pdf):
    text = "\n".join(poppler.pages(long_pdf))
    # hands 200, 350 and 500 were voided (every 50th): a spell runs over played hands only
    assert re.search(r"^\s*3\s+Dan\s+#1 - #199\s*$", text, re.M)
    assert re.search(r"^\s*3\s+林小姐\s+#201 - #349\s*$", text, re.M)
    assert re.search(r"^\s*3\s+Dan\s+#351 - #499\s*$", text, re.M)


def test_page_turns_landscape_only_when_the_payment_columns_do_not_fit():
    assert page_size(4) == A4
    assert page_size(6) == A4
    assert page_size(7) == landscape(A4)


def test_eight_participants_render_landscape_with_a_column_each():
    evening = session(name="Big night")
    events = [("hand", {"winners": [{"player": "Amy", "tai": 1}], "by": "self_draw"})]
    for seat, newcomer in enumerate(["Eve", "Fay", "Gus", "Hal"]):
        events += [("seat", {"seat": seat, "player": newcomer}), ("hand", {"draw": True})]
    pdf = render_pdf(build_report(evening, record(evening, events)), report_font())
    assert poppler.info(pdf)["Page size"].split() == ["841.89", "x", "595.276", "pts", "(A4)"]
    text = "\n".join(poppler.pages(pdf))
    assert re.search(r"放槍/自摸\s+Amy\s+Ben\s+小明\s+Dan\s+Eve\s+Fay\s+Gus\s+Hal\s*$", text, re.M)


@pytest.mark.parametrize("long_name", ["A" * 262, "麻" * 117], ids=["262-ascii", "117-cjk"])
def test_a_very_long_player_or_session_name_is_cut_short_in_narrow_cells_not_a_crash(long_name):
    """Such names raised reportlab's LayoutError (a payment column's header taller than the page)."""
    players = [long_name, "Ben", "Cat", "Dan"]
    evening = session(name=long_name, players=players)
    entries = record(evening, [("hand", {"winners": [{"player": long_name, "tai": 3}], "by": "discard",
                                         "discarder": "Ben"})])
    text = "\n".join(poppler.pages(render_pdf(build_report(evening, entries), report_font())))
    assert long_name[:5] in text
    assert "…" in text
    # the long-named player deals (seat 0) and wins 3台 on Ben's discard, dealer bonus 1台: 100 + 20 × 4 = 180
    assert re.search(r"^\s*4\s+Ben\s+-180\s+-180\s*$", text, re.M)


# -- issue 17: what a table sees on paper -----------------------------------------------------------------------


def test_options_are_in_words_without_internal_ids(friday_pdf):
    text = "\n".join(poppler.pages(friday_pdf))
    # friday's options: dealer_bonus on, multiple_winners off, max_tai none (tests/reports/evenings.py).
    assert "莊家台: 1 + 2n; 一炮多響: 關; 台數上限: 不設" in text
    assert "dealer_bonus" not in text and "(taiwan)" not in text
    english = "\n".join(poppler.pages(render_pdf(build_report(*friday()), report_font(), lang="en")))
    assert "dealer extra 莊家台: 1 + 2n; several winners on one discard (一炮多響): off; cap on 台: none" in english


@pytest.mark.parametrize("lang, options, house", [
    ("zh", "莊家台: 1 + n; 一炮多響: 關; 台數上限: 不設", "連莊 1+n"),
    ("zh-Hans", "庄家台: 1 + n; 一炮多响: 关; 台数上限: 不设", "连庄 1+n"),
    ("en", "dealer extra 莊家台: 1 + n; several winners on one discard (一炮多響): off; cap on 台: none", "連莊 1+n")])
def test_the_options_row_says_the_dealer_extra_the_house_rules_row_says(lang, options, house):
    """fixtures/evening_house_rules_taiwan.json plays 1 + n (RULES.md §8): both rows say so, neither 1 + 2n."""
    _, stored, entries = fixture_evening(FIXTURES / "evening_house_rules_taiwan.json")
    text = "\n".join(poppler.pages(render_pdf(build_report(stored, entries), report_font(), lang=lang)))
    assert options in text and house in text
    assert "1 + 2n" not in text and "1+2n" not in text


def test_every_payment_is_explained_in_the_language_asked(friday_pdf):
    text = "\n".join(poppler.pages(friday_pdf))
    # Hand 7: 小明 self-draws 3台 off dealer Eve on streak 2: Dan pays 100 + 20 × 3 = 160, Eve adds
    # the dealer extra 1 + 2 × 2 = 5 台: 100 + 20 × (3 + 5) = 260.
    assert "Dan 付 小明 160：自摸 · 底 100 · 3 台 × 20 = 60" in text
    assert "Eve 付 小明 260：自摸 · 底 100 · 3 台 × 20 = 60 · 莊家台：Eve 連2，1 + 2×2 = 5 台 × 20 = 100" in text
    english = "\n".join(poppler.pages(render_pdf(build_report(*friday()), report_font(), lang="en")))
    assert "Dan pays 小明 160: self-draw · base 100 · 3 台 × 20 = 60" in english


def test_a_corrected_hand_is_marked_with_its_time_in_the_zone_asked():
    import datetime
    from types import SimpleNamespace
    from zoneinfo import ZoneInfo

    evening, entries = friday()
    audits = [SimpleNamespace(number=1, action="correct", at=datetime.datetime(2024, 5, 3, 13, 14))]
    pdf = render_pdf(build_report(evening, entries, audits=audits), report_font(), lang="en",
                     zone=ZoneInfo("Asia/Taipei"))
    text = "\n".join(poppler.pages(pdf))
    assert "corrected 21:14" in text  # 13:14 UTC is 21:14 in Taipei (UTC+8)


def test_chart_ticks_are_whole_hands_and_the_legend_stays_on_the_page():
    long_name = "Bartholomew Maximilian Longname-Smythe the Third"
    evening = session(players=[long_name, "Ben", "小明", "Dan"])
    entries = record(evening, [("hand", {"winners": [{"player": "Ben", "tai": 1}], "by": "self_draw"}),
                               ("hand", {"winners": [{"player": "Dan", "tai": 2}], "by": "self_draw"})])
    report = build_report(evening, entries)
    font = report_font()
    width = 500
    chart = running_total_chart(report, font.name, width)
    assert chart.getBounds()[2] <= width  # nothing drawn past the chart's (the page's) right edge
    text = "\n".join(poppler.pages(render_pdf(report, font)))
    assert "0.5" not in text and "1.5" not in text


def test_long_latin_names_break_between_words_not_letters():
    evening = session(players=["Maximiliana", "Bartholomew", "小明", "Dan"])
    entries = record(evening, [("hand", {"winners": [{"player": "Dan", "tai": 1}], "by": "self_draw"})])
    text = "\n".join(poppler.pages(render_pdf(build_report(evening, entries), report_font())))
    assert re.search(r"\bMaximiliana\s+Bartholomew\s+小明\s+Dan\s*$", text, re.M)


def test_emoji_in_names_are_drawn_from_a_fallback_font():
    # DejaVu Sans (fonts-dejavu-core, installed by `make test`) has 😀 and ☺, the CJK font has not.
    evening = session(players=["Amy😀", "Ben☺", "小明", "Dan"])
    entries = record(evening, [("hand", {"winners": [{"player": "Ben☺", "tai": 1}], "by": "self_draw"})])
    pdf = render_pdf(build_report(evening, entries), with_fallbacks(report_font()))
    text = "\n".join(poppler.pages(pdf))
    assert "Ben☺" in text  # 😀 is drawn too, but poppler cannot read back a character beyond U+FFFF
    assert any("DejaVuSans" in font["name"] for font in poppler.fonts(pdf))
    assert all(font["emb"] == "yes" for font in poppler.fonts(pdf))


def test_the_sheet_of_a_closed_evening_says_it_is_final_with_the_time_in_the_zone_asked():
    import datetime
    from zoneinfo import ZoneInfo

    evening, entries = friday()
    assert "Final" not in "\n".join(poppler.pages(render_pdf(build_report(evening, entries), report_font(), lang="en")))
    evening.closed_at = datetime.datetime(2024, 5, 3, 13, 40)  # 13:40 UTC is 21:40 in Taipei (UTC+8)
    for lang, line in (("en", "Final: closed 21:40"), ("zh", "定案：21:40 結束")):
        pdf = render_pdf(build_report(evening, entries), report_font(), lang=lang, zone=ZoneInfo("Asia/Taipei"))
        assert line in poppler.pages(pdf)[0]


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans", "en"])
def test_the_time_of_a_correction_is_never_broken_inside(lang):
    """Issue 29 item 14: in a narrow outcome cell, Chinese wrapping broke "21:14" after its colon."""
    import datetime
    from types import SimpleNamespace
    from zoneinfo import ZoneInfo

    evening, entries = friday()
    audits = [SimpleNamespace(number=number, action="correct", at=datetime.datetime(2024, 5, 3, 13, 14))
              for number in range(1, 7)]
    pdf = render_pdf(build_report(evening, entries, audits=audits), report_font(), lang=lang,
                     zone=ZoneInfo("Asia/Taipei"))
    text = "\n".join(poppler.pages(pdf))
    assert text.count("21:") == text.count("21:14") > 0
