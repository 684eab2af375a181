"""Short texts for the report's cells, shared by the PDF and the CSV.

>>> amount(180), amount(-180), amount(0)
('+180', '-180', '0')
>>> winner_text(WinnerLine("Amy", 3, "tai", (PatternLine("門清", 1, "tai"), PatternLine("平胡", 2, "tai"))))
'Amy 3台: 門清 1台, 平胡 2台'
>>> winner_text(WinnerLine("Ben", 4, "points"))
'Ben 4分'
"""
from __future__ import annotations

from ledger.pattern_names import pattern_name
from ledger.house_rules import known_patterns
from reports.model import HandLine, PatternLine, SessionHeader, WinnerLine
from reports.words import SIMPLIFIED, TRADITIONAL, language, word

UNIT_NAMES = {"tai": "台", "points": "分", "flower": "花", "fan": "番", "lei": "勒"}
STAKE_NAMES = {"base": "底", "per_tai": "台"}
SHANGHAI_STAKE_NAMES = {"base": "底分"}
# The table's words for the state of a hand: Chinese in every language (the English sheet keeps them, as a
# table says them), in the script of the reader.
TABLE_WORDS = {
    TRADITIONAL: {"E": "東", "S": "南", "W": "西", "N": "北", "round": "{round}風{hand}局", "jiang": "第{jiang}將",
                  "streak": "{dealer} 連{streak}", "false_win": "{player} 詐胡", "alone": "{player} 付",
                  "exhausted": "流局", "four_winds": "四風連和", "four_kongs": "四槓和局", "discard": "放槍",
                  "robbing_kong": "搶槓", "self_draw": "自摸", "void": "作廢", "dealer_extra": "連莊",
                  "lei_cap": "勒子"},
    SIMPLIFIED: {"E": "东", "S": "南", "W": "西", "N": "北", "round": "{round}风{hand}局", "jiang": "第{jiang}将",
                 "streak": "{dealer} 连{streak}", "false_win": "{player} 诈胡", "alone": "{player} 付",
                 "exhausted": "流局", "four_winds": "四风连和", "four_kongs": "四杠和局", "discard": "点炮",
                 "robbing_kong": "抢杠", "self_draw": "自摸", "void": "作废", "dealer_extra": "连庄",
                 "lei_cap": "勒子"},
}


def table_word(key: str, lang: str = TRADITIONAL, **values) -> str:
    """A word of the table (東, 流局, 放槍 …) in the reader's script; 繁體 for an English reader."""
    words = TABLE_WORDS.get(language(lang), TABLE_WORDS[TRADITIONAL])
    return words[key].format(**values)


def amount(value: int) -> str:
    """A payment or total with its sign: +180, -180, 0."""
    return f"{value:+d}" if value else "0"


def round_text(hand: HandLine, lang: str = TRADITIONAL) -> str:
    """圈風 and 局 of the hand, e.g. 東風南局; from the second 將 on prefixed 第2將."""
    text = table_word("round", lang, round=table_word(hand.round_wind, lang), hand=table_word(hand.hand_wind, lang))
    if hand.jiang > 1:
        text = f"{table_word('jiang', lang, jiang=hand.jiang)} {text}"
    if hand.wasteland:
        text += f" 荒番{hand.wasteland}"
    return text


def dealer_text(hand: HandLine, lang: str = TRADITIONAL) -> str:
    """The dealer (莊家), with 連n when the dealer has kept the deal n times."""
    return table_word("streak", lang, dealer=hand.dealer, streak=hand.streak) if hand.streak else hand.dealer


def winner_text(winner: WinnerLine) -> str:
    """Winner, value and, for a full-entry win, each pattern with its value."""
    text = winner.player if winner.value is None else f"{winner.player} {_value(winner.value, winner.unit)}"
    if winner.event:
        text += f" {winner.event}"
    if winner.patterns:
        text += ": " + ", ".join(pattern_text(p) for p in winner.patterns)
    return text


