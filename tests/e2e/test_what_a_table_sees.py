"""Issue 17, what a table sees: every payment explained and previewed, quick undo, and the page's defects.

Evenings are started through the API and opened on the phone by their share
link, as a second phone would. Taiwanese stakes 底 100 / 台 20 with the dealer
extra on (RULES.md §6): a payer pays 100 + 20 × (台 + dealer extra), the extra
1 + 2n on payments with the dealer (n = the dealer's streak). Amy deals first;
seats Amy, Ben, Cat, Dan unless a test says otherwise. Screenshots (390 px wide,
both languages) go to tests/artifacts/.
"""
import csv
import io
import re
import subprocess

from playwright.sync_api import expect

from tests.e2e.steps import (PLAYERS, api_get, auth, begin_win, choose, quick_win, screenshot, switch_language,
                             tap_tiles)

TAIWAN = {"base": 100, "per_tai": 20}


def new_evening(api, players=PLAYERS, ruleset="taiwan", stakes=None, options=None, name="Friday"):
    """Start an evening through the API: {"id", "token", "link"}."""
    body = {"name": name, "ruleset": ruleset, "players": list(players),
            "stakes": stakes or ({"base": 10} if ruleset == "shanghai" else TAIWAN), "options": options or {}}
    response = api.post("/api/sessions", data=body)
    assert response.status == 201, response.text()
    created = response.json()
    return {"id": created["id"], "token": created["token"], "link": f"/#s={created['id']}&t={created['token']}"}


def post_hands(api, session, *bodies):
    for body in bodies:
        response = api.post(f"/api/sessions/{session['id']}/hands", data=body, headers=auth(session))
        assert response.status == 201, response.text()


def discard(winner, discarder, tai):
    return {"winners": [{"player": winner, "tai": tai}], "by": "discard", "discarder": discarder}


def self_draw(winner, tai):
    return {"winners": [{"player": winner, "tai": tai}], "by": "self_draw"}


def open_on(page, session):
    page.goto(session["link"])
    expect(page.get_by_test_id("board")).to_be_visible()


def phone_in(new_phone, language):
    """A phone whose page speaks `language` (en or zh)."""
    return new_phone(locale="zh-TW" if language == "zh" else "en-US").new_page()


def covered(page, testid):
    """Whether something else (a toast) lies over the middle of the control `testid`."""
    return page.evaluate("""(testid) => {
        const control = document.querySelector(`[data-testid="${testid}"]`);
        const box = control.getBoundingClientRect();
        const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        return !(top === control || control.contains(top));
    }""", testid)


# -- 1. Why money moved ---------------------------------------------------------------------------------------


def test_history_explains_every_payment_in_both_languages(new_phone, api):
    session = new_evening(api)
    # 1. Ben wins 3 台 on Cat's discard; dealer Amy is not part of it: 100 + 20 × 3 = 160. Ben deals next.
    # 2. Dealer Ben (streak 0) self-draws 2 台: each pays 100 + 20 × (2 + 1) = 160, the dealer extra 1 台.
    post_hands(api, session, discard("Ben", "Cat", 3), self_draw("Ben", 2))
    for language in ("en", "zh"):
        page = phone_in(new_phone, language)
        open_on(page, session)
        page.get_by_test_id("nav-history").click()
        first, second = page.get_by_test_id("hand-1-lines"), page.get_by_test_id("hand-2-lines")
        if language == "en":
            expect(first.locator("li")).to_have_count(1)
            expect(first).to_contain_text("Cat pays Ben160")
            expect(first).to_contain_text("discarded · base 100 · 3 台 × 20 = 60")
            expect(second.locator("li")).to_have_count(3)
            expect(second.locator("li").first).to_contain_text("Amy pays Ben160")
            expect(second.locator("li").first).to_contain_text(
                "self-draw · base 100 · 2 台 × 20 = 40 · dealer extra, Ben on streak 0: 1 + 2×0 = 1 台 × 20 = 20")
        else:
            expect(first).to_contain_text("Cat 付 Ben160")
            expect(first).to_contain_text("放槍 · 底 100 · 3 台 × 20 = 60")
            expect(second.locator("li").first).to_contain_text("莊家台：Ben 連0，1 + 2×0 = 1 台 × 20 = 20")
        screenshot(page, f"17-history-explained-{language}", full_page=True)


