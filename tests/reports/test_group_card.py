"""A group's standings and balances cards (reports.group_card): what they say, their pixels, CJK not tofu.

The small group, worked by hand (100 底 / 20 per 台; the dealer, Amy, never in a hand with the dealer
extra): two evenings of Amy, Ben, 小明, Dan.
- Evening 1: Ben wins 1台 on 小明's discard (100 + 20 = 120), then Dan 2台 on 小明's (Ben deals,
  not involved: 140). Ben +120, Dan +140, 小明 -260.
- Evening 2: Dan wins 1台 on Ben's discard (120), then Amy 3台 on 小明's (Ben deals: 100 + 60 = 160).
  Dan +120, Ben -120, Amy +160, 小明 -160.
Net: Dan +260, Amy +160, Ben 0, 小明 -420 (sums to 0): ranked neither by name nor by seat. Cumulative,
evening by evening: Dan 0, 140, 260; Amy 0, 0, 160; Ben 0, 120, 0; 小明 0, -260, -420.

tests/api/groups/test_group_cards.py plays the same group through the API and compares its picture with
the same reference. The reference tests/reports/group_card_reference.png is the zh-Hant standings card
of that group in the font the tests use (Debian's fonts-wqy-zenhei). After a deliberate change of the
card's look, look at the new picture, then write it again with

    .venv/bin/python tests/reports/test_group_card.py

and commit it with the change.
"""
import datetime
import io
import sys
from pathlib import Path

from PIL import Image, ImageChops

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # when run as a script, to write the reference

from reports.card import render_card  # noqa: E402
from reports.chart import PALETTE_HEX  # noqa: E402
from reports.fonts import report_font  # noqa: E402
from reports.group import GroupEvening, GroupReport  # noqa: E402
from reports.group_card import balances_card, standings_card  # noqa: E402

REFERENCE = Path(__file__).with_name("group_card_reference.png")
NO_CJK_FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
GROUP = "週五牌友會"
RANKED = [("Dan", 260), ("Amy", 160), ("Ben", 0), ("小明", -420)]
CUMULATIVE = {"Dan": (0, 140, 260), "Amy": (0, 0, 160), "Ben": (0, 120, 0), "小明": (0, -260, -420)}
# The title band: 72 + 88 (title) + 2 × 57 (period, evenings) + 36 = 310 px; the rows start 56 + 67 px lower,
# 84 px each: 小明's, the fourth, from 433 + 3 × 84 = 685 to 769 px, its name from 72 + 26 + 24 = 122 px.
XIAOMING_ROW = (122, 685, 500, 769)


def small_group() -> GroupReport:
    day = datetime.date(2026, 11, 6)
    evenings = [GroupEvening("e1", "Friday", day, "taiwan", 2, {"Amy": 0, "Ben": 120, "小明": -260, "Dan": 140}),
                GroupEvening("e2", "Friday", day + datetime.timedelta(7), "taiwan", 2,
                             {"Amy": 160, "Ben": -120, "小明": -160, "Dan": 120})]
    standings = [{"name": name, "net": net} for name, net in RANKED]
    return GroupReport(GROUP, standings, {}, [], evenings)


def reference_png() -> bytes:
    return render_card(standings_card(small_group(), "zh-Hant"), report_font())


def picture(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


def assert_like_reference(png: bytes) -> None:
    """At most 100 pixels visibly changed (anti-aliasing between versions of Pillow or FreeType): one digit
    changed is some 400 (tests/reports/test_card.py)."""
    new, old = picture(png).convert("RGB"), Image.open(REFERENCE).convert("RGB")
    assert new.size == old.size
    difference = ImageChops.difference(new, old).convert("L")
    assert sum(difference.point(lambda value: 255 if value > 64 else 0).histogram()[255:]) <= 100


def test_the_standings_card_ranks_members_by_net_and_charts_their_cumulative_net():
    card = standings_card(small_group(), "en")
    assert card.title == GROUP
    assert card.subtitles == ("All evenings", "2 evenings")
    assert [(row.name, row.amount) for row in card.rows] == RANKED
    assert card.transfers_heading is None and card.transfers == ()  # standings settle nothing
    assert card.chart_heading == "Net money, evening by evening"
    colours = {row.name: row.colour for row in card.rows}
    assert dict(card.series) == CUMULATIVE
    lines = [name for name, _ in card.series]  # a member's dot has the colour of the member's line
    assert colours == {name: PALETTE_HEX[lines.index(name)] for name in colours}
    assert len(set(colours.values())) == 4


def test_the_standings_picture_matches_the_reference_and_draws_cjk_names():
    png = reference_png()
    image = picture(png)
    assert image.format == "PNG" and image.size == (1080, 1920)  # a phone screen: no taller than it need be
    assert_like_reference(png)
    tofu = picture(render_card(standings_card(small_group(), "zh-Hant"), report_font(NO_CJK_FONT)))
    real_row, tofu_row = image.convert("L").crop(XIAOMING_ROW), tofu.convert("L").crop(XIAOMING_ROW)
    assert real_row.getextrema()[0] < 100  # something dark is written there
    assert ImageChops.difference(real_row, tofu_row).getbbox() is not None


def test_the_balances_card_lists_who_owes_the_transfers_and_why_they_may_not_be_fewest():
    balances = {"balances": {"Amy": 0, "Ben": 100, "Cat": -300, "Dan": 200},
                "transfers": [{"from": "Cat", "to": "Dan", "amount": 200}, {"from": "Cat", "to": "Ben", "amount": 100}],
                "rounding": {"round_to": 100}, "fewest": False}
    card = balances_card("Friday club", balances, datetime.date(2026, 12, 1), "zh-Hans")
    assert card.subtitles == ("2026-12-01 未结余额",)
    assert [(row.name, row.amount) for row in card.rows] == [("Dan", 200), ("Ben", 100), ("Cat", -300)]
    assert [(t.frm, t.to, t.amount) for t in card.transfers] == [("Cat", "Dan", 200), ("Cat", "Ben", 100)]
    assert card.notes == ("余额已凑整到 100", "超过 16 笔余额：能全部结清，但不保证笔数最少")
    square = balances_card("Friday club", {"balances": {"Amy": 0}, "transfers": []}, datetime.date(2026, 12, 1), "en")
    assert (square.rows, square.transfers, square.notes) == ((), (), ())
    assert square.no_rows == "Nobody owes anything."
    assert picture(render_card(card, report_font())).size == (1080, 1920)


if __name__ == "__main__":
    REFERENCE.write_bytes(reference_png())
    print(f"Wrote {REFERENCE}")
