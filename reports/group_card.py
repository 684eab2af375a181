"""A group's standings and balances as cards (牌友會圖): the same phone-shaped picture as an evening's.

The standings card has no transfers (standings settle nothing); the balances card leaves out members
who owe nothing and notes when balances were rounded or the transfers are not proven the fewest.
Both are drawn by `reports.card.render_card`; nothing here computes money.
"""
from __future__ import annotations

import datetime
from collections.abc import Mapping

from ledger.settlement import MAX_EXACT_PARTICIPANTS, Transfer
from reports.card import Card, CardRow
from reports.chart import colour_hex
from reports.group import GroupReport
from words import language, word


def standings_card(report: GroupReport, lang: str) -> Card:
    """The standings over `report`'s period: net money by rank, and the cumulative net money of each member."""
    lang = language(lang)
    names = [row["name"] for row in report.standings]
    colours = {name: colour_hex(index) for index, name in enumerate(names)}
    cumulative = report.cumulative()
    return Card(
        title=report.name,
        subtitles=(period_words(report.period_from, report.period_to, lang),
                   word(lang, "card.evenings", count=len(report.evenings))),
        rows_heading=word(lang, "card.net"),
        rows=tuple(CardRow(row["name"], row["net"], colours[row["name"]]) for row in report.standings),
        no_rows=word(lang, "sheet.group_no_evenings"),
        chart_heading=word(lang, "card.cumulative") if report.evenings and names else None,
        series=tuple((name, tuple(cumulative[name])) for name in names),
    )


def balances_card(name: str, balances: Mapping, day: datetime.date, lang: str) -> Card:
    """The open balances of a group (`api.group_records.balances`'s answer) on `day`, and who pays whom."""
    lang = language(lang)
    owing = sorted(((member, amount) for member, amount in balances["balances"].items() if amount),
                   key=lambda item: (-item[1], item[0]))
    notes = []
    if "rounding" in balances:
        notes.append(word(lang, "card.balances_rounded", round_to=balances["rounding"]["round_to"]))
    if balances.get("fewest") is False:
        notes.append(word(lang, "card.not_fewest", limit=MAX_EXACT_PARTICIPANTS))
    return Card(
        title=name,
        subtitles=(word(lang, "card.balances_on", day=day.isoformat()),),
        rows_heading=word(lang, "card.balances"),
        rows=tuple(CardRow(member, amount) for member, amount in owing),
        no_rows=word(lang, "card.all_square"),
        transfers_heading=word(lang, "card.transfers"),
        transfers=tuple(Transfer(t["from"], t["to"], t["amount"]) for t in balances["transfers"]),
        no_transfers=word(lang, "card.square"),
        notes=tuple(notes),
    )


def period_words(first: datetime.date | None, last: datetime.date | None, lang: str) -> str:
    """The period in words: "All evenings", "From 2026-11-01", "Until …" or "2026-11-01 to 2026-11-30".

    >>> day = datetime.date(2026, 11, 1)
    >>> period_words(None, None, "en"), period_words(day, None, "zh-Hant"), period_words(day, day, "zh-Hans")
    ('All evenings', '2026-11-01 起', '2026-11-01 至 2026-11-01')
    """
    if first and last:
        return word(lang, "card.period", first=first.isoformat(), last=last.isoformat())
    if first:
        return word(lang, "card.period_from", first=first.isoformat())
    if last:
        return word(lang, "card.period_to", last=last.isoformat())
    return word(lang, "card.period_all")
