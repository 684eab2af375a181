"""The settlement sheet in 简体中文: every text of the sheet in Simplified characters and mainland words.

`friday()` (tests/reports/evenings.py): hand 1 is Ben's 門清 1 + 平胡 2 on 小明's discard, hand 5 Eve's
三元台 1 + 混一色 4 on 阿美's; hand 3 is voided. In 简体中文 平胡 is 平和 (the mainland word), 門清 门清;
the taiwan rule set keeps its 三元台. Only the evening's own name, 週五麻將 Friday, is as it was typed.
"""
import pytest

from reports.build import build_report
from reports.fonts import report_font
from reports.pdf import render_pdf
from tests.reports import poppler
from tests.reports.evenings import friday

# Characters of the sheet's Traditional words that Simplified writes otherwise.
TRADITIONAL_ONLY = set("結規賭選項數統計勢細額莊連將風槓聽詐廢門東條龍頭獨搶見無開撈魚對雙後發給與時關這們頁")


@pytest.fixture(scope="module")
def text():
    pdf = render_pdf(build_report(*friday(), round_to=100, lang="zh-Hans"), report_font(), lang="zh-Hans")
    return "\n".join(poppler.pages(pdf))


def test_headings_words_and_pattern_names_are_simplified(text):
    for expected in ("结算表 settlement sheet", "规则 rule set", "台湾十六张（庄家台，连庄）", "选项 options",
                     "走势 running totals", "牌局明细 every hand", "付款明细 why each payment",
                     "打了 6 局，作废 1 局", "门清 1台", "平和 2台", "三元台 1台", "混一色 4台",
                     "东风东局", "小明 点炮", "第1页"):  # poppler drops the spaces around the page number
        assert expected in text, expected
    assert "平胡" not in text


def test_the_rounding_is_explained_in_simplified_chinese(text):
    # Rounded to 100 (tests/reports/test_card.py): 200 left over, raised 小明 (remainder 60), then Amy (40).
    assert "每人的总计先舍去到 100 的倍数，多出 200，所以余数最大的 2 人（同数按名字）改为进位：小明、Amy。" in text


def test_no_traditional_character_but_in_the_evenings_own_name(text):
    rest = text.replace("週五麻將", "")
    assert not TRADITIONAL_ONLY & set(rest), sorted(TRADITIONAL_ONLY & set(rest))
