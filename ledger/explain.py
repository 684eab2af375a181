"""Why money moved: one recorded hand -> its payments, one line per payer and payee, with reasons.

A table that sees "Ben -180" wants to know why. `explain_hand` works it out from the hand's body and
stored result with the payer rules of `ledger.payments`, so the lines always add up to its `payments`.
A line's `reasons` are language-neutral dicts, a `code` and the numbers it needs, which the page and
the PDF word in the reader's language (`reason.<code>` in `words/`); each Taiwanese reason carries its
`amount`, shanghai's multiply. Amounts follow the session's house rules (dealer extra, 詐胡 penalty).

(Amy deals on a streak of 1: 20 + 20 × (2 + 1 + 2 × 1) = 120.)

>>> result = {"dealer": "Amy", "streak": 1, "wasteland": 0, "payments": {"Amy": -120, "Ben": 120},
...           "scores": [{"player": "Ben", "tai": 2, "score": None}],
...           "before": {"seats": ["Amy", "Ben", "Cat", "Dan"]}}
>>> body = {"winners": [{"player": "Ben", "tai": 2}], "by": "discard", "discarder": "Amy"}
>>> [line] = explain_hand("taiwan", {"base": 20, "per_tai": 20}, {}, body, result)
>>> line["payer"], line["payee"], line["amount"], [r["code"] for r in line["reasons"]]
('Amy', 'Ben', 120, ['discard', 'base', 'tai', 'dealer_extra'])
"""
from __future__ import annotations

from collections.abc import Mapping

from ledger.entries import HandEntry, Winner
from ledger.payments import (
    SELF_DRAW_SHARES,
    dealer_extra,
    false_win_penalty,
    related_players,
    shanghai_payers,
    taiwan_payers,
)

SELF_DRAWN_EVENTS = ("eight_flowers",)  # paid as a self-draw whatever `by` says


def explain_hand(ruleset: str, stakes: Mapping, options: Mapping, body: Mapping, result: Mapping,
                 house_rules: Mapping | None = None) -> list[dict]:
    """The payment lines of one recorded hand (module docstring); none for a draw or a voided hand."""
    house_rules = house_rules or {}
    if not result.get("payments"):
        return []
    seats = tuple(result["before"]["seats"])
    if body.get("false_win") is not None:
        return _false_win_lines(body["false_win"], ruleset, seats, stakes, options, house_rules, result)
    if not result.get("scores"):
        return []
    entry = _entry(body, result, ruleset)
    if ruleset == "shanghai":
        return [line for win, score in zip(entry.winners, result["scores"])
                for line in _shanghai_lines(entry, win, score, seats, stakes, result, body.get("dice"))]
    return [line for win, score in zip(entry.winners, result["scores"])
            for line in _taiwan_lines(entry, win, score, seats, stakes, options, house_rules, result)]


def _entry(body: Mapping, result: Mapping, ruleset: str) -> HandEntry:
    """The hand as `ledger.payments` sees it: each winner's value as stored, its event from the body."""
    value_key = "points" if ruleset == "shanghai" else "tai"
    winners = tuple(Winner(score["player"], score[value_key], _event(winner))
                    for winner, score in zip(body.get("winners", []), result["scores"]))
    pairs = tuple(tuple(pair) for pair in body.get("three_mouth") or ())
    return HandEntry(winners, body.get("by"), body.get("discarder"), None, None, pairs,
                     bool(body.get("discarder_ready", False)))


def _event(winner: Mapping) -> str | None:
    """A winner's event: `event` in quick entry, `win.event` in full entry."""
    return winner.get("event") or (winner.get("win") or {}).get("event")


def _why(entry: HandEntry, win: Winner) -> dict:
    """Why a payer pays this Taiwanese win (RULES.md §6), or what kind of win a shanghai share is for."""
    if win.event in ("eight_flowers", "seven_flowers_rob"):
        return {"code": win.event}
    return {"code": "self_draw" if entry.by == "self_draw" else entry.by}


def _taiwan_lines(entry: HandEntry, win: Winner, score: Mapping, seats: tuple[str, ...], stakes: Mapping,
                  options: Mapping, house_rules: Mapping, result: Mapping) -> list[dict]:
    """`base + per_tai × (min(台, max_tai) + dealer extra)` for each payer, as `ledger.payments` pays it."""
    max_tai = options.get("max_tai")
    tai = win.value if max_tai is None else min(win.value, max_tai)
    tai_reason = {"code": "tai", "tai": tai, "per_tai": stakes.get("per_tai", 0),
                  "amount": stakes.get("per_tai", 0) * tai, "patterns": _patterns(score)}
    if tai != win.value:
        tai_reason["capped_from"] = win.value
    lines = []
    for payer in taiwan_payers(entry, win, seats):
        reasons = [_why(entry, win), {"code": "base", "amount": stakes["base"]}, tai_reason,
                   *_dealer_extra(payer, win.player, stakes, options, house_rules, result)]
        lines.append(_line(payer, win.player, sum(reason["amount"] for reason in reasons[1:]), reasons))
    return lines


