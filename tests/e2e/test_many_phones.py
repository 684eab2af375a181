"""Issue 16 on the phone page: one table, many phones.

Two browser contexts are two phones on one evening. Evenings are started
through the API and opened by their links. Taiwanese stakes 底 100 / 台 20 with
the dealer extra on (RULES.md §6): a payer pays 100 + 20 × (台 + dealer extra),
the extra 1 + 2n only on payments with the dealer. Amy deals first; seats Amy,
Ben, Cat, Dan. Screenshots (390 px wide, both languages) go to tests/artifacts/.
"""
import datetime
import subprocess
from zoneinfo import ZoneInfo

from playwright.sync_api import expect

from tests.e2e.steps import api_get, auth, begin_win, expect_totals, quick_win, screenshot, switch_language
from tests.e2e.test_what_a_table_sees import discard, new_evening, open_on, phone_in, post_hands

LIVE_MS = 2000  # "a hand recorded on phone A shows on phone B within 2 s, with no tap"


def created_with_read_token(api):
    """An evening with both links: {"id", "token", "read_token", "link", "read_link"}."""
    body = {"name": "Friday", "ruleset": "taiwan", "players": ["Amy", "Ben", "Cat", "Dan"],
            "stakes": {"base": 100, "per_tai": 20}, "options": {}}
    created = api.post("/api/sessions", data=body).json()
    return {"id": created["id"], "token": created["token"], "read_token": created["read_token"],
            "link": f"/#s={created['id']}&t={created['token']}",
            "read_link": f"/#s={created['id']}&t={created['read_token']}"}


def test_a_hand_recorded_on_one_phone_shows_on_the_other_within_two_seconds(new_phone, api):
    session = new_evening(api)
    first, second = new_phone().new_page(), new_phone().new_page()
    open_on(first, session)
    open_on(second, session)

    # Ben wins 3 台 on Cat's discard; dealer Amy is not part of it: Cat pays 100 + 20 × 3 = 160.
    quick_win(first, "Ben", "Cat", 3)
    for seat, total in enumerate(["0", "+160", "-160", "0"]):
        expect(second.get_by_test_id(f"total-{seat}")).to_have_text(total, timeout=LIVE_MS)
    expect(second.get_by_test_id("hand-no")).to_have_text("Hand 2")

    # The second phone is halfway through a win when the first records another hand: Cat self-draws 1 台,
    # dealer Ben pays 100 + 20 × (1 + 1) = 140, Amy and Dan 100 + 20 = 120 each.
    begin_win(second, "Dan", "Amy")
    second.get_by_test_id("quick-0").fill("2")
    quick_win(first, "Cat", None, 1)
    expect_totals(first, ["-120", "+20", "+220", "-120"])
    # The form keeps what was entered; the table behind it has moved on.
    expect(second.get_by_test_id("quick-0")).to_have_value("2")
    expect(second.get_by_test_id("chosen")).to_contain_text("Dan")
    expect(second.get_by_test_id("chosen")).to_contain_text("Amy")
    second.get_by_test_id("win-cancel").click()
    expect_totals(second, ["-120", "+20", "+220", "-120"])

    # History follows too: the first phone voids hand 2, the second shows it voided while it looks at History.
    second.get_by_test_id("nav-history").click()
    expect(second.get_by_test_id("hand-2")).to_be_visible()
    first.get_by_test_id("nav-history").click()
    first.get_by_test_id("void-last").click()
    expect(second.get_by_test_id("hand-2").get_by_test_id("void-badge")).to_be_visible(timeout=LIVE_MS)


