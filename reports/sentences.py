"""The sheets' sentences in the reader's language: payment reasons, options, rounding.

A payment reason is one of `ledger.explain`'s language-neutral codes, worded once by its
`reason.<code>` template, which the page (`format/reasons.js`) reads too: only the choice of template
is made here and there alike. `zh` as a `lang` means zh-Hant.

>>> line = {"payer": "Cat", "payee": "Ben", "amount": 160, "reasons": [
...     {"code": "discard"}, {"code": "base", "amount": 100},
...     {"code": "tai", "tai": 3, "per_tai": 20, "amount": 60, "patterns": None}]}
>>> line_text(line, "en")
'Cat pays Ben 160: discarded · base 100 · 3 台 × 20 = 60'
>>> line_text(line, "zh")
'Cat 付 Ben 160：放槍 · 底 100 · 3 台 × 20 = 60'
>>> line_text(line, "zh-Hans")
'Cat 付给 Ben 160：点炮 · 底 100 · 3 台 × 20 = 60'
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
'dealer extra 莊家台: 1 + 2n; several winners on one discard (一炮多響): off; cap on 台: none'
>>> options_text({"dealer_bonus": True}, "zh", {"dealer_extra": "1+n"})
'莊家台: 1 + n'
"""
from __future__ import annotations

from collections.abc import Mapping

from ledger.settlement import Rounding, rounding_sentence
from words import table, word


def columns(key: str, lang: str) -> list[str]:
    """The column headers of a table, one string in the words split at "|"."""
    return word(lang, key).split("|")


def ruleset_name(ruleset: str, lang: str) -> str:
    """The rule set's name in `lang` (`ruleset.name.<id>`; in 繁體中文 the rule set's own)."""
    return word(lang, f"ruleset.name.{ruleset}")


def rounding_text(rounding: Rounding, lang: str) -> str:
    """How the totals were rounded: the ledger's sentence (`ledger.settlement.rounding_sentence`) in `lang`."""
    raised = sorted((name for name, change in rounding.adjustments.items() if change > 0),
                    key=lambda name: (rounding.adjustments[name], name))
    return rounding_sentence(rounding.round_to, raised, lang)


def reason_text(line: Mapping, reason: Mapping, lang: str) -> str:
    """One reason of a payment line in words (`reason.<code>`; its code when the words have none)."""
    code, values = reason["code"], {**line, **reason}
    if code == "tai":
        text = word(lang, "reason.tai" if "capped_from" not in reason else "reason.tai_capped", **values)
        return _with_patterns(text, reason.get("patterns"))
    if code == "share":
        text = word(lang, "reason.share", **values)
        if reason.get("fan") is not None:
            text += f" ({word(lang, 'reason.share_breakdown', **values)})"
        return _with_patterns(text, reason.get("patterns"))
    if code == "wasteland":
        dice = reason.get("dice")
        return word(lang, "reason.wasteland_dice", **{**values, "dice": "-".join(map(str, dice))}) if dice else (
            word(lang, "reason.wasteland", **values))
    if code == "dealer_extra":
        formula = word(lang, f"reason.formula_{reason.get('formula', '1+2n')}", streak=reason["streak"])
        key = "reason.dealer_extra_capped" if "capped_from" in reason else "reason.dealer_extra"
        return word(lang, key, **{**values, "formula": formula})
    if code == "three_mouth_ready" and reason.get("related"):
        return word(lang, "reason.three_mouth_ready_related", **values)
    return word(lang, f"reason.{code}", **values) if f"reason.{code}" in table(lang) else code


def line_text(line: Mapping, lang: str) -> str:
    """"Cat pays Ben 160: discarded · base 100 · 3 台 × 20 = 60"."""
    why = " · ".join(reason_text(line, reason, lang) for reason in line["reasons"])
    pays = word(lang, "reason.pays", payer=line["payer"], payee=line["payee"])
    return word(lang, "sheet.payment_line", pays=pays, amount=line["amount"], why=why)


def options_text(options: Mapping[str, object], lang: str, house_rules: Mapping | None = None) -> str:
    """The table options in words ("-" when there are none); 莊家台 on is its formula in the opening
    `house_rules` (1 + 2n unless they say 1 + n or none), as the house-rules row writes it."""
    if not options:
        return "-"
    words = table(lang)
    return "; ".join(f"{words.get(f'option.{key}', key)}: {_option_value(value, lang, key, house_rules or {})}"
                     for key, value in options.items())


def _option_value(value: object, lang: str, key: str, house_rules: Mapping) -> str:
    if key == "dealer_bonus" and value is not False:
        formula = house_rules.get("dealer_extra", "1+2n")
        return word(lang, "option.off") if formula == "none" else formula.replace("+", " + ")
    if value is None:
        return word(lang, "option.none")
    if isinstance(value, bool):
        return word(lang, "option.on" if value else "option.off")
    return str(value)


def _with_patterns(text: str, patterns) -> str:
    if not patterns:
        return text
    return f"{text}: " + ", ".join(f"{pattern['name']} {pattern['value']}" for pattern in patterns)
