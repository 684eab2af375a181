"""The settlement card (reports.card): what it says, its size, its pixels, and real CJK glyphs rather than tofu.

The evening is `friday()` of tests/reports/evenings.py. Its totals, worked by hand there: Ben +640,
小明 +260, Amy -160, Eve -160, Dan -200, 阿美 -380 (900 won, 900 paid). No group of players settles
among themselves (小明's 260 is no sum of debts from 160, 160, 200, 380), so 6 - 1 = 5 transfers.

Rounded to 100 (largest remainders, ties by name): down to Ben 600 (rest 40), 小明 200 (60), Amy -200 (40),
Eve -200 (40), Dan -200 (0), 阿美 -400 (20) sums to -200, so the two largest remainders go up: 小明 (60),
then of the 40s Amy (first by name): 小明 +300, Amy -100.

The reference picture tests/reports/card_reference.png is the zh-Hant card of that evening in the
font the tests use (Debian's fonts-wqy-zenhei, the first of `reports.fonts.INSTALLED_FONTS`). After a
deliberate change of the card's look, look at the new picture, then write it again with

    .venv/bin/python tests/reports/test_card.py

and commit it with the change.
"""
import io
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFont

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # when run as a script, to write the reference

from reports import card as cards  # noqa: E402
from reports.build import build_report  # noqa: E402
from reports.fonts import report_font  # noqa: E402
from tests.reports.evenings import friday, record, session  # noqa: E402

REFERENCE = Path(__file__).with_name("card_reference.png")
NO_CJK_FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"  # Latin, Greek, Cyrillic: no 小 or 明
RANKED = [("Ben", 640), ("小明", 260), ("Amy", -160), ("Eve", -160), ("Dan", -200), ("阿美", -380)]
# The card of friday(), from the layout's numbers: the title band is 72 + 88 (title) + 3 × 57 (date,
# rules, stakes) + 36 = 367 px; each section starts 56 px lower with a 67 px heading; 6 totals and
# 5 transfers of 84 px; the chart 420 px; 2 × 72 px at the bottom: 367 + 56 + 67 + 504 + 56 + 67 + 420
# + 56 + 67 + 420 + 144 = 2224 px, taller than the 1920 px minimum.
FRIDAY_HEIGHT = 2224
# 小明's row, the second total: from 367 + 56 + 67 + 84 = 574 to 658 px; the name starts at 72 + 26 + 24 = 122 px.
XIAOMING_ROW = (122, 574, 500, 658)


@pytest.fixture(scope="module")
def friday_report():
    return build_report(*friday())


@pytest.fixture(scope="module")
def font():
    return report_font()