def test_history_says_why_a_shanghai_player_pays_without_discarding(phone, api):
    session = new_evening(api, ruleset="shanghai")
    # Unrelated Amy, ready (聽牌), discards to Dan (3 points), who has a 三口 relation with Ben:
    # Amy and Ben pay one share each, 3 × 10 = 30 (RULES.md §7).
    post_hands(api, session, {"winners": [{"player": "Dan", "points": 3}], "by": "discard", "discarder": "Amy",
                              "three_mouth": [["Dan", "Ben"]], "discarder_ready": True})
    open_on(phone, session)
    phone.get_by_test_id("nav-history").click()
    lines = phone.get_by_test_id("hand-1-lines").locator("li")
    expect(lines).to_have_count(2)
    expect(lines.nth(1)).to_contain_text("Ben pays Dan30")
    expect(lines.nth(1)).to_contain_text(
        "三口 with Dan: Amy discarded while ready, so Ben pays a share without discarding")
    expect(lines.nth(1)).to_contain_text("3 points × 底分 10 = 30")


# -- 2. Preview before Record -----------------------------------------------------------------------------------


def test_the_win_form_shows_the_money_before_record(new_phone, api):
    for language in ("en", "zh"):
        session = new_evening(api)
        page = phone_in(new_phone, language)
        open_on(page, session)
        begin_win(page, "Amy", "Cat")
        page.get_by_test_id("quick-0").fill("2")
        preview = page.get_by_test_id("win-preview")
        # Dealer Amy (streak 0) wins 2 台 on Cat's discard: 100 + 20 × (2 + 1) = 160.
        expect(preview.get_by_test_id("preview-payments")).to_have_text(
            re.compile(r"Amy \+160\s*Ben 0\s*Cat -160\s*Dan 0"))
        if language == "en":
            expect(preview.get_by_test_id("quick-tai-hint")).to_contain_text("without the dealer's 莊家台")
            expect(preview.get_by_test_id("preview-lines")).to_contain_text(
                "dealer extra, Amy on streak 0: 1 + 2×0 = 1 台 × 20 = 20")
        else:
            expect(preview.get_by_test_id("quick-tai-hint")).to_contain_text("不含莊家台")
            expect(preview.get_by_test_id("preview-lines")).to_contain_text("莊家台：Amy 連0")
        preview.scroll_into_view_if_needed()
        screenshot(page, f"17-win-preview-{language}")
        assert api_get(api, session, "/hands") == []
        page.get_by_test_id("win-submit").click()
        expect(page.get_by_test_id("total-0")).to_have_text("+160")


def test_the_money_preview_follows_a_language_switch_with_the_form_open(new_phone, api):
    page = phone_in(new_phone, "en")
    open_on(page, new_evening(api))
    begin_win(page, "Amy", "Cat")
    page.get_by_test_id("quick-0").fill("2")
    lines = page.get_by_test_id("win-preview").get_by_test_id("preview-lines")
    expect(lines).to_contain_text("dealer extra, Amy on streak 0: 1 + 2×0 = 1 台 × 20 = 20")
    switch_language(page, "繁")
    expect(page.get_by_test_id("quick-0")).to_have_value("2")  # the form is kept...
    expect(lines).to_contain_text("莊家台：Amy 連0")  # ...and its preview is drawn again in 繁
    expect(lines).not_to_contain_text("dealer extra")


# -- 3. Preview a void or correction -------------------------------------------------------------------------------


def test_a_void_shows_which_later_hands_change_before_confirming(new_phone, api):
    for language in ("en", "zh"):
        session = new_evening(api)
        # As tests/api/sessions/test_preview.py: voiding hand 1 gives hand 2 to dealer Amy and moves the totals.
        post_hands(api, session, discard("Ben", "Cat", 3), self_draw("Ben", 2), discard("Cat", "Dan", 1))
        page = phone_in(new_phone, language)
        open_on(page, session)
        page.get_by_test_id("nav-history").click()
        page.get_by_test_id("hand-1").locator(".hand-head").click()
        page.get_by_test_id("hand-void").click()
        dialog = page.get_by_test_id("confirm-dialog")
        change = dialog.get_by_test_id("change-2")
        expect(change).to_contain_text("dealer Ben → Amy" if language == "en" else "莊 Ben → Amy")
        expect(change).to_contain_text("Ben +440")
        expect(dialog.get_by_test_id("change-3")).to_contain_text(
            "streak 1 → 0" if language == "en" else "連莊 1 → 0")
        expect(dialog.get_by_test_id("change-totals")).to_contain_text("Ben +440 (-200)")
        screenshot(page, f"17-void-preview-{language}")
        page.get_by_test_id("confirm-no").click()
        assert not api_get(api, session, "/hands/1")["void"]


