"""Bad Wi-Fi: hands entered offline wait in the outbox and are recorded exactly once."""
import json

from playwright.sync_api import expect

from tests.e2e.steps import api_get, expect_totals, quick_win, screenshot, start_evening, to_table


def outbox(page):
    return json.loads(page.evaluate("localStorage.getItem('taizhang.outbox') || '[]'"))


def test_hands_entered_offline_are_sent_in_order_when_back_online(phone, api):
    session = start_evening(phone)
    to_table(phone)
    phone.context.set_offline(True)
    quick_win(phone, "Ben", "Cat", 3)
    expect(phone.get_by_test_id("toast")).to_contain_text("Saved on this phone")
    expect(phone.get_by_test_id("pending-note")).to_contain_text("1 hand(s) waiting")
    # Ben now deals; Dan wins 2 台 on Amy's discard: Amy pays 100 + 20 × 2 = 140.
    quick_win(phone, "Dan", "Amy", 2)
    expect(phone.get_by_test_id("pending-note")).to_contain_text("2 hand(s) waiting")
    expect(phone.get_by_test_id("net")).to_have_text("Offline")
    screenshot(phone, "20-offline-pending")
    queued = outbox(phone)
    assert [entry["body"]["winners"][0]["player"] for entry in queued] == ["Ben", "Dan"]
    assert len({entry["key"] for entry in queued}) == 2
    assert api_get(api, session, "/hands") == []

    phone.context.set_offline(False)
    expect(phone.get_by_test_id("pending-note")).to_have_count(0, timeout=15_000)
    expect_totals(phone, ["-140", "+160", "-160", "+140"])
    hands = api_get(api, session, "/hands")
    assert [hand["number"] for hand in hands] == [1, 2]
    assert [hand["payments"] for hand in hands] == [
        {"Amy": 0, "Ben": 160, "Cat": -160, "Dan": 0},
        {"Amy": -140, "Ben": 0, "Cat": 0, "Dan": 140},
    ]
    assert outbox(phone) == []


def test_a_lost_answer_is_retried_with_the_same_key_and_recorded_once(phone, api):
    """The server records the hand but the answer never arrives: the retry must not record it again."""
    session = start_evening(phone)
    to_table(phone)
    keys = []

    def lose_first_answer(route):
        keys.append(route.request.headers.get("idempotency-key"))
        if len(keys) == 1:
            route.fetch()  # reaches the server and is recorded...
            route.abort("connectionreset")  # ...but the phone never hears back
        else:
            route.continue_()

    phone.route("**/api/sessions/*/hands", lose_first_answer)
    quick_win(phone, "Ben", "Cat", 3)
    expect(phone.get_by_test_id("pending-note")).to_be_visible()
    assert len(api_get(api, session, "/hands")) == 1
    phone.get_by_test_id("pending-note").get_by_role("button").click()
    expect(phone.get_by_test_id("pending-note")).to_have_count(0)
    expect_totals(phone, ["0", "+160", "-160", "0"])
    assert len(keys) == 2 and keys[0] == keys[1] and keys[0]
    hands = api_get(api, session, "/hands")
    assert len(hands) == 1
    assert api_get(api, session)["totals"] == {"Amy": 0, "Ben": 160, "Cat": -160, "Dan": 0}


def test_a_refused_waiting_hand_is_kept_and_shown(phone, api):
    """A hand the server refuses after the fact stays on the phone with the reason, until discarded."""
    session = start_evening(phone)
    to_table(phone)
    phone.context.set_offline(True)
    quick_win(phone, "Ben", "Cat", 3)
    expect(phone.get_by_test_id("pending-note")).to_be_visible()
    # While this phone was offline, another phone seated Eve in Cat's place.
    response = api.post(f"/api/sessions/{session['id']}/seats", data={"seat": 2, "player": "Eve"},
                        headers={"Authorization": f"Bearer {session['token']}"})
    assert response.status == 201, response.text()
    phone.context.set_offline(False)
    # Entered against the table before the seat change, it first meets it (412): the phone says what changed,
    # and sent again on top of it, the server refuses it (Cat has left): kept, with the reason.
    dialog = phone.get_by_test_id("conflict-dialog")
    expect(dialog.get_by_test_id("conflict-since")).to_have_text("Eve took Cat's seat on another phone.")
    dialog.get_by_test_id("conflict-keep").click()
    expect(phone.get_by_test_id("pending-note")).to_contain_text("refused", timeout=15_000)
    phone.get_by_test_id("nav-history").click()
    pending = phone.get_by_test_id("pending-hand")
    expect(pending).to_contain_text("Cat")
    expect(pending).to_contain_text("not seated")
    screenshot(phone, "21-refused-pending")
    assert api_get(api, session, "/hands") == []
    pending.get_by_test_id("pending-edit").click()
    phone.get_by_test_id("change-chosen").click()
    phone.get_by_test_id("pick-discarder").locator('[data-value="Eve"]').click()
    expect(phone.get_by_test_id("quick-0")).to_have_value("3")
    phone.get_by_test_id("win-submit").click()
    # Eve now pays Ben's 3 台: 100 + 20 × 3 = 160.
    expect_totals(phone, ["0", "+160", "-160", "0"])
    expect(phone.get_by_test_id("seat-2")).to_contain_text("Eve")
    [hand] = api_get(api, session, "/hands")
    assert hand["body"] == {"winners": [{"player": "Ben", "tai": 3}], "by": "discard", "discarder": "Eve"}
    assert outbox(phone) == []


