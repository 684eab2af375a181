"""The report's sentences in the reader's language (`zh-Hant`, `zh-Hans` or `en`): payment reasons, options, corrections.

The reasons are the language-neutral codes of `ledger.explain`; the phone
page words the same codes in `api/page/static/app/js/views/explain.js`. Pattern
names come from `ledger.pattern_names`, one table per language.

Which language: `?lang=` when given, else the reader's `Accept-Language`
(`language_from_accept`): zh-CN, zh-SG and zh-Hans are 简体中文; zh-TW,
zh-HK, zh-MO, zh-Hant and a bare zh are 繁體中文. `zh` as a `lang` value is
kept for links made before 简体中文 existed: it means zh-Hant.

>>> line = {"payer": "Cat", "payee": "Ben", "amount": 160, "reasons": [
...     {"code": "discard"}, {"code": "base", "amount": 100},
...     {"code": "tai", "tai": 3, "per_tai": 20, "amount": 60, "patterns": None}]}
>>> line_text(line, "en")
'Cat pays Ben 160: discarded · base 100 · 3 台 × 20 = 60'
>>> line_text(line, "zh")
'Cat 付 Ben 160：放槍 · 底 100 · 3 台 × 20 = 60'
>>> line_text(line, "zh-Hans")
'Cat 付 Ben 160：点炮 · 底 100 · 3 台 × 20 = 60'
>>> line_text({"payer": "Ben", "payee": "Amy", "amount": 300, "reasons": [
...     {"code": "false_win"}, {"code": "base", "amount": 100},
...     {"code": "tai", "tai": 8, "per_tai": 20, "amount": 160, "patterns": None},
...     {"code": "dealer_extra", "dealer": "Amy", "streak": 1, "tai": 2, "per_tai": 20, "amount": 40,
...      "formula": "1+n"}]}, "en")
'Ben pays Amy 300: false win (詐胡) · base 100 · 8 台 × 20 = 160 · dealer extra, Amy on streak 1: 1 + 1 = 2 台 × 20 = 40'
>>> reason_text({}, {"code": "dealer_extra", "dealer": "Amy", "streak": 2, "tai": 2, "per_tai": 20, "amount": 40,
...                   "formula": "1+n", "capped_from": 3}, "zh")
'莊家台：Amy 連2，1 + 2 = 3，上限 2 台 × 20 = 40'
>>> options_text({"dealer_bonus": True, "multiple_winners": False, "max_tai": None}, "en")
'dealer extra 莊家台 (1 + 2n): on; several winners on one discard (一炮多響): off; cap on 台: none'
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

TRADITIONAL, SIMPLIFIED, ENGLISH = "zh-Hant", "zh-Hans", "en"
LANGUAGES = (TRADITIONAL, SIMPLIFIED, ENGLISH)
OLD_NAMES = {"zh": TRADITIONAL}  # `lang=zh` of links and scripts from before 简体中文
ACCEPTED = LANGUAGES + tuple(OLD_NAMES)  # what `?lang=` and `--lang` take
SIMPLIFIED_REGIONS = {"cn", "sg", "my"}

WORDS = {
    "en": {
        "sheet_title": "{name} · 結算表 settlement sheet", "h_date": "日期 date", "h_rules": "規則 rule set",
        "h_stakes": "賭注 stakes", "h_options": "選項 options", "h_house": "家規 house rules", "h_hands": "局數 hands",
        "h_standings": "名次 standings", "h_transfers": "付款 transfers", "h_seats": "座位 who sat where and when",
        "h_stats": "統計 statistics", "h_chart": "走勢 running totals", "h_every_hand": "牌局明細 every hand",
        "h_why": "付款明細 why each payment", "col_rank": "名次", "col_player": "玩家 player", "col_total": "總計 total",
        "col_settled": "結算 settled", "col_from": "付 from", "col_to": "收 to", "col_amount": "金額 amount",
        "col_seat": "座 seat", "col_seat_hands": "局 hands", "col_played": "局 hands", "col_wins": "胡 wins",
        "col_self_draws": "自摸 self-draws", "col_deal_ins": "放槍 deal-ins", "col_false_wins": "詐胡 false wins",
        "col_biggest": "最大一手 biggest hand", "col_round": "圈/局", "col_dealer": "莊 dealer",
        "col_winners": "胡 winners", "col_outcome": "放槍/自摸", "void_mark": "void", "no_hand_played": "no hand played",
        "page": "page {page}", "brand": "台帳 Taizhang",
        "hand_counts": "{played} played, {voided} voided 作廢", "rounding": "找零 rounding: {explanation}",
        "card_totals": "Totals", "card_transfers": "Who pays whom", "card_square": "Everyone is square: no transfers.",
        "card_chart": "Running totals", "card_hands": "{played} hands", "card_rounded": "totals rounded to {round_to}",
        "ruleset_taiwan": "Taiwanese 16-tile (dealer extra, streaks)",
        "ruleset_taiwan_zz": "Taiwanese 16-tile, 政治麻將 table (見花見字 optional)",
        "ruleset_shanghai": "Shanghai 清混碰 (flowers, 勒子, 荒番, 三口包)",
        "pays": "{payer} pays {payee} {amount}: {why}",
        "self_draw": "self-draw", "discard": "discarded", "robbing_kong": "kong robbed (搶槓)",
        "eight_flowers": "八仙過海 / 八花, paid as a self-draw", "seven_flowers_rob": "七搶一: holds the eighth flower",
        "base": "base {amount}", "tai": "{tai} 台 × {per_tai} = {amount}",
        "tai_capped": "{tai} 台 (cap; the hand had {capped_from}) × {per_tai} = {amount}",
        "dealer_extra": "dealer extra, {dealer} on streak {streak}: {formula} = {tai} 台 × {per_tai} = {amount}",
        "formula_1+2n": "1 + 2×{streak}", "formula_1+n": "1 + {streak}",
        "dealer_extra_capped": ("dealer extra, {dealer} on streak {streak}: {formula} = {capped_from}, "
                                "capped at {tai} 台 × {per_tai} = {amount}"),
        "false_win": "false win (詐胡)", "false_win_amount": "{amount} to each",
        "share": "{points} points × 底分 {base} = {amount}", "share_breakdown": "花 {flowers} · 勒 {lei} · 番 {fan}",
        "wasteland": "荒番 ×2 (counter {counter})", "wasteland_dice": "荒番 ×2 (counter {counter}, dice {dice})",
        "shares": "× {shares} share(s)",
        "three_mouth_self_draw": "三口 with {payee}: {payer} pays 5 shares, the others nothing",
        "three_mouth_discard": "三口: discarded to a related player, 2 shares",
        "three_mouth_ready": "discarded while ready (聽牌) to a player with 三口: 1 share",
        "three_mouth_ready_related": ("三口 with {payee}: {discarder} discarded while ready, "
                                      "so {payer} pays a share without discarding"),
        "three_mouth_not_ready": "discarded while not ready to a player with 三口: 2 shares, alone",
        "corrected": "corrected {time}",
        "final": "Final: closed {time}",
        "on": "on", "off": "off", "none": "none",
        "dealer_bonus": "dealer extra 莊家台 (1 + 2n)", "multiple_winners": "several winners on one discard (一炮多響)",
        "max_tai": "cap on 台", "see_flower_see_word": "見花見字",
        "house_off": "off {names}", "house_on": "on {names}", "house_dealer_cap": ", max {cap}",
        "house_false_win_amount": "詐胡 {amount} each", "house_false_win_as_self_draw": "詐胡 as self-draw {value}",
        "house_separator": "; ",
    },
    "zh-Hant": {
        "sheet_title": "{name} · 結算表 settlement sheet", "h_date": "日期 date", "h_rules": "規則 rule set",
        "h_stakes": "賭注 stakes", "h_options": "選項 options", "h_house": "家規 house rules", "h_hands": "局數 hands",
        "h_standings": "名次 standings", "h_transfers": "付款 transfers", "h_seats": "座位 who sat where and when",
        "h_stats": "統計 statistics", "h_chart": "走勢 running totals", "h_every_hand": "牌局明細 every hand",
        "h_why": "付款明細 why each payment", "col_rank": "名次", "col_player": "玩家 player", "col_total": "總計 total",
        "col_settled": "結算 settled", "col_from": "付 from", "col_to": "收 to", "col_amount": "金額 amount",
        "col_seat": "座 seat", "col_seat_hands": "局 hands", "col_played": "局 hands", "col_wins": "胡 wins",
        "col_self_draws": "自摸 self-draws", "col_deal_ins": "放槍 deal-ins", "col_false_wins": "詐胡 false wins",
        "col_biggest": "最大一手 biggest hand", "col_round": "圈/局", "col_dealer": "莊 dealer",
        "col_winners": "胡 winners", "col_outcome": "放槍/自摸", "void_mark": "void", "no_hand_played": "no hand played",
        "page": "page {page}", "brand": "台帳 Taizhang",
        "hand_counts": "打了 {played} 局，作廢 {voided} 局", "rounding": "找零 rounding：{explanation}",
        "rounding_none": "每人的總計都已是 {round_to} 的倍數，沒有調整。",
        "rounding_up": "每人的總計先捨去到 {round_to} 的倍數，多出 {left}，所以餘數最大的 {count} 人（同數依名字）改為進位：{names}。",
        "card_totals": "總計", "card_transfers": "誰付誰", "card_square": "大家兩清，不用付款。",
        "card_chart": "走勢", "card_hands": "{played} 局", "card_rounded": "總計已湊整到 {round_to}",
        "pays": "{payer} 付 {payee} {amount}：{why}",
        "self_draw": "自摸", "discard": "放槍", "robbing_kong": "被搶槓",
        "eight_flowers": "八仙過海／八花，照自摸付", "seven_flowers_rob": "七搶一：持第八張花",
        "base": "底 {amount}", "tai": "{tai} 台 × {per_tai} = {amount}",
        "tai_capped": "{tai} 台（上限；原 {capped_from} 台）× {per_tai} = {amount}",
        "dealer_extra": "莊家台：{dealer} 連{streak}，{formula} = {tai} 台 × {per_tai} = {amount}",
        "formula_1+2n": "1 + 2×{streak}", "formula_1+n": "1 + {streak}",
        "dealer_extra_capped": "莊家台：{dealer} 連{streak}，{formula} = {capped_from}，上限 {tai} 台 × {per_tai} = {amount}",
        "false_win": "詐胡", "false_win_amount": "每家 {amount}",
        "share": "{points} 分 × 底分 {base} = {amount}", "share_breakdown": "花 {flowers} · 勒 {lei} · 番 {fan}",
        "wasteland": "荒番加倍（荒番 {counter}）", "wasteland_dice": "荒番加倍（荒番 {counter}，骰子 {dice}）",
        "shares": "× {shares} 份",
        "three_mouth_self_draw": "與 {payee} 三口：{payer} 付 5 份，其他人不付",
        "three_mouth_discard": "三口：放槍給有三口關係的人，付 2 份",
        "three_mouth_ready": "聽牌時放槍給有三口的人：付 1 份",
        "three_mouth_ready_related": "與 {payee} 三口：{discarder} 聽牌放槍，{payer} 沒放槍也付 1 份",
        "three_mouth_not_ready": "未聽牌放槍給有三口的人：獨付 2 份",
        "corrected": "{time} 更正",
        "final": "定案：{time} 結束",
        "on": "開", "off": "關", "none": "不設",
        "dealer_bonus": "莊家台（1 + 2n）", "multiple_winners": "一炮多響", "max_tai": "台數上限",
        "see_flower_see_word": "見花見字",
        "house_off": "不計 {names}", "house_on": "加計 {names}", "house_dealer_cap": "，上限 {cap}",
        "house_false_win_amount": "詐胡 每家 {amount}", "house_false_win_as_self_draw": "詐胡 照自摸 {value}",
        "house_separator": "；",
    },
    # Mainland words where they differ, not only the script: 点炮 (放槍), 杠 (槓), 庄家 (莊家).
    "zh-Hans": {
        "sheet_title": "{name} · 结算表 settlement sheet", "h_date": "日期 date", "h_rules": "规则 rule set",
        "h_stakes": "赌注 stakes", "h_options": "选项 options", "h_house": "家规 house rules", "h_hands": "局数 hands",
        "h_standings": "名次 standings", "h_transfers": "付款 transfers", "h_seats": "座位 who sat where and when",
        "h_stats": "统计 statistics", "h_chart": "走势 running totals", "h_every_hand": "牌局明细 every hand",
        "h_why": "付款明细 why each payment", "col_rank": "名次", "col_player": "玩家 player", "col_total": "总计 total",
        "col_settled": "结算 settled", "col_from": "付 from", "col_to": "收 to", "col_amount": "金额 amount",
        "col_seat": "座 seat", "col_seat_hands": "局 hands", "col_played": "局 hands", "col_wins": "胡 wins",
        "col_self_draws": "自摸 self-draws", "col_deal_ins": "点炮 deal-ins", "col_false_wins": "诈胡 false wins",
        "col_biggest": "最大一手 biggest hand", "col_round": "圈/局", "col_dealer": "庄 dealer",
        "col_winners": "胡 winners", "col_outcome": "点炮/自摸", "void_mark": "作废", "no_hand_played": "没打过一局",
        "page": "第 {page} 页", "brand": "台帳 Taizhang",
        "hand_counts": "打了 {played} 局，作废 {voided} 局", "rounding": "找零 rounding：{explanation}",
        "rounding_none": "每人的总计都已是 {round_to} 的倍数，没有调整。",
        "rounding_up": "每人的总计先舍去到 {round_to} 的倍数，多出 {left}，所以余数最大的 {count} 人（同数按名字）改为进位：{names}。",
        "card_totals": "总计", "card_transfers": "谁付谁", "card_square": "大家两清，不用付款。",
        "card_chart": "走势", "card_hands": "{played} 局", "card_rounded": "总计已凑整到 {round_to}",
        "ruleset_taiwan": "台湾十六张（庄家台，连庄）", "ruleset_taiwan_zz": "政治麻将（见花见字可选）",
        "ruleset_shanghai": "上海清混碰（花，勒子，荒番，三口包）",
        "pays": "{payer} 付 {payee} {amount}：{why}",
        "self_draw": "自摸", "discard": "点炮", "robbing_kong": "被抢杠",
        "eight_flowers": "八仙过海／八花，按自摸付", "seven_flowers_rob": "七抢一：持第八张花",
        "base": "底 {amount}", "tai": "{tai} 台 × {per_tai} = {amount}",
        "tai_capped": "{tai} 台（封顶；原 {capped_from} 台）× {per_tai} = {amount}",
        "dealer_extra": "庄家台：{dealer} 连{streak}，{formula} = {tai} 台 × {per_tai} = {amount}",
        "formula_1+2n": "1 + 2×{streak}", "formula_1+n": "1 + {streak}",
        "dealer_extra_capped": "庄家台：{dealer} 连{streak}，{formula} = {capped_from}，封顶 {tai} 台 × {per_tai} = {amount}",
        "false_win": "诈胡", "false_win_amount": "每家 {amount}",
        "share": "{points} 分 × 底分 {base} = {amount}", "share_breakdown": "花 {flowers} · 勒 {lei} · 番 {fan}",
        "wasteland": "荒番加倍（荒番 {counter}）", "wasteland_dice": "荒番加倍（荒番 {counter}，骰子 {dice}）",
        "shares": "× {shares} 份",
        "three_mouth_self_draw": "与 {payee} 三口：{payer} 付 5 份，其他人不付",
        "three_mouth_discard": "三口：点炮给有三口关系的人，付 2 份",
        "three_mouth_ready": "听牌时点炮给有三口的人：付 1 份",
        "three_mouth_ready_related": "与 {payee} 三口：{discarder} 听牌点炮，{payer} 没点炮也付 1 份",
        "three_mouth_not_ready": "未听牌点炮给有三口的人：独付 2 份",
        "corrected": "{time} 更正",
        "final": "定案：{time} 结束",
        "on": "开", "off": "关", "none": "不设",
        "dealer_bonus": "庄家台（1 + 2n）", "multiple_winners": "一炮多响", "max_tai": "台数封顶",
        "see_flower_see_word": "见花见字",
        "house_off": "不计 {names}", "house_on": "加计 {names}", "house_dealer_cap": "，封顶 {cap}",
        "house_false_win_amount": "诈胡 每家 {amount}", "house_false_win_as_self_draw": "诈胡 按自摸 {value}",
        "house_separator": "；",
    },
}


# The group sheet (reports.group) and the group's cards (reports.group_card). Headings are bilingual as
# the evening's; the columns of a table are one string split at "|" (`columns`).
_GROUP_HEADINGS_HANT = {
    "group_title": "{name} · 牌友會 group sheet",
    "group_period": "期間 period: {period} · {evenings} 場 evenings · 製表 made {made}",
    "group_standings": "戰績 standings", "group_balances": "未結 open balances",
    "group_clearing": "付款 transfers that clear them",
    "group_chart": "走勢 cumulative net money, evening by evening", "group_evenings": "場次 evenings",
    "group_standings_columns": "名次|成員 member|淨 net|場|局|胡|自摸|放槍|胡率|放槍率|平均/胡|最大|連莊",
    "group_balances_columns": "成員 member|餘額 balance",
    "group_evenings_columns": "日期 day|場次 evening|規則 rules|局 hands|結果 totals",
    "group_key": ("淨 net money · 場 evenings · 局 hands sat in · 胡 wins · 自摸 self-draws · 放槍 deal-ins · "
                  "胡率 win rate · 放槍率 deal-in rate (of hands) · 平均/胡 average value per win (wins it rests on) · "
                  "最大 biggest hand (day, hand) · 連莊 most hands dealt in a row"),
}
GROUP_WORDS = {
    "en": {
        **_GROUP_HEADINGS_HANT,
        "group_no_evenings": "No evenings in this period.",
        "rules_short_taiwan": "Taiwanese 16", "rules_short_taiwan_zz": "Taiwanese 16 (ZZ)",
        "rules_short_shanghai": "Shanghai",
        "card_net": "Net money", "card_cumulative": "Net money, evening by evening",
        "card_evenings": "{count} evenings", "card_period_all": "All evenings", "card_period_from": "From {first}",
        "card_period_to": "Until {last}", "card_period": "{first} to {last}",
        "card_balances_on": "Open balances on {day}", "card_balances": "Balances",
        "card_all_square": "Nobody owes anything.", "card_balances_rounded": "balances rounded to {round_to}",
        "card_not_fewest": "Over {limit} balances: these clear all, maybe not the fewest",
    },
    "zh-Hant": {
        **_GROUP_HEADINGS_HANT,
        "group_no_evenings": "這段期間沒有場次。",
        "rules_short_taiwan": "台灣十六張", "rules_short_taiwan_zz": "台灣十六張 (ZZ)", "rules_short_shanghai": "上海",
        "card_net": "輸贏", "card_cumulative": "累計輸贏",
        "card_evenings": "{count} 場", "card_period_all": "全部場次", "card_period_from": "{first} 起",
        "card_period_to": "至 {last}", "card_period": "{first} 至 {last}",
        "card_balances_on": "{day} 未結餘額", "card_balances": "餘額",
        "card_all_square": "沒有人欠錢。", "card_balances_rounded": "餘額已湊整到 {round_to}",
        "card_not_fewest": "超過 {limit} 筆餘額：能全部結清，但不保證筆數最少",
    },
    "zh-Hans": {
        "group_title": "{name} · 牌友会 group sheet",
        "group_period": "期间 period: {period} · {evenings} 场 evenings · 制表 made {made}",
        "group_standings": "战绩 standings", "group_balances": "未结 open balances",
        "group_clearing": "付款 transfers that clear them",
        "group_chart": "走势 cumulative net money, evening by evening", "group_evenings": "场次 evenings",
        "group_standings_columns": "名次|成员 member|净 net|场|局|胡|自摸|点炮|胡率|点炮率|平均/胡|最大|连庄",
        "group_balances_columns": "成员 member|余额 balance",
        "group_evenings_columns": "日期 day|场次 evening|规则 rules|局 hands|结果 totals",
        "group_key": ("净 net money · 场 evenings · 局 hands sat in · 胡 wins · 自摸 self-draws · 点炮 deal-ins · "
                      "胡率 win rate · 点炮率 deal-in rate (of hands) · 平均/胡 average value per win (wins it rests on) · "
                      "最大 biggest hand (day, hand) · 连庄 most hands dealt in a row"),
        "group_no_evenings": "这段期间没有场次。",
        "rules_short_taiwan": "台湾十六张", "rules_short_taiwan_zz": "政治麻将", "rules_short_shanghai": "上海",
        "card_net": "输赢", "card_cumulative": "累计输赢",
        "card_evenings": "{count} 场", "card_period_all": "全部场次", "card_period_from": "{first} 起",
        "card_period_to": "至 {last}", "card_period": "{first} 至 {last}",
        "card_balances_on": "{day} 未结余额", "card_balances": "余额",
        "card_all_square": "没有人欠钱。", "card_balances_rounded": "余额已凑整到 {round_to}",
        "card_not_fewest": "超过 {limit} 笔余额：能全部结清，但不保证笔数最少",
    },
}
for _lang, _words in GROUP_WORDS.items():
    WORDS[_lang].update(_words)


def language(value: str | None) -> str:
    """`value` if it is a known language (`zh` being zh-Hant), else 繁體中文 (the sheet's default)."""
    value = OLD_NAMES.get(value, value)
    return value if value in LANGUAGES else TRADITIONAL


def language_of_tag(tag: str) -> str | None:
    """The language of a BCP 47 tag, or None when Taizhang does not speak it.

    >>> [language_of_tag(t) for t in ("zh-CN", "zh-Hans-HK", "zh-sg", "zh-TW", "zh-HK", "zh", "en-GB", "fr")]
    ['zh-Hans', 'zh-Hans', 'zh-Hans', 'zh-Hant', 'zh-Hant', 'zh-Hant', 'en', None]
    """
    parts = re.split("[-_]", tag.strip().lower())
    if parts[0] == "en":
        return ENGLISH
    if parts[0] != "zh":
        return None
    if "hans" in parts:
        return SIMPLIFIED
    if "hant" in parts:
        return TRADITIONAL
    return SIMPLIFIED if SIMPLIFIED_REGIONS & set(parts[1:]) else TRADITIONAL


def language_from_accept(tags: Iterable[str], default: str) -> str:
    """The first of `tags` (most wanted first, as in `Accept-Language`) that Taizhang speaks, else `default`.

    >>> language_from_accept(["fr-FR", "zh-CN", "en"], "en")
    'zh-Hans'
    >>> language_from_accept(["de"], "zh-Hant")
    'zh-Hant'
    """
    return next((found for found in map(language_of_tag, tags) if found), default)


def word(key: str, lang: str, **values) -> str:
    return WORDS[language(lang)][key].format(**values)


def columns(key: str, lang: str) -> list[str]:
    """The column headers of a table, one string in the words split at "|"."""
    return word(key, lang).split("|")


def ruleset_name(ruleset: str, own_name: str, lang: str) -> str:
    """The rule set's name in `lang`: in 繁體中文 its own (`ledger.rules`), else the words' (`ruleset_<id>`)."""
    words = WORDS[language(lang)]
    return words.get(f"ruleset_{ruleset}", own_name)


def rounding_text(rounding, lang: str) -> str:
    """How the totals were rounded (`ledger.settlement.Rounding`): the ledger's sentence, or its words in Chinese.

    The totals rounded up are those with the largest remainders, i.e. the smallest raise, ties by name.
    """
    if language(lang) == ENGLISH:
        return rounding.explanation
    raised = sorted((name for name, change in rounding.adjustments.items() if change > 0),
                    key=lambda name: (rounding.adjustments[name], name))
    if not raised:
        return word("rounding_none", lang, round_to=rounding.round_to)
    return word("rounding_up", lang, round_to=rounding.round_to, left=len(raised) * rounding.round_to,
                count=len(raised), names="、".join(raised))


def reason_text(line: Mapping, reason: Mapping, lang: str) -> str:
    """One reason of a payment line in words."""
    code, values = reason["code"], {**line, **reason}
    if code == "tai":
        text = word("tai" if "capped_from" not in reason else "tai_capped", lang, **values)
        return _with_patterns(text, reason.get("patterns"))
    if code == "share":
        text = word("share", lang, **values)
        if reason.get("fan") is not None:
            text += f" ({word('share_breakdown', lang, **values)})"
        return _with_patterns(text, reason.get("patterns"))
    if code == "wasteland":
        dice = reason.get("dice")
        return word("wasteland_dice", lang, **{**values, "dice": "-".join(map(str, dice))}) if dice else (
            word("wasteland", lang, **values))
    if code == "dealer_extra":
        formula = word(f"formula_{reason.get('formula', '1+2n')}", lang, streak=reason["streak"])
        key = "dealer_extra_capped" if "capped_from" in reason else "dealer_extra"
        return word(key, lang, **{**values, "formula": formula})
    if code == "three_mouth_ready" and reason.get("related"):
        return word("three_mouth_ready_related", lang, **values)
    return word(code, lang, **values) if code in WORDS[ENGLISH] else code


def line_text(line: Mapping, lang: str) -> str:
    """"Cat pays Ben 160: discarded · base 100 · 3 台 × 20 = 60"."""
    why = " · ".join(reason_text(line, reason, lang) for reason in line["reasons"])
    return word("pays", lang, payer=line["payer"], payee=line["payee"], amount=line["amount"], why=why)


def options_text(options: Mapping[str, object], lang: str) -> str:
    """The table options in words ("-" when there are none)."""
    if not options:
        return "-"
    return "; ".join(f"{word(key, lang) if key in WORDS[ENGLISH] else key}: {_option_value(value, lang)}"
                     for key, value in options.items())


def _option_value(value: object, lang: str) -> str:
    if value is None:
        return word("none", lang)
    if isinstance(value, bool):
        return word("on" if value else "off", lang)
    return str(value)


def _with_patterns(text: str, patterns) -> str:
    if not patterns:
        return text
    return f"{text}: " + ", ".join(f"{pattern['name']} {pattern['value']}" for pattern in patterns)