def test_both_phones_record_at_once_one_hand_is_stored_and_the_other_phone_chooses(new_phone, api):
    session = new_evening(api)
    first, second = phone_in(new_phone, "en"), phone_in(new_phone, "zh")
    open_on(first, session)
    open_on(second, session)

    # Both enter the same moment's hand; the first records Ben 3 台 from Cat, the second Dan 2 台 from Amy.
    begin_win(first, "Ben", "Cat")
    begin_win(second, "Dan", "Amy")
    first.get_by_test_id("quick-0").fill("3")
    second.get_by_test_id("quick-0").fill("2")
    first.get_by_test_id("win-submit").click()
    expect_totals(first, ["0", "+160", "-160", "0"])
    second.get_by_test_id("win-submit").click()
    dialog = second.get_by_test_id("conflict-dialog")
    expect(dialog.get_by_test_id("conflict-since")).to_have_text("第 1 局剛在另一支手機記錄：Ben 3台 · 放槍：Cat")
    expect(dialog.get_by_test_id("conflict-mine")).to_have_text("你的（尚未記錄）：Dan 2台 · 放槍：Amy")
    screenshot(second, "many-phones-conflict-zh")
    # Drop mine: one hand stored, and the second phone shows it.
    dialog.get_by_test_id("conflict-drop").click()
    expect_totals(second, ["0", "+160", "-160", "0"])
    assert len(api_get(api, session, "/hands")) == 1

    # Again, now with the second phone in English keeping its hand. The first records Cat's self-draw of 1 台
    # (dealer Ben pays 140, Amy and Dan 120 each).
    switch_language(second, "EN")
    begin_win(first, "Cat", None)
    begin_win(second, "Dan", "Amy")
    first.get_by_test_id("quick-0").fill("1")
    second.get_by_test_id("quick-0").fill("2")
    first.get_by_test_id("win-submit").click()
    expect_totals(first, ["-120", "+20", "+220", "-120"])
    second.get_by_test_id("win-submit").click()
    expect(dialog.get_by_test_id("conflict-since")).to_have_text(
        "Hand 2 was just recorded on another phone: Cat 1台 · Self-draw 自摸")
    expect(dialog.get_by_test_id("conflict-mine")).to_have_text("Yours, not recorded yet: Dan 2台 · discarded by Amy")
    screenshot(second, "many-phones-conflict-en")
    # Record mine as a further hand: hand 3, dealer Cat (Ben's deal passed on), Amy pays Dan 100 + 20 × 2 = 140.
    dialog.get_by_test_id("conflict-keep").click()
    expect_totals(second, ["-260", "+20", "+220", "+20"])
    hands = api_get(api, session, "/hands")
    assert [(hand["number"], hand["body"]["winners"][0]["player"]) for hand in hands] == [
        (1, "Ben"), (2, "Cat"), (3, "Dan")]
    expect_totals(first, ["-260", "+20", "+220", "+20"])


def test_a_hand_that_waited_offline_meets_a_conflict_and_is_shown_for_the_choice(new_phone, api):
    session = new_evening(api)
    context = new_phone()
    page = context.new_page()
    open_on(page, session)
    page.get_by_test_id("btn-win").click()  # the rule sets, kept for offline use
    page.get_by_test_id("win-cancel").click()
    context.set_offline(True)
    quick_win(page, "Dan", "Amy", 2)
    expect(page.get_by_test_id("pending-note")).to_be_visible()
    # Meanwhile another phone records Ben 3 台 from Cat (Cat pays 160; Ben deals next).
    post_hands(api, session, discard("Ben", "Cat", 3))
    context.set_offline(False)
    dialog = page.get_by_test_id("conflict-dialog")
    expect(dialog.get_by_test_id("conflict-since")).to_have_text(
        "Hand 1 was just recorded on another phone: Ben 3台 · discarded by Cat")
    expect(dialog.get_by_test_id("conflict-mine")).to_have_text("Yours, not recorded yet: Dan 2台 · discarded by Amy")
    # Kept as a further hand: dealer Ben is not part of it, Amy pays Dan 100 + 20 × 2 = 140.
    dialog.get_by_test_id("conflict-keep").click()
    expect_totals(page, ["-140", "+160", "-160", "+140"])
    assert [hand["number"] for hand in api_get(api, session, "/hands")] == [1, 2]


def test_a_waiting_hand_left_undecided_stays_in_history_for_the_choice(new_phone, api):
    session = new_evening(api)
    context = new_phone()
    page = context.new_page()
    open_on(page, session)
    page.get_by_test_id("btn-win").click()  # the rule sets, kept for offline use
    page.get_by_test_id("win-cancel").click()
    context.set_offline(True)
    quick_win(page, "Dan", "Amy", 2)
    post_hands(api, session, discard("Ben", "Cat", 3))
    context.set_offline(False)
    expect(page.get_by_test_id("conflict-dialog")).to_be_visible()
    page.keyboard.press("Escape")  # no way out but a choice
    expect(page.get_by_test_id("conflict-dialog")).to_be_visible()
    page.reload()  # the page is closed before anyone chose: the hand still waits, and the choice comes back
    expect(page.get_by_test_id("pending-note")).to_contain_text("1 hand(s) wait for your choice")
    expect(page.get_by_test_id("conflict-since")).to_have_text(
        "Hand 1 was just recorded on another phone: Ben 3台 · discarded by Cat")
    page.get_by_test_id("conflict-drop").click()
    expect(page.get_by_test_id("pending-list")).to_have_count(0)
    assert [hand["number"] for hand in api_get(api, session, "/hands")] == [1]
    page.get_by_test_id("home").click()
    expect_totals(page, ["0", "+160", "-160", "0"])
    expect(page.get_by_test_id("pending-note")).to_have_count(0)