def test_a_waiting_hand_can_be_discarded_before_it_is_sent(phone, api):
    session = start_evening(phone)
    to_table(phone)
    phone.context.set_offline(True)
    quick_win(phone, "Ben", "Cat", 3)
    phone.get_by_test_id("nav-history").click()
    pending = phone.get_by_test_id("pending-hand")
    expect(pending).to_contain_text("Ben 3台")
    pending.get_by_role("button", name="Discard").click()
    phone.get_by_test_id("confirm-yes").click()
    expect(phone.get_by_test_id("pending-hand")).to_have_count(0)
    assert outbox(phone) == []
    phone.context.set_offline(False)
    phone.get_by_role("button", name="Back to the table").click()
    expect_totals(phone, ["0", "0", "0", "0"])
    assert api_get(api, session, "/hands") == []


def test_history_answering_late_never_covers_the_table_gone_back_to(phone, api):
    """Back online, History reads the evening again; if the person has gone back to
    the table before that answer arrives, the table stays on screen."""
    start_evening(phone)
    to_table(phone)
    quick_win(phone, "Ben", "Cat", 3)
    phone.get_by_test_id("nav-history").click()
    expect(phone.get_by_test_id("hand-list")).to_be_visible()
    phone.context.set_offline(True)
    held = []
    phone.route("**/api/sessions/*/audit", lambda route: held.append(route))  # History's second read waits here
    with phone.expect_request("**/api/sessions/*/audit"):
        phone.context.set_offline(False)
    phone.get_by_role("button", name="Back to the table").click()
    expect_totals(phone, ["0", "+160", "-160", "0"])
    assert len(held) == 1
    with phone.expect_response("**/api/sessions/*/audit"):
        held[0].continue_()
    phone.evaluate("new Promise((done) => setTimeout(done, 200))")  # time for History to have drawn
    expect_totals(phone, ["0", "+160", "-160", "0"])
    expect(phone.get_by_role("heading", name="History")).to_have_count(0)


def test_a_void_answered_after_the_person_left_history_leaves_them_where_they_went(phone):
    """The void's answer arrives after the person has gone back to the table (a slow Wi-Fi): its toast shows
    there, and History is not drawn over the table (CI saw an organiser pulled back to History this way)."""
    start_evening(phone)
    to_table(phone)
    quick_win(phone, "Ben", "Cat", 3)
    phone.get_by_test_id("nav-history").click()
    held = []

    def hold(route):
        if route.request.method == "DELETE":
            held.append((route, route.fetch()))  # the hand is voided now, its answer delivered later
        else:
            route.continue_()

    phone.route("**/api/sessions/*/hands/1", hold)
    phone.get_by_test_id("void-last").click()
    while not held:
        phone.wait_for_timeout(10)
    phone.get_by_role("button", name="Back to the table").click()
    expect_totals(phone, ["0", "0", "0", "0"])  # the stream brought the void to the table
    route, answered = held[0]
    route.fulfill(response=answered)
    expect(phone.get_by_test_id("toast")).to_contain_text("Hand 1 voided")
    phone.evaluate("new Promise((done) => setTimeout(done, 200))")  # time for History to have been drawn
    expect(phone.get_by_role("heading", name="History")).to_have_count(0)
    expect(phone.get_by_test_id("board")).to_be_visible()
