"""Issue 38: a 19-digit seed typed in the draw's seed box on a phone (390 px) is drawn with and shown digit for
digit (in 简). A JavaScript Number keeps 15-17 significant digits: 7571865187093097242 became
7571865187093097000, and the page drew and showed that.

Round 1 of 8 entrants none of whom has met is their order by ``random.Random(seed).shuffle`` of the entrant
numbers, in four-seat slices, each 東, 南, 西, 北 (ledger/draw.py). Screenshots:
tests/artifacts/38-seed-typed-<lang>-390.png (the seed box)
and 38-seed-<lang>-390.png (the round drawn); the page with the seed typed is checked as test_competition.py
checks its views (targets, overflow, axe, each name in the language): 31-38-seed-box-<lang>-390.png.
"""
import random

import pytest
from playwright.sync_api import expect

from tests.e2e.steps import in_one_language, screenshot
from tests.e2e.test_competition import BODY, LOCALES, SHARED_NAMES, axe_source, bearer, check, open_as  # noqa: F401

SEED = "7571865187093097242"
SHOWN = {"zh-Hant": f"抽位種子：{SEED}", "zh-Hans": f"抽位种子：{SEED}", "en": f"Seed of the draw: {SEED}"}


@in_one_language("zh-Hans")
def test_a_typed_19_digit_seed_is_drawn_with_and_shown_exactly(new_phone, api, axe_source, lang):
    created = api.post("/api/competitions", data={**BODY, "check_in": False}).json()
    path, organizer = f"/api/competitions/{created['id']}", bearer(created["organizer_token"])
    names = SHARED_NAMES[:8]
    assert api.post(f"{path}/entrants", data={"names": names}, headers=organizer).status == 201
    page = new_phone(locale=LOCALES[lang]).new_page()
    open_as(page, created, created["organizer_token"])
    page.get_by_test_id("draw-seed").fill(SEED)
    expect(page.get_by_test_id("draw-seed")).to_have_value(SEED)
    page.evaluate(axe_source)
    found = []
    check(page, "38-seed-box", lang, 390, found)  # targets, overflow, axe, every name in the page's language
    assert found == [], "\n".join(found)
    page.get_by_test_id("draw-card").scroll_into_view_if_needed()
    screenshot(page, f"38-seed-typed-{lang}-390")
    page.get_by_test_id("draw-round").click()
    expect(page.get_by_test_id("round-seed")).to_have_text(SHOWN[lang])
    order = list(range(1, 9))
    random.Random(int(SEED)).shuffle(order)
    first = " · ".join(names[n - 1] for n in order[:4])
    expect(page.get_by_test_id("comp-table").first.locator("p").first).to_have_text(first)
    drawn = api.get(path, headers=organizer).json()["drawn"][0]
    assert drawn["seed"] == SEED and drawn["tables"][0]["seats"] == [names[n - 1] for n in order[:4]]
    screenshot(page, f"38-seed-{lang}-390", full_page=True)