def test_a_correction_is_previewed_toasted_as_corrected_and_marked(phone, api):
    session = new_evening(api)
    post_hands(api, session, discard("Ben", "Cat", 3))
    open_on(phone, session)
    phone.get_by_test_id("nav-history").click()
    phone.get_by_test_id("hand-1").locator(".hand-head").click()
    phone.get_by_test_id("hand-correct").click()
    phone.get_by_test_id("quick-0").fill("4")
    phone.get_by_test_id("win-submit").click()
    # 4 台: Cat pays 100 + 20 × 4 = 180 instead of 160.
    expect(phone.get_by_test_id("confirm-dialog").get_by_test_id("change-1")).to_contain_text("3 → 4 台")
    phone.get_by_test_id("confirm-yes").click()
    expect(phone.get_by_test_id("toast")).to_contain_text("Hand 1 corrected: Ben +180, Cat -180")
    expect(phone.get_by_test_id("hand-1").get_by_test_id("corrected")).to_have_text(
        re.compile(r"^corrected \d\d:\d\d$"))


# -- 4. Quick undo -------------------------------------------------------------------------------------------


def test_the_toast_undoes_a_hand_just_recorded_and_history_voids_the_last_in_one_tap(phone, api):
    session = new_evening(api)
    open_on(phone, session)
    quick_win(phone, "Ben", "Cat", 3)
    toast = phone.get_by_test_id("toast")
    expect(toast).to_contain_text("Hand 1 recorded")
    screenshot(phone, "17-undo-toast")
    toast.get_by_test_id("toast-action").click()
    expect(toast).to_contain_text("Hand 1 undone")
    expect(phone.get_by_test_id("total-1")).to_have_text("0")
    assert api_get(api, session, "/hands/1")["void"]
    assert [(a["number"], a["action"], a["who"]) for a in api_get(api, session, "/audit")] == [
        (1, "void", "phone page")]

    quick_win(phone, "Dan", "Amy", 1)
    phone.get_by_test_id("nav-history").click()
    expect(phone.get_by_test_id("void-last")).to_have_count(1)
    phone.get_by_test_id("hand-2").get_by_test_id("void-last").click()
    expect(phone.get_by_test_id("toast")).to_contain_text("Hand 2 voided")
    assert api_get(api, session, "/hands/2")["void"]
    phone.get_by_test_id("toast-action").click()
    expect(phone.get_by_test_id("toast")).to_contain_text("Hand 2 restored")
    assert not api_get(api, session, "/hands/2")["void"]


# -- 5. … 17. Defects -------------------------------------------------------------------------------------------


def test_5_rounding_belongs_to_the_evening_it_was_set_for(phone, api):
    first = new_evening(api, name="First")
    second = new_evening(api, name="Second")
    # Each: Ben 3 台 on Cat's discard, 160; rounded to 100, Ben +200 / Cat -200 (largest remainder).
    post_hands(api, first, discard("Ben", "Cat", 3))
    post_hands(api, second, discard("Ben", "Cat", 3))
    open_on(phone, first)
    phone.get_by_test_id("nav-settle").click()
    phone.get_by_test_id("round-to").fill("100")
    phone.get_by_test_id("round-apply").click()
    expect(phone.get_by_test_id("rounding")).to_be_visible()
    open_on(phone, second)
    phone.get_by_test_id("nav-settle").click()
    expect(phone.get_by_test_id("standings")).to_contain_text("+160")
    expect(phone.get_by_test_id("round-to")).to_have_value("")
    expect(phone.get_by_test_id("rounding")).to_have_count(0)
    with phone.expect_request(re.compile(r"/report\.pdf")) as pdf:
        phone.get_by_test_id("download-pdf").click()
    assert "round_to" not in pdf.value.url
    open_on(phone, first)
    phone.get_by_test_id("nav-settle").click()
    expect(phone.get_by_test_id("round-to")).to_have_value("100")
    expect(phone.get_by_test_id("download-pdf")).to_contain_text("rounded to 100")