def picture(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


def reference_png() -> bytes:
    return cards.render_card(cards.session_card(build_report(*friday()), "zh-Hant"), report_font())


def test_the_card_of_an_evening_says_totals_largest_first_and_the_settlements_transfers(friday_report):
    card = cards.session_card(friday_report, "zh-Hant")
    assert card.title == "週五麻將 Friday"
    assert card.subtitles == ("2024-05-03", "台灣十六張 (莊家台, 連莊)", "底 100 / 台 20 · 6 局")
    assert [(row.name, row.amount) for row in card.rows] == RANKED
    assert len(card.transfers) == 5
    assert card.transfers == tuple(friday_report.settlement.transfers)
    paid = {name: 0 for name, _ in RANKED}
    for transfer in card.transfers:
        paid[transfer.frm] -= transfer.amount
        paid[transfer.to] += transfer.amount
    assert paid == dict(RANKED)
    assert card.notes == ()
    assert [len(totals) for _, totals in card.series] == [7] * 6  # the start and 6 played hands (#3 is void)


def test_a_rounded_evening_shows_the_rounded_totals_and_says_so():
    card = cards.session_card(build_report(*friday(), round_to=100), "en")
    assert [(row.name, row.amount) for row in card.rows] == [
        ("Ben", 600), ("小明", 300), ("Amy", -100), ("Dan", -200), ("Eve", -200), ("阿美", -400)]
    assert card.notes == ("totals rounded to 100",)


@pytest.mark.parametrize("lang, words", [
    ("zh-Hant", ("台灣十六張 (莊家台, 連莊)", "總計", "誰付誰", "走勢", "底 100 / 台 20 · 6 局")),
    ("zh-Hans", ("台湾十六张（庄家台，连庄）", "总计", "谁付谁", "走势", "底 100 / 台 20 · 6 局")),
    ("en", ("Taiwanese 16-tile (dealer extra, streaks)", "Totals", "Who pays whom", "Running totals",
            "base 100 / per 台 20 · 6 hands")),  # issue 29: the stakes in English too
])
def test_the_card_speaks_the_language_asked(friday_report, lang, words):
    card = cards.session_card(friday_report, lang)
    ruleset, totals, transfers, chart, stakes_and_hands = words
    assert card.subtitles[1] == ruleset
    assert card.subtitles[2] == stakes_and_hands
    assert (card.rows_heading, card.transfers_heading, card.chart_heading) == (totals, transfers, chart)


def test_the_png_is_a_phone_shaped_picture(friday_report, font):
    image = picture(cards.render_card(cards.session_card(friday_report, "en"), font))
    assert image.format == "PNG"
    assert image.size == (1080, FRIDAY_HEIGHT)


def test_a_small_evening_still_fills_a_phone_screen(font):
    evening = session(name="Quiet")
    card = cards.session_card(build_report(evening, record(evening, [])), "en")
    assert card.rows and card.transfers == ()
    assert picture(cards.render_card(card, font)).size == (1080, 1920)


def test_the_picture_matches_the_reference_rendering():
    """Anti-aliasing may change a little between Pillow or FreeType versions; text, lines and layout may not.

    Measured: one digit of a total changed 400 pixels visibly (by more than a quarter of the scale), one
    character of a subtitle 182; at most 100 of the 2.4 million may.
    """
    new = picture(reference_png()).convert("RGB")
    old = Image.open(REFERENCE).convert("RGB")
    assert new.size == old.size
    difference = ImageChops.difference(new, old).convert("L")
    changed = sum(difference.point(lambda value: 255 if value > 64 else 0).histogram()[255:])
    assert changed <= 100
    mean = sum(level * count for level, count in enumerate(difference.histogram())) / (new.width * new.height)
    assert mean < 0.1


def glyphs(text: str, font: ImageFont.FreeTypeFont) -> Image.Image:
    image = Image.new("L", (200, 100), 255)
    ImageDraw.Draw(image).text((10, 80), text, font=font, fill=0, anchor="ls")
    return image


def drawn_by_card_fonts(text: str, font) -> Image.Image:
    image = Image.new("RGB", (200, 100), "#ffffff")
    cards.CardFonts(font).draw(ImageDraw.Draw(image), 10, 80, text, 60, "#000000")
    return image.convert("L")


def test_the_card_fonts_draw_cjk_glyphs_where_a_font_without_them_draws_tofu(font):
    no_cjk = ImageFont.truetype(NO_CJK_FONT, 60)
    # Without CJK glyphs, 小 and 明 are the same box (tofu); drawn by the card, they are two characters.
    assert ImageChops.difference(glyphs("小", no_cjk), glyphs("明", no_cjk)).getbbox() is None
    assert ImageChops.difference(drawn_by_card_fonts("小", font), drawn_by_card_fonts("明", font)).getbbox()
    assert ImageChops.difference(drawn_by_card_fonts("小明", font), glyphs("小明", no_cjk)).getbbox()


def test_the_cjk_name_on_the_card_is_not_tofu(friday_report, font):
    tofu_font = report_font(NO_CJK_FONT)  # a card drawn as if no CJK font were there
    assert not tofu_font.source.endswith(".ttc#0")
    card = cards.session_card(friday_report, "en")
    real = picture(cards.render_card(card, font)).convert("L").crop(XIAOMING_ROW)
    tofu = picture(cards.render_card(card, tofu_font)).convert("L").crop(XIAOMING_ROW)
    assert real.getextrema()[0] < 100  # something dark is written there
    assert ImageChops.difference(real, tofu).getbbox() is not None


def test_long_names_are_cut_with_an_ellipsis_inside_the_margins(font):
    long_name = "很" * 60
    evening = session(name="Friday " + "長" * 80, players=[long_name, "B" * 90, "Cat", "Dan"])
    events = [("hand", {"winners": [{"player": long_name, "tai": 2}], "by": "discard", "discarder": "B" * 90})]
    card = cards.session_card(build_report(evening, record(evening, events)), "en")
    image = picture(cards.render_card(card, font)).convert("RGB")
    fonts = cards.CardFonts(font)
    cut = fonts.fit(long_name, cards.ROW_SIZE, 600)
    assert cut.endswith("…") and len(cut) < 60 and fonts.width(cut, cards.ROW_SIZE) <= 600
    # Nothing is drawn in the right margin (72 px, less 8 for the chart's line ends): the band there is all
    # green, the rest all white.
    margin = image.crop((1080 - 72 + 8, 0, 1080, image.height))
    colours = {colour for _, colour in margin.getcolors(maxcolors=1_000_000)}
    assert colours == {(0x0F, 0x51, 0x32), (0xFF, 0xFF, 0xFF)}


if __name__ == "__main__":
    REFERENCE.write_bytes(reference_png())
    print(f"Wrote {REFERENCE}")
