"""Issue 31: a competition on the phone page, in real Chromium: the organiser's flow end to end, every view of it
in 繁, 简 and EN with axe, and the wall at 1920×1080 and on a phone at 390 px, following the competition live.

Worked amounts (Taiwanese 100 底 / 20 per 台, quick entry): at a table the 南 seat wins 3 台 on 西's discard, the
dealer (東) not involved: 100 + 20 × 3 = 160 from 西. Placement points 4/2/1/0 at that table: 南 +160 takes 4;
東 and 北 at 0 share places 2 and 3, (2 + 1) / 2 = 3/2 each; 西 −160 gets 0. A table without a hand counts
nothing. Ranked by points then net, 9 entrants: 南 1st; 東 and 北 2nd together; the other table's four and Ivy
(not checked in, so absent) at 0 and 0 share 4th; 西 (0 points, −160) 9th. Voiding the hand (the correction) leaves the table with no hand played: it counts
nothing, so all nine stand 1st together at 0 points and 0 net.

One competition (made through the API, ``shared``) serves the views and the wall; the flow makes its own on
the page. The standings offer their picture for the chat and the results sheet (PDF) to the organiser (the flow)
and to a spectator, who reaches them from the wall (the wall's test). Screenshots:
tests/artifacts/31-<view>-<lang>-<width>.png.
"""
import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.e2e.steps import begin_win, in_one_language, quick_win, screenshot
from tests.e2e.test_share_card import NO_FILE_SHARING, PNG_SIGNATURE
from tests.e2e.test_every_view import AXE_RUN, NAMES_AND_TEXT, OVERFLOW, SMALL_TARGETS, wrong_language