def test_the_read_only_link_shows_everything_and_no_control_that_changes_anything(new_phone, api):
    session = created_with_read_token(api)
    post_hands(api, session, discard("Ben", "Cat", 3))
    page = phone_in(new_phone, "en")
    page.goto(session["read_link"])
    expect(page.get_by_test_id("board")).to_be_visible()
    note = page.get_by_test_id("read-only-note")
    expect(note).to_have_text("Read-only link: you follow the evening, you cannot change it.")
    expect_totals(page, ["0", "+160", "-160", "0"])
    screenshot(page, "many-phones-read-only-en")
    for control in ("btn-win", "btn-draw", "nav-seat"):
        expect(page.get_by_test_id(control)).to_have_count(0)
    page.goto("/#win")
    expect(page.get_by_test_id("board")).to_be_visible()  # no win form on a read-only link
    expect(page.get_by_test_id("win-form")).to_have_count(0)
    page.get_by_test_id("nav-history").click()
    page.get_by_test_id("hand-1").locator(".hand-head").click()
    expect(page.get_by_test_id("hand-1").locator(".hand-details")).to_be_visible()
    for control in ("void-last", "hand-void", "hand-correct", "hand-restore"):
        expect(page.get_by_test_id(control)).to_have_count(0)
    page.get_by_test_id("home").click()
    page.get_by_test_id("nav-settle").click()
    expect(page.get_by_test_id("standings")).to_be_visible()
    expect(page.get_by_test_id("end-evening")).to_have_count(0)
    page.get_by_test_id("home").click()
    page.get_by_test_id("nav-share").click()
    origin = page.evaluate("location.origin")
    expect(page.get_by_test_id("share-link")).to_have_value(f"{origin}/#s={session['id']}&t={session['read_token']}")
    expect(page.get_by_test_id("new-links")).to_have_count(0)
    expect(page.get_by_test_id("share-read-block")).to_have_count(0)
    # The flow once; the note in Chinese too, on the same phone.
    page.get_by_test_id("go-table").click()
    switch_language(page, "繁")
    expect(note).to_have_text("唯讀連結：可以跟著看，不能更改。")
    screenshot(page, "many-phones-read-only-zh")
    # A live hand reaches a read-only phone too.
    post_hands(api, session, discard("Dan", "Amy", 2))
    expect_totals(page, ["-140", "+160", "-160", "+140"])


def test_a_read_answering_after_a_live_change_never_takes_the_totals_back_before_it(new_phone, api):
    """The table reads the evening again when it is shown. Another phone's hand, reaching this page by its
    stream while that read is on its way, is newer than the read's answer: the totals stay those after the
    hand (they went back to those before it, and no later event came to mend them: CI's failure of the
    read-only test above, one run in ten)."""
    session = created_with_read_token(api)
    post_hands(api, session, discard("Ben", "Cat", 3))
    page = phone_in(new_phone, "en")
    page.goto(session["read_link"])
    expect_totals(page, ["0", "+160", "-160", "0"])
    page.get_by_test_id("nav-history").click()
    expect(page.get_by_test_id("hand-1")).to_be_visible()
    held = []

    def hold_the_first(route):
        if held:
            route.continue_()
        else:
            held.append((route, route.fetch()))

    page.route(f"**/api/sessions/{session['id']}", hold_the_first)
    with page.expect_request(f"**/api/sessions/{session['id']}"):
        page.get_by_test_id("home").click()  # the table reads the evening: answered now, delivered later
    while not held:  # the handler fetches the answer when Playwright next runs its loop, not before
        page.wait_for_timeout(10)
    post_hands(api, session, discard("Dan", "Amy", 2))  # reaches the page by its stream meanwhile
    expect_totals(page, ["-140", "+160", "-160", "+140"])
    route, answered = held[0]
    assert answered.json()["revision"] == 2  # the evening as it was before the hand
    with page.expect_response(f"**/api/sessions/{session['id']}"):
        route.fulfill(response=answered)
    page.evaluate("new Promise((done) => setTimeout(done, 200))")  # time for the table to have drawn it
    expect_totals(page, ["-140", "+160", "-160", "+140"])


