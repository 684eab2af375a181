"""Short texts for the report's cells, shared by the PDF and the CSV.

>>> amount(180), amount(-180), amount(0)
('+180', '-180', '0')
>>> winner_text(WinnerLine("Amy", 3, "tai", (PatternLine("門清", 1, "tai"), PatternLine("平胡", 2, "tai"))))
'Amy 3台: 門清 1台, 平胡 2台'
>>> winner_text(WinnerLine("Ben", 4, "points"))
'Ben 4分'
"""
from __future__ import annotations

from ledger.profile import known_patterns
from reports.model import HandLine, PatternLine, SessionHeader, WinnerLine
from reports.words import word

WIND_NAMES = {"E": "東", "S": "南", "W": "西", "N": "北"}
UNIT_NAMES = {"tai": "台", "points": "分", "flower": "花", "fan": "番", "lei": "勒"}
DRAW_NAMES = {"exhausted": "流局", "four_winds": "四風連和", "four_kongs": "四槓和局"}
BY_NAMES = {"discard": "放槍", "robbing_kong": "搶槓", "self_draw": "自摸"}
STAKE_NAMES = {"base": "底", "per_tai": "台"}
SHANGHAI_STAKE_NAMES = {"base": "底分"}


def amount(value: int) -> str:
    """A payment or total with its sign: +180, -180, 0."""
    return f"{value:+d}" if value else "0"


def round_text(hand: HandLine) -> str:
    """圈風 and 局 of the hand, e.g. 東風南局; from the second 將 on prefixed 第2將."""
    text = f"{WIND_NAMES[hand.round_wind]}風{WIND_NAMES[hand.hand_wind]}局"
    if hand.jiang > 1:
        text = f"第{hand.jiang}將 {text}"
    if hand.wasteland:
        text += f" 荒番{hand.wasteland}"
    return text


def dealer_text(hand: HandLine) -> str:
    """The dealer (莊家), with 連n when the dealer has kept the deal n times."""
    return f"{hand.dealer} 連{hand.streak}" if hand.streak else hand.dealer


def winner_text(winner: WinnerLine) -> str:
    """Winner, value and, for a full-entry win, each pattern with its value."""
    text = winner.player if winner.value is None else f"{winner.player} {_value(winner.value, winner.unit)}"
    if winner.event:
        text += f" {winner.event}"
    if winner.patterns:
        text += ": " + ", ".join(pattern_text(p) for p in winner.patterns)
    return text


def outcome_text(hand: HandLine) -> str:
    """How the hand ended: 自摸, "Cat 放槍", "Dan 搶槓", "Cat 詐胡", or the draw (流局) reason.

    A 七搶一 is paid by the holder of the eighth flower alone: "Cat 付" (pays).
    """
    if hand.false_win:
        return f"{hand.false_win} 詐胡"
    if hand.draw:
        return DRAW_NAMES[hand.draw]
    if hand.by == "self_draw":
        return f"{hand.discarder} 付" if hand.discarder else BY_NAMES["self_draw"]
    return f"{hand.discarder} {BY_NAMES[hand.by]}"


def stakes_text(header: SessionHeader) -> str:
    """The stakes, e.g. 底 100 / 台 20, or 底分 10 in shanghai."""
    names = SHANGHAI_STAKE_NAMES if header.ruleset == "shanghai" else STAKE_NAMES
    return " / ".join(f"{names[key]} {value}" for key, value in header.stakes.items())


def house_rules_text(header: SessionHeader, lang: str = "en") -> str:
    """What the house rules change of the base rule set, e.g. 大四喜 8→16台; off 斷么九; 連莊 1+n; "-" for none.

    Pattern names stay Chinese; the few words around them are `reports.words`'s, in `lang`.

    >>> header = SessionHeader("Friday", None, "taiwan", "", {}, {}, {
    ...     "values": {"big_four_winds": 16}, "off": ["all_simples"], "on": ["single_wait"],
    ...     "dealer_extra": "1+n", "max_dealer_extra": 5, "false_win": {"amount": 300}})
    >>> house_rules_text(header)
    '大四喜 8→16台; off 斷么九; on 獨聽 1台; 連莊 1+n, max 5台; 詐胡 300 each'
    >>> house_rules_text(header, "zh")
    '大四喜 8→16台；不計 斷么九；加計 獨聽 1台；連莊 1+n，上限 5台；詐胡 每家 300'
    """
    rules = header.house_rules
    if not rules:
        return "-"
    patterns = known_patterns(header.ruleset)
    values = rules.get("values", {})
    parts = [f"{patterns[i].name} {patterns[i].value}→{_value(v, patterns[i].unit)}"
             for i, v in values.items() if i not in rules.get("on", ())]
    if rules.get("off"):
        parts.append(word("house_off", lang, names=", ".join(patterns[i].name for i in rules["off"])))
    if rules.get("on"):
        parts.append(word("house_on", lang, names=", ".join(
            f"{patterns[i].name} {_value(values.get(i, patterns[i].value), patterns[i].unit)}" for i in rules["on"])))
    if "dealer_extra" in rules or "max_dealer_extra" in rules:
        text = f"連莊 {rules.get('dealer_extra', '1+2n')}"
        if "max_dealer_extra" in rules:
            text += word("house_dealer_cap", lang, cap=_value(rules["max_dealer_extra"], "tai"))
        parts.append(text)
    if "lei_cap" in rules:
        parts.append(f"勒子 {rules['lei_cap']}")
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