NAMES = ["Amy", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
#: The shared competition's entrants: names a control may carry in every language (no Latin word on a Chinese
#: page, no traditional-only character on the 简体 one: test_every_view.wrong_language); the last not checked in.
ROOT = Path(__file__).resolve().parents[2]
SHARED_NAMES = ["阿美", "志明", "淑芬", "建宏", "小王", "阿芳", "老李", "建国", "小文"]
LOCALES = {"zh-Hant": "zh-TW", "zh-Hans": "zh-CN", "en": "en-US"}
BODY = {"name": "Spring cup", "ruleset": "taiwan", "stakes": {"base": 100, "per_tai": 20}, "rounds": 2,
        "round": {"until": "jiang", "minutes": 90, "grace": 5}, "ranking": {"placement_points": [4, 2, 1, 0]},
        "seating": "swiss", "check_in": True}


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture(scope="module")
def shared(playwright_instance, live_server):
    """9 entrants (the last not checked in), round 1 drawn and started, one hand at table 1 (南 wins 3 台 from 西)."""
    api = playwright_instance.request.new_context(base_url=live_server.url)
    created = api.post("/api/competitions", data=BODY).json()
    path, organizer = f"/api/competitions/{created['id']}", bearer(created["organizer_token"])
    assert api.post(f"{path}/entrants", data={"names": SHARED_NAMES}, headers=organizer).status == 201
    for name in SHARED_NAMES[:8]:
        assert api.post(f"{path}/entrants/{name}/check_in", headers=organizer).status == 200
    drawn = api.post(f"{path}/rounds", data={"seed": 7}, headers=organizer).json()
    assert api.post(f"{path}/rounds/1/start", headers=organizer).status == 200
    table = drawn["tables"][0]
    east, south, west, north = table["seats"]
    hand = {"winners": [{"player": south, "tai": 3}], "by": "discard", "discarder": west}
    assert api.post(f"/api/sessions/{table['session']}/hands", data=hand, headers=bearer(table["token"])).status == 201
    yield {"api": api, "created": created, "drawn": drawn, "path": path, "organizer": organizer}
    api.dispose()


def check(page, view, lang, width, found):
    """Targets, overflow, axe and the language of every name on what the page shows now; a screenshot."""
    where = f"{view} {lang} {width}"
    found += [f"{where}: small target {item}" for item in page.evaluate(SMALL_TARGETS, 44)]
    found += [f"{where}: overflow {item}" for item in page.evaluate(OVERFLOW)]
    found += [f"{where}: axe {item}" for item in page.evaluate(AXE_RUN)]
    found += [f"{where}: {item}" for item in wrong_language(page.evaluate(NAMES_AND_TEXT), lang)]
    screenshot(page, f"31-{view}-{lang}-{width}", full_page=True)


def fetched(page, testid, asked, content_type):
    """Tap `testid`: the file it fetches (its path and query ending in `asked`) answers 200 with `content_type`
    and is saved under a name of its kind, starting as one. Returns the response."""
    with page.expect_response(lambda response: response.url.endswith(asked)) as answer, \
            page.expect_download() as saved:
        page.get_by_test_id(testid).click()
    assert (answer.value.status, answer.value.headers["content-type"]) == (200, content_type), testid
    assert saved.value.suggested_filename.endswith(asked.split("?")[0].rsplit(".", 1)[1]), testid
    with open(saved.value.path(), "rb") as file:
        assert file.read().startswith(b"%PDF" if content_type == "application/pdf" else PNG_SIGNATURE), testid
    return answer.value


def open_as(page, created, token, wall=False):
    """Open the competition's link: the organiser's carries the read-only token as ``&r=`` (for the wall's link)."""
    extra = "&v=wall" if wall else f"&r={created['read_token']}"
    page.goto(f"/#c={created['id']}&t={token}{extra}")


@pytest.fixture(scope="module")
def axe_source(axe_core):
    return axe_core.read_text(encoding="utf-8")


def test_the_organisers_flow_end_to_end(new_phone):
    organiser = new_phone().new_page()
    organiser.goto("/")
    organiser.get_by_test_id("to-competition-new").click()
    organiser.get_by_test_id("comp-name").fill("Club night")
    organiser.get_by_test_id("comp-rounds").fill("2")
    organiser.get_by_test_id("comp-check-in").check()
    organiser.get_by_test_id("comp-create").click()
    expect(organiser.get_by_test_id("comp-heading")).to_have_text("Club night")
    expect(organiser.get_by_test_id("comp-summary")).to_contain_text("2 rounds")
    expect(organiser.get_by_test_id("wall-link")).to_have_value(re.compile(r"/#c=[^&]+&t=.+&v=wall$"))
    organiser.get_by_test_id("entrant-names").fill("\n".join(NAMES + ["Ivy"]))
    organiser.get_by_test_id("entrants-add").click()
    expect(organiser.get_by_test_id("entrants").locator("li.entrant")).to_have_count(9)
    for name in NAMES:
        organiser.locator(f'li.entrant[data-name="{name}"]').get_by_test_id("check-in").click()
        expect(organiser.locator(f'li.entrant[data-name="{name}"]').get_by_test_id("check-in")).to_have_attribute(
            "aria-pressed", "true")
    expect(organiser.get_by_test_id("checked-in-count")).to_have_text("8 of 9 checked in")
    organiser.get_by_test_id("draw-seed").fill("7")
    organiser.get_by_test_id("draw-round").click()
    expect(organiser.get_by_test_id("round-seed")).to_have_text("Seed of the draw: 7")
    expect(organiser.get_by_test_id("absent")).to_have_text("Not checked in, not seated this round: Ivy")
    expect(organiser.get_by_test_id("comp-table")).to_have_count(2)
    expect(organiser.get_by_test_id("round-clock")).to_have_text("The round's clock has not started.")
    first = organiser.get_by_test_id("comp-table").first
    seats = first.locator("p").first.inner_text().split(" · ")
    link = first.get_by_test_id("table-link").input_value()

    table = new_phone().new_page()  # the table's own phone, from its link
    table.goto(link.replace(re.match(r"https?://[^/]+", link).group(0), ""))
    expect(table.get_by_test_id("round-note")).to_contain_text("Club night · round 1, table 1")
    expect(table.get_by_test_id("round-line")).to_have_text("The organiser has not started the round's clock yet.")

    organiser.get_by_test_id("start-round").click()
    expect(organiser.get_by_test_id("round-clock")).to_contain_text(re.compile(r"^(90:00|89:5\d) left"))
    # The table's phone learns it from its own stream and counts down.
    expect(table.get_by_test_id("round-line")).to_have_text(re.compile(r"^(90:00|89:[0-5]\d) left$"))
    east, south, west, north = seats
    quick_win(table, south, west, 3)
    expect(table.get_by_test_id("board")).to_be_visible()
    expect(table.get_by_test_id("total-1")).to_have_text("+160")

    # The organiser's view follows the tables' progress by itself; Refresh reads the whole competition again.
    expect(organiser.get_by_test_id("table-progress").first).to_have_text("hands: 1")
    organiser.get_by_test_id("comp-refresh").click()
    expect(organiser.get_by_test_id("table-progress").first).to_have_text("hands: 1")
    organiser.get_by_test_id("end-round").click()
    organiser.get_by_test_id("confirm-yes").click()
    expect(organiser.get_by_test_id("draw-card")).to_contain_text("Draw round 2")
    expect(table.get_by_test_id("round-line")).to_have_text(
        re.compile(r"^The round has ended: the hand in play may still be entered until \d\d:\d\d\.$"))

    # Between rounds: Ivy withdraws from round 2 on.
    organiser.locator('li.entrant[data-name="Ivy"]').get_by_test_id("withdraw").click()
    organiser.get_by_test_id("confirm-yes").click()
    expect(organiser.locator('li.entrant[data-name="Ivy"]')).to_contain_text("withdrawn from round 2")

    organiser.get_by_test_id("to-comp-standings").click()
    expect(organiser.get_by_test_id("tie-breaks")).to_have_text(
        "Ranked by placement points (4/2/1/0; tied seats share the points of the places they cover), then net "
        "money; equal in both shares a rank.")
    rows = organiser.get_by_test_id("comp-standings").locator("li.comp-standing")
    expect(rows).to_have_count(9)
    winner = organiser.locator(f'li.comp-standing[data-name="{south}"]')
    expect(winner.locator(".rank")).to_have_text("1")
    expect(winner.get_by_test_id("points")).to_have_text("4 pts")
    expect(winner.get_by_test_id("net")).to_have_text("+160")
    for name in (east, north):
        expect(organiser.locator(f'li.comp-standing[data-name="{name}"] .rank')).to_have_text("2")
        expect(organiser.locator(f'li.comp-standing[data-name="{name}"]').get_by_test_id("points")).to_have_text(
            "1.5 pts")  # 3/2 as a decimal
    expect(organiser.locator(f'li.comp-standing[data-name="{west}"] .rank')).to_have_text("9")
    winner.locator("summary").click()
    expect(winner.get_by_test_id("comp-history")).to_have_text(
        f"Round 1, table 1 (南) against {east}、{west}、{north}place 1 · 4 pts · +160")
    screenshot(organiser, "31-flow-standings-en-390", full_page=True)
    # The standings picture for the chat and the results sheet, as Settle offers an evening's: fetched with the
    # organiser's token in the page's language; this phone's share sheet takes no files, so both are downloaded.
    organiser.evaluate(f"() => {{ {NO_FILE_SHARING} }}")
    fetched(organiser, "comp-results-pdf", "/report.pdf?lang=en", "application/pdf")
    fetched(organiser, "comp-standings-picture", "/standings.png?lang=en", "image/png")
    expect(organiser.get_by_test_id("toast")).to_have_text("Picture downloaded.")

    organiser.get_by_test_id("to-competition").click()
    organiser.get_by_test_id("ended-rounds").locator("summary").first.click()
    organiser.get_by_test_id("reopen-table").first.click()
    organiser.get_by_test_id("confirm-yes").click()
    organiser.get_by_test_id("correct-table").first.click()
    organiser.get_by_test_id("void-last").click()
    expect(organiser.get_by_test_id("void-badge")).to_be_visible()
    organiser.evaluate("() => { location.hash = 'competition-standings'; }")
    for name in (east, south, west, north):
        row = organiser.locator(f'li.comp-standing[data-name="{name}"]')
        expect(row.locator(".rank")).to_have_text("1")
        expect(row.get_by_test_id("points")).to_have_text("0 pts")
        expect(row.get_by_test_id("net")).to_have_text("0")
    # The start form lists the competition this phone runs, and opens it again.
    organiser.get_by_test_id("to-competition").click()
    organiser.get_by_test_id("comp-to-start").click()
    organiser.get_by_test_id("known-competition").click()
    expect(organiser.get_by_test_id("comp-heading")).to_have_text("Club night")


@pytest.mark.parametrize("lang", list(LOCALES))
def test_every_organiser_view_in_each_language(new_phone, shared, axe_source, lang):
    page = new_phone(locale=LOCALES[lang]).new_page()
    page.goto("/")
    page.evaluate(axe_source)
    found = []
    page.get_by_test_id("to-competition-new").click()
    expect(page.get_by_test_id("comp-form")).to_be_visible()
    check(page, "competition-new", lang, 390, found)
    open_as(page, shared["created"], shared["created"]["organizer_token"])
    expect(page.get_by_test_id("round-card")).to_be_visible()
    expect(page.get_by_test_id("wall-qr-image")).to_be_visible()
    page.evaluate(axe_source)
    check(page, "competition", lang, 390, found)
    page.get_by_test_id("to-comp-standings").click()
    expect(page.get_by_test_id("comp-standings")).to_be_visible()
    page.get_by_test_id("comp-standing").first.locator("summary").click()
    check(page, "competition-standings", lang, 390, found)
    table = shared["drawn"]["tables"][0]
    page.goto(f"/#s={table['session']}&t={table['token']}&r={table['read_token']}")
    expect(page.get_by_test_id("round-line")).to_be_visible()
    page.evaluate(axe_source)
    check(page, "competition-table", lang, 390, found)
    assert found == [], "\n".join(found)


@in_one_language("zh-Hant")
def test_the_wall_at_1920_and_on_a_phone_follows_the_competition_live(new_phone, shared, axe_source, lang):
    page = new_phone(locale=LOCALES[lang]).new_page()
    open_as(page, shared["created"], shared["created"]["read_token"], wall=True)
    ranking = page.get_by_test_id("wall-ranking").locator("li")
    expect(ranking).to_have_count(9)
    page.evaluate(axe_source)
    found = []
    for width, height in ((1920, 1080), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        check(page, "wall", lang, width, found)
    assert found == [], "\n".join(found)
    page.set_viewport_size({"width": 1920, "height": 1080})
    # Legible from five metres: the names are drawn at 36 px or more on a 1920-wide screen.
    assert page.evaluate("parseFloat(getComputedStyle(document.querySelector('.wall-name')).fontSize)") >= 36
    if lang == "en":  # live: a hand at table 2 reaches the wall's table and its leaderboard by itself
        table = shared["drawn"]["tables"][1]
        east, south, west, north = table["seats"]
        hand = {"winners": [{"player": south, "tai": 3}], "by": "discard", "discarder": west}
        assert shared["api"].post(f"/api/sessions/{table['session']}/hands", data=hand,
                                  headers=bearer(table["token"])).status == 201
        expect(page.locator('.wall-table[data-table="2"]')).to_contain_text("hands: 1")
        expect(page.get_by_test_id("wall-ranking").locator("li").filter(has_text=south)).to_contain_text("+160")
        # A spectator goes from the wall to the standings and takes their picture with the read-only token.
        page.get_by_test_id("to-comp-standings").click()
        expect(page.get_by_test_id("comp-standings")).to_be_visible()
        page.evaluate(f"() => {{ {NO_FILE_SHARING} }}")
        picture = fetched(page, "comp-standings-picture", "/standings.png?lang=en", "image/png")
        assert picture.request.headers["authorization"] == f"Bearer {shared['created']['read_token']}"


def test_a_groups_competition_enters_members_from_its_roster(new_phone, api):
    """The phone holds the group's admin link: the competition is the group's and its entrants are picked from
    the roster (four of five members); the one left is still offered."""
    group = api.post("/api/groups", data={"name": "Friday club", "defaults": {"ruleset": "taiwan",
                                                                              "stakes": BODY["stakes"]}}).json()
    for name in NAMES[:5]:
        assert api.post(f"/api/groups/{group['id']}/members", data={"name": name},
                        headers=bearer(group["admin_token"])).status == 201
    page = new_phone().new_page()
    page.goto(f"/#g={group['id']}&t={group['admin_token']}")
    expect(page.get_by_test_id("group-name")).to_have_text("Friday club")  # the phone knows it as its admin
    page.evaluate("() => { location.hash = 'competition-new'; }")
    page.get_by_test_id("comp-name").fill("Club cup")
    page.get_by_test_id("comp-group").select_option(group["id"])
    page.get_by_test_id("comp-create").click()
    roster = page.get_by_test_id("roster")
    for name in NAMES[:4]:
        roster.get_by_role("button", name=name, exact=True).click()
    page.get_by_test_id("roster-add").click()
    expect(page.get_by_test_id("entrants").locator("li.entrant")).to_have_count(4)
    expect(page.get_by_test_id("roster").locator(".choice")).to_have_text(["Eve"])
    page.get_by_test_id("draw-round").click()
    expect(page.get_by_test_id("comp-table")).to_have_count(1)


def test_a_table_whose_first_jiang_is_complete_says_so(new_phone, api):
    """Sixteen hands each won by a player who is not dealing pass the deal sixteen times: 東 to 北 wind rounds,
    four deals each, and the table's first 將 is complete (Taiwanese rules, RULES.md); its phones say the round is
    done after the hand in play."""
    created = api.post("/api/competitions", data={**BODY, "check_in": False}).json()
    path, organizer = f"/api/competitions/{created['id']}", bearer(created["organizer_token"])
    api.post(f"{path}/entrants", data={"names": NAMES[:4]}, headers=organizer)
    table = api.post(f"{path}/rounds", headers=organizer).json()["tables"][0]
    api.post(f"{path}/rounds/1/start", headers=organizer)
    dealer = table["seats"][0]
    for _ in range(16):
        others = [name for name in table["seats"] if name != dealer]
        hand = {"winners": [{"player": others[0], "tai": 1}], "by": "discard", "discarder": others[1]}
        answer = api.post(f"/api/sessions/{table['session']}/hands", data=hand, headers=bearer(table["token"]))
        assert answer.status == 201, answer.text()
        dealer = answer.json()["state"]["dealer"]
    page = new_phone().new_page()
    page.goto(f"/#s={table['session']}&t={table['token']}&r={table['read_token']}")
    expect(page.get_by_test_id("round-line")).to_have_text(re.compile(
        r"^The first 將 is complete: this table's round is done after this hand\. (90:00|89:[0-5]\d) left$"))
    screenshot(page, "31-competition-table-jiang-done-en-390")


def started_table(api, names=NAMES[:4]):
    """A competition of four (no check-in), round 1 drawn and its clock started: (its path, the organiser's
    headers, its one table)."""
    created = api.post("/api/competitions", data={**BODY, "check_in": False}).json()
    path, organizer = f"/api/competitions/{created['id']}", bearer(created["organizer_token"])
    assert api.post(f"{path}/entrants", data={"names": names}, headers=organizer).status == 201
    table = api.post(f"{path}/rounds", headers=organizer).json()["tables"][0]
    assert api.post(f"{path}/rounds/1/start", headers=organizer).status == 200
    return path, organizer, table


def test_the_end_of_a_round_reaches_the_phone_whose_hand_it_refused(new_phone, api):
    """Issue 38 item 10. A phone is entering a hand (東 wins 2 台 on 南's discard) when the organiser ends the
    round: its hand, made against the evening before the end, is refused (412: the end moved the evening on) and
    sent again on top (nothing but the end came between), and recorded as the hand in play within the grace. That
    phone then says, as the table's other phone does, that the round has ended and the table records no more:
    Win and Draw disabled, no clock counting down."""
    path, organizer, table = started_table(api)
    link = f"/#s={table['session']}&t={table['token']}&r={table['read_token']}"
    scorer, other = new_phone().new_page(), new_phone().new_page()
    for page in (scorer, other):
        page.goto(link)
        expect(page.get_by_test_id("round-line")).to_have_text(re.compile(r"^(90:00|89:[0-5]\d) left$"))
    heard = []
    cdp = scorer.context.new_cdp_session(scorer)
    cdp.on("Network.eventSourceMessageReceived", lambda message: heard.append(message["eventName"]))
    cdp.send("Network.enable")
    east, south = table["seats"][:2]
    begin_win(scorer, east, south)
    scorer.get_by_test_id("quick-0").fill("2")
    assert api.post(f"{path}/rounds/1/end", data={}, headers=organizer).status == 200
    expect(other.get_by_test_id("round-line")).to_have_text(re.compile(
        r"^The round has ended: the hand in play may still be entered until "))
    while "close" not in heard:  # the scorer's stream has brought the end to its form too
        scorer.wait_for_timeout(50)
    scorer.get_by_test_id("win-submit").click()
    for page in (scorer, other):
        expect(page.get_by_test_id("board")).to_be_visible()
        expect(page.get_by_test_id("round-line")).to_have_text("The round has ended: this table records no more.")
        expect(page.get_by_test_id("btn-win")).to_be_disabled()
        expect(page.get_by_test_id("btn-draw")).to_be_disabled()
    # 東, the dealer, wins 2 台 on 南's discard: 100 + 20 × (2 + 1, the dealer's extra with no streak) = 160
    evening = api.get(f"/api/sessions/{table['session']}", headers=bearer(table["token"])).json()
    assert evening["totals"][east] == 160 and evening["totals"][south] == -160
    assert evening["state"]["hands_played"] == 1 and evening["state"]["closed"] is True
    screenshot(scorer, "38-competition-table-ended-after-its-hand-en-390")


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans", "en"])
def test_a_refusal_shows_the_servers_own_words(new_phone, api, lang):
    """Issue 38 item 11. A phone is entering a hand when the organiser ends the round with no grace: the hand is
    refused (409), and the form says what the server said, that the round has ended and only the organiser can
    reopen the table, in the page's language, not "Reopen it in Settle first"."""
    path, organizer, table = started_table(api)
    page = new_phone(LOCALES[lang]).new_page()
    page.goto(f"/#s={table['session']}&t={table['token']}&r={table['read_token']}")
    east, south = table["seats"][:2]
    begin_win(page, east, south)
    page.get_by_test_id("quick-0").fill("2")
    assert api.post(f"{path}/rounds/1/end", data={"grace": 0}, headers=organizer).status == 200
    page.get_by_test_id("win-submit").click()
    said = json.loads((ROOT / "words" / f"{lang}.json").read_text(encoding="utf-8"))["api.round_ended_table"]
    expect(page.get_by_role("alert").filter(has_text=said)).to_be_visible()
    evening = api.get(f"/api/sessions/{table['session']}", headers=bearer(table["token"])).json()
    assert evening["state"]["hands_played"] == 0
    screenshot(page, f"38-competition-table-hand-refused-{lang}-390")


def test_a_table_the_organiser_reopened_after_its_round_offers_its_phone_nothing_to_record(new_phone, api):
    """Found in issue 38's cup run: after round 2 is drawn the organiser reopens a table of round 1 to correct
    it. The table's own link may change nothing there (the server answers 409), and its phone says "this table
    records no more"; Win and Draw are disabled to match, not live as they were while the evening stood open.
    No "Table closed at …" note either: the table is open, for the organiser."""
    path, organizer, table = started_table(api)
    east, south = table["seats"][:2]
    hand = {"winners": [{"player": east, "tai": 2}], "by": "discard", "discarder": south}
    assert api.post(f"/api/sessions/{table['session']}/hands", data=hand, headers=bearer(table["token"])).status == 201
    assert api.post(f"{path}/rounds/1/end", data={"grace": 0}, headers=organizer).status == 200
    assert api.post(f"{path}/rounds", data={}, headers=organizer).status == 201
    assert api.post(f"{path}/tables/{table['session']}/reopen", headers=organizer).status == 200
    evening = api.get(f"/api/sessions/{table['session']}", headers=bearer(table["token"])).json()
    assert evening["state"]["closed"] is False
    page = new_phone().new_page()
    page.goto(f"/#s={table['session']}&t={table['token']}&r={table['read_token']}")
    expect(page.get_by_test_id("round-line")).to_have_text("The round has ended: this table records no more.")
    expect(page.get_by_test_id("btn-win")).to_be_disabled()
    expect(page.get_by_test_id("btn-draw")).to_be_disabled()
    expect(page.get_by_test_id("closed-note")).to_have_count(0)
    assert api.post(f"/api/sessions/{table['session']}/hands", data=hand,
                    headers=bearer(table["token"])).status == 409
    screenshot(page, "38-competition-table-reopened-for-the-organiser-en-390")


def test_a_phone_holding_a_groups_link_may_seat_round_one_by_rating(new_phone, api):
    """Seating by rating is offered where the ratings can come from: a phone holding a group's admin link. Chosen
    without the group, the server's refusal stands by the seating choice and nothing is made; with the group,
    the competition is made seated by rating (API.md: Ratings)."""
    group = api.post("/api/groups", data={"name": "Friday club", "defaults": {"ruleset": "taiwan",
                                                                              "stakes": BODY["stakes"]}}).json()
    stranger = new_phone().new_page()  # a phone that knows no group is not offered it
    stranger.goto("/#competition-new")
    expect(stranger.get_by_test_id("comp-seating").get_by_role("button")).to_have_text(
        ["Swiss (by standings)", "Random every round"])
    page = new_phone().new_page()
    page.goto(f"/#g={group['id']}&t={group['admin_token']}")
    expect(page.get_by_test_id("group-name")).to_have_text("Friday club")
    page.evaluate("() => { location.hash = 'competition-new'; }")
    page.get_by_test_id("comp-name").fill("Rated cup")
    seating = page.get_by_test_id("comp-seating")
    seating.get_by_role("button", name="Round 1 by the group's ratings, then Swiss").click()
    expect(seating.locator(".choice.on")).to_have_text("Round 1 by the group's ratings, then Swiss")
    with page.expect_response(lambda answer: answer.url.endswith("/api/competitions")) as refused:
        page.get_by_test_id("comp-create").click()
    assert refused.value.status == 422
    expect(page.locator('[data-error-for="seating"]')).to_have_text(
        "Seating by rating needs a competition of a group: the ratings are the group's.")
    page.get_by_test_id("comp-group").select_option(group["id"])
    with page.expect_response(lambda answer: answer.url.endswith("/api/competitions")) as made:
        page.get_by_test_id("comp-create").click()
    assert made.value.status == 201
    created = made.value.json()
    assert api.get(f"/api/competitions/{created['id']}", headers=bearer(created["read_token"])).json()["seating"] \
        == "rating"
    expect(page.get_by_test_id("roster")).to_be_visible()
    expect(page.get_by_test_id("comp-summary")).to_contain_text("Round 1 by the group's ratings, then Swiss")
    expect(page.get_by_test_id("draw-card").locator("p.hint").first).to_have_text(
        "By the group's ratings, seated in snake order so that the strongest are spread over the tables.")
    screenshot(page, "43-competition-seated-by-rating-en")
