"""Short texts for the report's cells, shared by the PDF and the CSV, in the words tables' words.

>>> amount(180), amount(-180), amount(0)
('+180', '-180', '0')
>>> winner_text(WinnerLine("Amy", 3, "tai", (PatternLine("門清", 1, "tai"), PatternLine("平胡", 2, "tai"))))
'Amy 3台: 門清 1台, 平胡 2台'
>>> winner_text(WinnerLine("Ben", 4, "points"))
'Ben 4分'
"""
from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from ledger.house_rules import known_patterns
from reports.model import HandLine, PatternLine, SessionHeader, WinnerLine
from words import TRADITIONAL, pattern_name, table, word


def table_word(key: str, lang: str = TRADITIONAL, **values) -> str:
    """A word of the table (東, 流局, 放槍 …: `table.<key>`) in the reader's script; 繁體 for an English reader."""
    return word(lang, f"table.{key}", **values)


def unit_name(unit: str, lang: str = TRADITIONAL) -> str:
    """台, 分, 花, 番 or 勒 (`table.unit_<unit>`); the unit itself when the table has no word for it."""
    return table(lang).get(f"table.unit_{unit}", unit)


def amount(value: int) -> str:
    """A payment or total with its sign: +180, -180, 0."""
    return f"{value:+d}" if value else "0"


def decimal(exact: str | None) -> str:
    """Points or a shared place (``points_exact``) as a decimal of at most two places: "2.33", "1.5", "4".

    A spreadsheet reads "3/2" as a date. Twelfths never fall halfway between two hundredths, so rounding is never a toss-up.

    >>> decimal("7/3"), decimal("3/2"), decimal("4"), decimal("5/12"), decimal("1/12"), decimal(None)
    ('2.33', '1.5', '4', '0.42', '0.08', '')
    """
    if exact is None:
        return ""
    value = Fraction(exact)
    hundredths = (value.numerator * 100 * 2 + value.denominator) // (value.denominator * 2)  # half up
    whole, cents = divmod(hundredths, 100)
    return f"{whole}.{cents:02d}".rstrip("0").rstrip(".") if cents else str(whole)


def round_text(hand: HandLine, lang: str = TRADITIONAL) -> str:
    """圈風 and 局 of the hand, e.g. 東風南局; from the second 將 on prefixed 第2將."""
    text = table_word("round", lang, round=table_word(hand.round_wind, lang), hand=table_word(hand.hand_wind, lang))
    if hand.jiang > 1:
        text = f"{table_word('jiang', lang, jiang=hand.jiang)} {text}"
    if hand.wasteland:
        text += f" {table_word('wasteland', lang, counter=hand.wasteland)}"
    return text


def dealer_text(hand: HandLine, lang: str = TRADITIONAL) -> str:
    """The dealer (莊家), with 連n when the dealer has kept the deal n times."""
    return table_word("streak", lang, dealer=hand.dealer, streak=hand.streak) if hand.streak else hand.dealer


def winner_text(winner: WinnerLine, lang: str = TRADITIONAL) -> str:
    """Winner, value and, for a full-entry win, each pattern with its value."""
    text = winner.player if winner.value is None else f"{winner.player} {_value(winner.value, winner.unit, lang)}"
    if winner.event:
        text += f" {winner.event}"
    if winner.patterns:
        text += ": " + ", ".join(pattern_text(p, lang) for p in winner.patterns)
    return text


def outcome_text(hand: HandLine, lang: str = TRADITIONAL) -> str:
    """How the hand ended: 自摸, "Cat 放槍", "Dan 搶槓", "Cat 詐胡", the draw (流局) reason, or for 七搶一 "Cat 付"."""
    if hand.false_win:
        return table_word("false_win", lang, player=hand.false_win)
    if hand.draw:
        return table_word(hand.draw, lang)
    if hand.by == "self_draw":
        return table_word("alone", lang, player=hand.discarder) if hand.discarder else table_word("self_draw", lang)
    return f"{hand.discarder} {table_word(hand.by, lang)}"


#: The words of the stakes: the table's own (the sheet), or the reader's (the picture).
STAKE_WORDS = {
    "table": {"base": "table.stake_base", "per_tai": "table.stake_per_tai", "base_shanghai": "table.stake_base_shanghai"},
    "card": {"base": "card.stake_base", "per_tai": "card.stake_per_tai", "base_shanghai": "card.stake_base_shanghai"},
}


def stakes_text(header: SessionHeader, lang: str = TRADITIONAL, words: str = "table") -> str:
    """The stakes, e.g. 底 100 / 台 20 (`table.stake_<name>`, the table's own words, as the sheet keeps them),
    or 底分 10 in shanghai; `words` "card": in the reader's language (base 100 / per 台 20 in English)."""
    keys = STAKE_WORDS[words]

    def name(stake: str) -> str:
        return word(lang, keys["base_shanghai" if header.ruleset == "shanghai" and stake == "base" else stake])
    return " / ".join(f"{name(stake)} {value}" for stake, value in header.stakes.items())


def house_rules_text(header: SessionHeader, lang: str = "en", rules: Mapping | None = None) -> str:
    """What the house rules change of the base rule set, e.g. 大四喜 8→16台; off 斷么九; 連莊 1+n; "-" for none.

    `rules`: other house rules of the same evening (a change from a hand on); else those it started with.

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
    rules = header.house_rules if rules is None else rules
    if not rules:
        return "-"
    patterns = known_patterns(header.ruleset)

    def name(pattern_id: str) -> str:
        return pattern_name(header.ruleset, pattern_id, lang)

    values = rules.get("values", {})
    parts = [f"{name(i)} {patterns[i].value}→{_value(v, patterns[i].unit, lang)}"
             for i, v in values.items() if i not in rules.get("on", ())]
    if rules.get("off"):
        parts.append(word(lang, "sheet.house_off", names=", ".join(name(i) for i in rules["off"])))
    if rules.get("on"):
        parts.append(word(lang, "sheet.house_on", names=", ".join(
            f"{name(i)} {_value(values.get(i, patterns[i].value), patterns[i].unit, lang)}" for i in rules["on"])))
    if "dealer_extra" in rules or "max_dealer_extra" in rules:
        text = f"{table_word('dealer_extra', lang)} {rules.get('dealer_extra', '1+2n')}"
        if "max_dealer_extra" in rules:
            text += word(lang, "sheet.house_dealer_cap", cap=_value(rules["max_dealer_extra"], "tai", lang))
        parts.append(text)
    if "lei_cap" in rules:
        parts.append(f"{table_word('lei_cap', lang)} {rules['lei_cap']}")
    if "false_win" in rules:
        penalty = rules["false_win"]
        parts.append(word(lang, "sheet.house_false_win_amount", amount=penalty["amount"]) if "amount" in penalty
                     else word(lang, "sheet.house_false_win_as_self_draw",
                               value=_value(penalty["as_self_draw"], _false_win_unit(header), lang)))
    return word(lang, "sheet.house_separator").join(parts)


def _false_win_unit(header: SessionHeader) -> str:
    return "points" if header.ruleset == "shanghai" else "tai"


def _value(value: int, unit: str, lang: str = TRADITIONAL) -> str:
    return f"{value}{unit_name(unit, lang)}"


def pattern_text(pattern: PatternLine, lang: str = TRADITIONAL) -> str:
    """A pattern with its value, e.g. 門清 1台."""
    return f"{pattern.name} {_value(pattern.value, pattern.unit, lang)}"