def test_6_no_toast_covers_a_control(phone, api):
    session = new_evening(api)
    open_on(phone, session)
    quick_win(phone, "Ben", "Cat", 3)
    expect(phone.get_by_test_id("total-1")).to_have_text("+160")  # the table is drawn again
    expect(phone.get_by_test_id("toast")).to_be_visible()
    for testid in ("btn-win", "btn-draw"):
        assert not covered(phone, testid), testid
    begin_win(phone, "Cat", "Dan")
    choose(phone, "entry-mode", "full")
    expect(phone.get_by_test_id("picker")).to_be_visible()
    expect(phone.get_by_test_id("toast")).to_be_visible()
    for testid in ("win-submit", "win-cancel"):
        assert not covered(phone, testid), testid


def test_7_csv_cells_never_run_as_formulas(phone, api, tmp_path):
    players = ['=HYPERLINK("http://x","y")', "+Ben", "-Cat", "@Dan"]
    session = new_evening(api, players=players)
    post_hands(api, session, discard("+Ben", "-Cat", 3))
    open_on(phone, session)
    phone.get_by_test_id("nav-settle").click()
    with phone.expect_download() as download:
        phone.get_by_test_id("download-csv").click()
    path = tmp_path / "hands.csv"
    download.value.save_as(path)
    rows = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8-sig"))))
    assert [row["player"] for row in rows] == ["'" + name for name in players]
    assert [row["payment"] for row in rows] == ["0", "160", "-160", "0"]


def test_8_the_tile_picker_never_takes_a_seventeenth_concealed_tile(phone, api):
    session = new_evening(api)
    open_on(phone, session)
    begin_win(phone, "Ben", "Cat")
    choose(phone, "entry-mode", "full")
    target = phone.get_by_test_id("picker-target")
    # A pung first: the picker goes back to single tiles after it.
    choose(phone, "picker-target", "meld")
    tap_tiles(phone, "9p")
    expect(phone.get_by_test_id("meld-0")).to_be_visible()
    expect(target.locator('[data-value="hand"]')).to_have_attribute("aria-pressed", "true")
    # 13 concealed tiles complete the hand (16 - 3): the picker moves to the winning tile by itself.
    tap_tiles(phone, "123m456m789m234s5s")
    expect(phone.get_by_test_id("tile-count")).to_have_text("Tiles in hand: 13 / 13")
    expect(target.locator('[data-value="winning"]')).to_have_attribute("aria-pressed", "true")
    tap_tiles(phone, "5s")
    expect(phone.get_by_test_id("winning-tile")).to_have_attribute("data-tile", "5s")
    # The hand is full: one more tile is the winning tile, never a 14th concealed tile.
    tap_tiles(phone, "6s")
    expect(phone.get_by_test_id("tile-count")).to_have_text("Tiles in hand: 13 / 13")
    expect(phone.get_by_test_id("winning-tile")).to_have_attribute("data-tile", "6s")


def test_9_every_error_is_in_the_page_language_names_its_field_and_shows_at_once(new_phone, api):
    page = phone_in(new_phone, "zh")
    page.goto("/")
    form = page.get_by_test_id("start-form")
    for seat, player in enumerate(["Amy", "Amy", "", "Dan"]):
        page.get_by_test_id(f"player-{seat}").fill(player)
    page.get_by_test_id("stake-base").fill("0")
    page.get_by_test_id("start-submit").click()
    expect(form.locator('[data-error-for="players.1"]')).to_have_text("「Amy」重複了。")
    expect(form.locator('[data-error-for="players.2"]')).to_have_text("請輸入玩家 3 的名字。")
    expect(form.locator('[data-error-for="stakes.base"]')).to_have_text("「底」請輸入 1 以上的整數。")
    screenshot(page, "17-start-errors-zh")
    # A tile-entered hand without its winning tile is named in words, in 中文.
    session = new_evening(api)
    open_on(page, session)
    begin_win(page, "Ben", "Cat")
    choose(page, "entry-mode", "full")
    tap_tiles(page, "123m456m789m678p234s5s")  # 16 tiles, no winning tile yet
    page.get_by_test_id("win-submit").click()
    expect(page.locator('[data-error-for="winners.0.hand"]')).to_have_text("請點胡的牌（或選特殊）。")
    # A refusal from the server names the field in words, without the server's English.
    page.get_by_test_id("win-cancel").click()
    page.get_by_test_id("nav-seat").click()
    page.get_by_test_id("seat-player").fill("Amy")
    choose(page, "pick-seat", "1")
    page.get_by_test_id("seat-submit").click()
    error = page.locator('[data-error-for]:not([hidden])').first
    expect(error).to_contain_text("不被接受")
    assert not re.search(r"[A-Za-z]{4,}", error.inner_text().replace("Amy", ""))
    # The rounding note on Settle.
    post_hands(api, session, discard("Ben", "Cat", 3))
    page.get_by_test_id("home").click()
    page.get_by_test_id("nav-settle").click()
    page.get_by_test_id("round-to").fill("100")
    page.get_by_test_id("round-apply").click()
    expect(page.get_by_test_id("rounding")).to_have_text("取整到 100 的倍數，各人調整：Ben +40, Cat -40。")


