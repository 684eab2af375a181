"""The report's sentences in the reader's language (`zh` or `en`): payment reasons, options, corrections.

The reasons are the language-neutral codes of `ledger.explain`; the phone
page words the same codes in `api/static/app/js/views/explain.js`. Pattern
names stay Chinese in both languages, as everywhere in Taizhang.

>>> line = {"payer": "Cat", "payee": "Ben", "amount": 160, "reasons": [
...     {"code": "discard"}, {"code": "base", "amount": 100},
...     {"code": "tai", "tai": 3, "per_tai": 20, "amount": 60, "patterns": None}]}
>>> line_text(line, "en")
'Cat pays Ben 160: discarded · base 100 · 3 台 × 20 = 60'
>>> line_text(line, "zh")
'Cat 付 Ben 160：放槍 · 底 100 · 3 台 × 20 = 60'
>>> options_text({"dealer_bonus": True, "multiple_winners": False, "max_tai": None}, "en")
'dealer extra 莊家台 (1 + 2n): on; several winners on one discard (一炮多響): off; cap on 台: none'
"""
from __future__ import annotations

from collections.abc import Mapping

LANGUAGES = ("zh", "en")

WORDS = {
    "en": {
        "pays": "{payer} pays {payee} {amount}: {why}",
        "self_draw": "self-draw", "discard": "discarded", "robbing_kong": "kong robbed (搶槓)",
        "eight_flowers": "八仙過海 / 八花, paid as a self-draw", "seven_flowers_rob": "七搶一: holds the eighth flower",
        "base": "base {amount}", "tai": "{tai} 台 × {per_tai} = {amount}",
        "tai_capped": "{tai} 台 (cap; the hand had {capped_from}) × {per_tai} = {amount}",
        "dealer_extra": "dealer extra, {dealer} on streak {streak}: 1 + 2×{streak} = {tai} 台 × {per_tai} = {amount}",
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
    },
    "zh": {
        "pays": "{payer} 付 {payee} {amount}：{why}",
        "self_draw": "自摸", "discard": "放槍", "robbing_kong": "被搶槓",
        "eight_flowers": "八仙過海／八花，照自摸付", "seven_flowers_rob": "七搶一：持第八張花",
        "base": "底 {amount}", "tai": "{tai} 台 × {per_tai} = {amount}",
        "tai_capped": "{tai} 台（上限；原 {capped_from} 台）× {per_tai} = {amount}",
        "dealer_extra": "莊家台：{dealer} 連{streak}，1 + 2×{streak} = {tai} 台 × {per_tai} = {amount}",
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
    },
}


def language(value: str | None) -> str:
    """`value` if it is a known language, else Chinese (the sheet's default)."""
    return value if value in LANGUAGES else "zh"


def word(key: str, lang: str, **values) -> str:
    return WORDS[language(lang)][key].format(**values)


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
    if code == "three_mouth_ready" and reason.get("related"):
        return word("three_mouth_ready_related", lang, **values)
    return word(code, lang, **values) if code in WORDS["en"] else code


def line_text(line: Mapping, lang: str) -> str:
    """"Cat pays Ben 160: discarded · base 100 · 3 台 × 20 = 60"."""
    why = " · ".join(reason_text(line, reason, lang) for reason in line["reasons"])
    return word("pays", lang, payer=line["payer"], payee=line["payee"], amount=line["amount"], why=why)


def options_text(options: Mapping[str, object], lang: str) -> str:
    """The table options in words ("-" when there are none)."""
    if not options:
        return "-"
    return "; ".join(f"{word(key, lang) if key in WORDS['en'] else key}: {_option_value(value, lang)}"
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