def test_the_share_view_offers_the_write_and_the_read_only_link_with_their_qr_codes(new_phone, api):
    session = created_with_read_token(api)
    page = new_phone().new_page()
    page.goto(f"{session['link']}&r={session['read_token']}")
    expect(page.get_by_test_id("board")).to_be_visible()
    page.get_by_test_id("nav-share").click()
    expect(page.get_by_test_id("qr-image")).to_be_visible()
    expect(page.get_by_test_id("share-read-qr-image")).to_be_visible()
    origin = page.evaluate("location.origin")
    expect(page.get_by_test_id("share-link")).to_have_value(
        f"{origin}/#s={session['id']}&t={session['token']}&r={session['read_token']}")
    expect(page.get_by_test_id("share-read-link")).to_have_value(
        f"{origin}/#s={session['id']}&t={session['read_token']}")
    screenshot(page, "many-phones-share-en", full_page=True)


def test_new_links_retire_the_old_ones_and_an_old_phone_is_told_to_ask_for_the_new_link(new_phone, api):
    session = created_with_read_token(api)
    first, second = new_phone().new_page(), new_phone().new_page()
    open_on(first, session)
    open_on(second, session)
    first.get_by_test_id("nav-share").click()
    first.get_by_test_id("new-links").click()
    first.get_by_test_id("confirm-yes").click()
    expect(first.get_by_test_id("toast")).to_have_text("New links made: share them again.")
    new_link = first.get_by_test_id("share-link").input_value()
    assert session["token"] not in new_link
    assert api.get(f"/api/sessions/{session['id']}", headers=auth(session)).status == 401
    # The phone holding the new token keeps working; the old phone is told what to do.
    first.get_by_test_id("go-table").click()
    quick_win(first, "Ben", "Cat", 3)
    expect_totals(first, ["0", "+160", "-160", "0"])
    # ... at once, by itself (its live stream was refused), with no totals left to look current (issue 29).
    expect(second.get_by_test_id("link-replaced")).to_contain_text(
        "This link has been replaced by a new one: ask the table for the new link.")
    expect(second.get_by_test_id("total-0")).to_have_count(0)


def test_a_closed_evening_refuses_changes_and_says_why(new_phone, api, tmp_path):
    session = new_evening(api)
    first, second = new_phone().new_page(), phone_in(new_phone, "zh")
    open_on(first, session)
    open_on(second, session)
    first.get_by_test_id("nav-settle").click()
    first.get_by_test_id("end-evening").click()
    first.get_by_test_id("confirm-yes").click()
    expect(first.get_by_test_id("closed-note")).to_contain_text("Evening ended at")
    expect(first.get_by_test_id("reopen-evening")).to_be_visible()
    state = api_get(api, session)["state"]
    assert state["closed"] is True
    # Its sheet says it is final, at the time it was closed on the phone's clock.
    with first.expect_download() as download:
        first.get_by_test_id("download-pdf").click()
    download.value.save_as(tmp_path / "sheet.pdf")
    text = subprocess.run(["pdftotext", "-layout", str(tmp_path / "sheet.pdf"), "-"], capture_output=True,
                          text=True, check=True).stdout
    closed_at = datetime.datetime.fromisoformat(state["closed_at"].replace("Z", "+00:00"))
    zone = ZoneInfo(first.evaluate("Intl.DateTimeFormat().resolvedOptions().timeZone"))
    assert f"Final: closed {closed_at.astimezone(zone):%H:%M}" in text
    # The other phone learns it live, with the reason in Chinese, and offers no 胡 meanwhile (issue 29 item 5).
    expect(second.get_by_test_id("closed-note")).to_contain_text("牌局已於", timeout=LIVE_MS)
    expect(second.get_by_test_id("btn-win")).to_be_disabled()
    assert api_get(api, session, "/hands") == []
    # Reopened, the hand goes through.
    first.get_by_test_id("reopen-evening").click()
    expect(first.get_by_test_id("end-evening")).to_be_visible()
    quick_win(second, "Ben", "Cat", 3)
    expect_totals(second, ["0", "+160", "-160", "0"])


def test_a_scoring_phone_follows_the_evening_with_its_read_token_never_its_write_token(new_phone, api):
    # Issue 27, item 7: the stream's token travels in its query string, which proxies' access logs keep.
    session = created_with_read_token(api)
    page = new_phone().new_page()
    streams = []
    page.on("request", lambda request: streams.append(request.url) if "/events?" in request.url else None)
    page.goto(f"{session['link']}&r={session['read_token']}")
    expect(page.get_by_test_id("board")).to_be_visible()
    post_hands(api, session, discard("Ben", "Cat", 3))  # Cat pays 100 + 20 × 3 = 160, and the stream shows it
    expect(page.get_by_test_id("total-1")).to_have_text("+160", timeout=LIVE_MS)
    assert streams and all(f"token={session['read_token']}" in url for url in streams), streams
    assert not any(session["token"] in url for url in streams)