def test_10_the_table_and_history_use_the_hand_number(phone, api):
    session = new_evening(api)
    post_hands(api, session, discard("Ben", "Cat", 3), discard("Cat", "Dan", 1))
    assert api.delete(f"/api/sessions/{session['id']}/hands/1", headers=auth(session)).status == 200
    open_on(phone, session)
    # Hands 1 and 2 are recorded (1 voided): the next one is hand 3, as History and the API number it.
    expect(phone.locator(".centre .hand-no")).to_have_text("Hand 3")
    expect(phone.get_by_test_id("winds")).not_to_contain_text("Hand")
    quick_win(phone, "Dan", "Amy", 1)
    expect(phone.locator(".centre .hand-no")).to_have_text("Hand 4")  # once the phone has its answer
    assert [hand["number"] for hand in api_get(api, session, "/hands")] == [1, 2, 3]


def test_11_the_voided_badge_and_the_restore_button_are_readable(new_phone, api):
    session = new_evening(api)
    post_hands(api, session, discard("Ben", "Cat", 3))
    assert api.delete(f"/api/sessions/{session['id']}/hands/1", headers=auth(session)).status == 200
    for language in ("en", "zh"):
        page = phone_in(new_phone, language)
        open_on(page, session)
        page.get_by_test_id("nav-history").click()
        badge = page.locator(".void-badge")
        expect(badge).to_have_text("Voided" if language == "en" else "已作廢")
        assert badge.evaluate("(b) => b.scrollWidth <= b.clientWidth && b.scrollHeight <= b.clientHeight + 1")
        page.get_by_test_id("hand-1").locator(".hand-head").click()
        restore = page.get_by_test_id("hand-restore")
        expect(restore).to_have_text("Restore" if language == "en" else "恢復計算")
        # Nothing around it fades it out: it must not look disabled.
        assert restore.evaluate("""(button) => {
            let opacity = 1;
            for (let node = button; node; node = node.parentElement) opacity *= Number(getComputedStyle(node).opacity);
            return opacity;
        }""") == 1
        expect(restore).to_be_enabled()
        screenshot(page, f"17-voided-{language}")


def test_12_a_phone_that_joins_by_link_shows_the_evening_name(phone, api):
    session = new_evening(api, name="Friday at Amy's")
    phone.goto(session["link"])
    expect(phone.locator("#title")).to_have_text("Friday at Amy's")


def test_13_the_pdf_from_the_page_speaks_its_language_and_keeps_long_names_and_emoji(phone, api, tmp_path):
    players = ["Amy😀", "Ben☺", "Maximiliana", "Dan"]
    session = new_evening(api, players=players)
    # Ben☺ wins 3 台 on Maximiliana's discard; dealer Amy😀 is not part of it: 100 + 20 × 3 = 160.
    post_hands(api, session, discard("Ben☺", "Maximiliana", 3))
    open_on(phone, session)
    phone.get_by_test_id("nav-settle").click()
    with phone.expect_download() as download:
        phone.get_by_test_id("download-pdf").click()
    path = tmp_path / "sheet.pdf"
    download.value.save_as(path)
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True,
                          check=True).stdout
    assert "dealer extra 莊家台: 1 + 2n; several winners on one discard (一炮多響): off; cap on 台: none" in text
    assert "Maximiliana pays Ben☺ 160: discarded · base 100 · 3 台 × 20 = 60" in text
    assert "dealer_bonus" not in text and "(taiwan)" not in text
    assert re.search(r"\bMaximiliana\s+Dan\s*$", text, re.M)  # its column heading, whole
    fonts = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True).stdout
    assert "DejaVuSans" in fonts  # 😀 and ☺ are drawn from the fallback font