def outcome_text(hand: HandLine, lang: str = TRADITIONAL) -> str:
    """How the hand ended: 自摸, "Cat 放槍", "Dan 搶槓", "Cat 詐胡", or the draw (流局) reason.

    A 七搶一 is paid by the holder of the eighth flower alone: "Cat 付" (pays).
    """
    if hand.false_win:
        return table_word("false_win", lang, player=hand.false_win)
    if hand.draw:
        return table_word(hand.draw, lang)
    if hand.by == "self_draw":
        return table_word("alone", lang, player=hand.discarder) if hand.discarder else table_word("self_draw", lang)
    return f"{hand.discarder} {table_word(hand.by, lang)}"


def stakes_text(header: SessionHeader) -> str:
    """The stakes, e.g. 底 100 / 台 20, or 底分 10 in shanghai."""
    names = SHANGHAI_STAKE_NAMES if header.ruleset == "shanghai" else STAKE_NAMES
    return " / ".join(f"{names[key]} {value}" for key, value in header.stakes.items())


def house_rules_text(header: SessionHeader, lang: str = "en") -> str:
    """What the house rules change of the base rule set, e.g. 大四喜 8→16台; off 斷么九; 連莊 1+n; "-" for none.

    Pattern names are `ledger.pattern_names`'s and the few words around them `reports.words`'s, in `lang`.

    >>> header = SessionHeader("Friday", None, "taiwan", "", {}, {}, {
    ...     "values": {"big_four_winds": 16}, "off": ["all_simples"], "on": ["single_wait"],
    ...     "dealer_extra": "1+n", "max_dealer_extra": 5, "false_win": {"amount": 300}})
    >>> house_rules_text(header)
    'big four winds (大四喜) 8→16台; off all simples (斷么九); on single wait (獨聽) 1台; 連莊 1+n, max 5台; 詐胡 300 each'
    >>> house_rules_text(header, "zh")
    '大四喜 8→16台；不計 斷么九；加計 獨聽 1台；連莊 1+n，上限 5台；詐胡 每家 300'
    >>> house_rules_text(header, "zh-Hans")
    '大四喜 8→16台；不计 断幺九；加计 独听 1台；连庄 1+n，封顶 5台；诈胡 每家 300'
    """
    rules = header.house_rules
    if not rules:
        return "-"
    patterns = known_patterns(header.ruleset)

    def name(pattern_id: str) -> str:
        return pattern_name(header.ruleset, pattern_id, lang)

    values = rules.get("values", {})
    parts = [f"{name(i)} {patterns[i].value}→{_value(v, patterns[i].unit)}"
             for i, v in values.items() if i not in rules.get("on", ())]
    if rules.get("off"):
        parts.append(word("house_off", lang, names=", ".join(name(i) for i in rules["off"])))
    if rules.get("on"):
        parts.append(word("house_on", lang, names=", ".join(
            f"{name(i)} {_value(values.get(i, patterns[i].value), patterns[i].unit)}" for i in rules["on"])))
    if "dealer_extra" in rules or "max_dealer_extra" in rules:
        text = f"{table_word('dealer_extra', lang)} {rules.get('dealer_extra', '1+2n')}"
        if "max_dealer_extra" in rules:
            text += word("house_dealer_cap", lang, cap=_value(rules["max_dealer_extra"], "tai"))
        parts.append(text)
    if "lei_cap" in rules:
        parts.append(f"{table_word('lei_cap', lang)} {rules['lei_cap']}")
    if "false_win" in rules:
        penalty = rules["false_win"]
        parts.append(word("house_false_win_amount", lang, amount=penalty["amount"]) if "amount" in penalty
                     else word("house_false_win_as_self_draw", lang,
                               value=_value(penalty["as_self_draw"], _false_win_unit(header))))
    return word("house_separator", lang).join(parts)


def _false_win_unit(header: SessionHeader) -> str:
    return "points" if header.ruleset == "shanghai" else "tai"


def _value(value: int, unit: str) -> str:
    return f"{value}{UNIT_NAMES.get(unit, unit)}"


def pattern_text(pattern: PatternLine) -> str:
    """A pattern with its value, e.g. 門清 1台."""
    return f"{pattern.name} {_value(pattern.value, pattern.unit)}"