def _dealer_extra(payer: str, payee: str, stakes: Mapping, options: Mapping, house_rules: Mapping,
                  result: Mapping) -> list[dict]:
    """The dealer extra of a Taiwanese payment (RULES.md §6, §8), with `formula` when not 1 + 2n and
    `capped_from` when `max_dealer_extra` cut it."""
    streak, dealer, per_tai = result["streak"], result["dealer"], stakes.get("per_tai", 0)
    extra = dealer_extra(streak, options, house_rules)
    if not extra or dealer not in (payer, payee):
        return []
    reason = {"code": "dealer_extra", "dealer": dealer, "streak": streak, "tai": extra, "per_tai": per_tai,
              "amount": per_tai * extra}
    formula = house_rules.get("dealer_extra", "1+2n")
    if formula != "1+2n":
        reason["formula"] = formula
    uncapped = dealer_extra(streak, options, {"dealer_extra": formula})
    if uncapped != extra:
        reason["capped_from"] = uncapped
    return [reason]


def _false_win_lines(offender: str, ruleset: str, seats: tuple[str, ...], stakes: Mapping, options: Mapping,
                     house_rules: Mapping, result: Mapping) -> list[dict]:
    """詐胡: the offender pays each of the others the penalty, as `ledger.payments.false_win_payments` does."""
    penalty = false_win_penalty(ruleset, options, house_rules)
    lines = []
    for payee in seats:
        if payee == offender:
            continue
        if "amount" in penalty:
            reasons = [{"code": "false_win_amount", "amount": penalty["amount"]}]
        elif ruleset == "shanghai":
            points = penalty["as_self_draw"]
            reasons = [{"code": "share", "points": points, "base": stakes["base"], "amount": points * stakes["base"]}]
        else:
            tai = penalty["as_self_draw"]
            reasons = [{"code": "base", "amount": stakes["base"]},
                       {"code": "tai", "tai": tai, "per_tai": stakes.get("per_tai", 0),
                        "amount": stakes.get("per_tai", 0) * tai, "patterns": None},
                       *_dealer_extra(offender, payee, stakes, options, house_rules, result)]
        lines.append(_line(offender, payee, sum(reason["amount"] for reason in reasons),
                           [{"code": "false_win"}, *reasons]))
    return lines


def _shanghai_lines(entry: HandEntry, win: Winner, score: Mapping, seats: tuple[str, ...], stakes: Mapping,
                    result: Mapping, dice: list[int] | None) -> list[dict]:
    """`shares × points × 底分 (× 2 in a 荒番 hand)` for each payer, as `ledger.payments` pays it."""
    share = {"code": "share", "points": win.value, "base": stakes["base"], "amount": win.value * stakes["base"]}
    breakdown = score.get("score")
    if breakdown:
        share.update(flowers=breakdown.get("flowers"), lei=breakdown.get("lei"), fan=breakdown.get("fan"),
                     patterns=_patterns(score))
    doubled = result["wasteland"] > 0
    reasons_after = [share]
    if doubled:
        reasons_after.append({"code": "wasteland", "counter": result["wasteland"],
                              "dice": list(dice) if dice else None})
    related = related_players(entry.three_mouth, win.player, seats)
    lines = []
    for payer, shares in shanghai_payers(entry, win, seats):
        why = [_why(entry, win)]
        relation = _three_mouth(entry, win, payer, related)
        if relation:
            why.append(relation)
        amount = shares * share["amount"] * (2 if doubled else 1)
        lines.append(_line(payer, win.player, amount, [*why, *reasons_after, {"code": "shares", "shares": shares}]))
    return lines


def _three_mouth(entry: HandEntry, win: Winner, payer: str, related: list[str]) -> dict | None:
    """The 三口 reason that changed what `payer` pays `win` (RULES.md §7), if any."""
    if not related or entry.by == "robbing_kong":
        return None
    if win.event in SELF_DRAWN_EVENTS or entry.by == "self_draw":
        return {"code": "three_mouth_self_draw", "related": payer, "shares": SELF_DRAW_SHARES}
    if entry.discarder in related:
        return {"code": "three_mouth_discard", "shares": 2}
    if not entry.discarder_ready:
        return {"code": "three_mouth_not_ready", "shares": 2}
    return {"code": "three_mouth_ready", "discarder": entry.discarder, "related": payer != entry.discarder,
            "shares": 1}


def _patterns(score: Mapping) -> list[dict] | None:
    """The engine's patterns (name, value, unit) for a tile-entered win; None for a quick entry."""
    breakdown = score.get("score")
    if not breakdown:
        return None
    return [{key: pattern[key] for key in ("id", "name", "value", "unit") if key in pattern}
            for pattern in breakdown["patterns"]]


def _line(payer: str, payee: str, amount: int, reasons: list[dict]) -> dict:
    return {"payer": payer, "payee": payee, "amount": amount, "reasons": reasons}