def test_14_seat_cards_fit_long_names_on_two_lines_and_show_all_on_tap(phone, api):
    players = ["Maximiliana Longname", "Ben", "Cat", "Bartholomew"]
    session = new_evening(api, players=players)
    open_on(phone, session)
    name = phone.get_by_test_id("seat-0").locator(".seat-name")
    expect(name).to_have_text("Maximiliana Longname")
    fits = "(n) => n.scrollWidth <= n.clientWidth && n.scrollHeight <= n.clientHeight + 1"
    lines = "(n) => Math.round(n.getBoundingClientRect().height / parseFloat(getComputedStyle(n).lineHeight))"
    rows = """(n) => { const range = document.createRange(); range.selectNodeContents(n);
                       return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size; }"""
    assert phone.get_by_test_id("seat-3").locator(".seat-name").evaluate(rows) == 1  # "Bartholomew", unbroken
    name.click()
    assert name.evaluate(fits)
    assert name.evaluate(lines) >= 2
    screenshot(phone, "17-long-names")


def test_15_tap_targets_are_at_least_44_px(phone, api):
    session = new_evening(api)
    open_on(phone, session)
    small = []

    def check(locator, label):
        for index in range(locator.count()):
            box = locator.nth(index).bounding_box()
            if box["width"] < 44 or box["height"] < 44:
                small.append((label, index, round(box["width"]), round(box["height"])))

    check(phone.get_by_test_id("lang"), "language switch")
    check(phone.get_by_test_id("home"), "home link")
    begin_win(phone, "Ben", "Cat")
    choose(phone, "entry-mode", "full")
    tabs = phone.get_by_test_id("palette-suit").locator("button")
    check(tabs, "palette tabs")
    for index in range(tabs.count()):  # the palette shows one suit at a time
        tabs.nth(index).click()
        check(phone.get_by_test_id("palette").locator(".palette-row .tile"), f"palette tab {index}")
    if not tabs.count():
        check(phone.get_by_test_id("palette").locator(".palette-row .tile"), "palette")
    choose(phone, "picker-target", "meld")
    tap_tiles(phone, "9p")
    check(phone.get_by_test_id("meld-0").locator("button"), "meld ✕")
    screenshot(phone, "17-palette")
    phone.get_by_test_id("win-cancel").click()
    phone.get_by_test_id("nav-start").click()
    check(phone.get_by_test_id("known-sessions").locator("button"), "continue an evening")
    assert small == []


def test_16_send_now_while_offline_says_so(phone, api):
    session = new_evening(api)
    open_on(phone, session)
    phone.context.set_offline(True)
    quick_win(phone, "Ben", "Cat", 3)
    expect(phone.get_by_test_id("pending-note")).to_contain_text("1 hand(s) waiting")
    phone.get_by_test_id("pending-note").locator("button").click()
    expect(phone.get_by_test_id("toast")).to_contain_text("Still offline")
    phone.context.set_offline(False)


def test_17_payments_are_listed_in_seat_order(phone, api):
    players = ["Zoe", "Amy", "Yan", "Bob"]
    session = new_evening(api, players=players)
    open_on(phone, session)
    # Amy self-draws 1 台 while Zoe deals (streak 0): Yan and Bob pay 100 + 20 = 120, dealer Zoe
    # 100 + 20 × (1 + 1) = 140; Amy +380.
    quick_win(phone, "Amy", None, 1)
    expect(phone.get_by_test_id("toast")).to_contain_text("Hand 1 recorded: Zoe -140, Amy +380, Yan -120, Bob -120")
    phone.get_by_test_id("nav-history").click()
    expect(phone.get_by_test_id("hand-1").get_by_test_id("payments")).to_have_text(
        re.compile(r"Zoe -140\s*Amy \+380\s*Yan -120\s*Bob -120"))
