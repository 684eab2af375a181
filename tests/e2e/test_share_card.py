"""Issue 20, where the group already talks: the Settle view shares the evening as a picture or as text,
and the page can be installed to a phone's home screen.

The evening: Taiwanese stakes 底 100 / 台 20 with the dealer extra, Amy deals.
Hand 1: Ben 3 台 on Cat's discard: Cat pays 100 + 20 × 3 = 160.
Hand 2 (Ben deals, streak 0): Dan self-draws 1 台: Amy and Cat pay 100 + 20 = 120, dealer Ben 100 + 20 × 2 = 140.
Totals: Dan +380, Ben +20, Amy -120, Cat -280. The fewest transfers: Cat pays Dan 280, then Amy's 120 goes
100 to Dan and 20 to Ben (no two totals cancel, so three transfers is the fewest).
"""
import base64
import struct
from datetime import datetime
from zoneinfo import ZoneInfo

from playwright.sync_api import expect

from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE
from tests.e2e.test_what_a_table_sees import discard, new_evening, open_on, post_hands, self_draw
from tests.e2e.steps import api_get, auth

#: The card is a phone-shaped picture about 1080 px wide (issue 20); the contract's width.
CARD_WIDTH = 1080
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

#: navigator.share and canShare as a phone with file sharing has them; the shared files are kept for the test.
SHARE_STUB = """
window.__shared = null;
navigator.canShare = (data) => Boolean(data && data.files && data.files.length);
navigator.share = async (data) => {
  const file = data.files[0];
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  window.__shared = {name: file.name, type: file.type, title: data.title, base64: btoa(binary)};
};
"""
#: A phone (or desktop) whose share sheet takes no files.
NO_FILE_SHARING = "navigator.canShare = () => false; navigator.share = async () => { throw new Error('not here'); };"


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from the PNG's IHDR chunk (the first one, right after the signature)."""
    assert data[:8] == PNG_SIGNATURE
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def evening_on_settle(page, api):
    session = new_evening(api, name="Friday")
    post_hands(api, session, discard("Ben", "Cat", 3), self_draw("Dan", 1))
    open_on(page, session)
    page.get_by_test_id("nav-settle").click()
    expect(page.get_by_test_id("standings").locator("tr")).to_have_count(4)
    return session


def phone_with(browser, live_server, script, locale="zh-CN", **options):
    context = browser.new_context(viewport=PHONE, locale=locale, base_url=live_server.url, accept_downloads=True,
                                  **options)
    context.set_default_timeout(10_000)
    context.add_init_script(script)
    return context


def test_share_hands_the_card_to_the_share_sheet_as_a_png_in_the_page_language(browser, live_server, api):
    context = phone_with(browser, live_server, SHARE_STUB)
    try:
        page = context.new_page()
        session = evening_on_settle(page, api)
        expect(page.locator("html")).to_have_attribute("lang", "zh-Hans")
        with page.expect_request("**/card.png*") as asked:
            page.get_by_test_id("share-card").click()
        assert "lang=zh-Hans" in asked.value.url
        page.wait_for_function("() => window.__shared !== null")
        shared = page.evaluate("window.__shared")
        data = base64.b64decode(shared["base64"])
        assert shared["type"] == "image/png" and shared["name"].endswith(".png")
        assert shared["title"] == "Friday"
        assert png_size(data)[0] == CARD_WIDTH
        served = api.get(f"/api/sessions/{session['id']}/card.png?lang=zh-Hans", headers=auth(session))
        assert served.status == 200
        assert data == served.body()  # the very picture of the evening, in 简体中文
    finally:
        context.close()


def test_without_file_sharing_the_card_is_downloaded(browser, live_server, api):
    context = phone_with(browser, live_server, NO_FILE_SHARING, locale="en-US")
    try:
        page = context.new_page()
        evening_on_settle(page, api)
        with page.expect_download() as download:
            page.get_by_test_id("share-card").click()
        assert download.value.suggested_filename.endswith(".png")
        data = open(download.value.path(), "rb").read()
        assert png_size(data)[0] == CARD_WIDTH
        expect(page.get_by_test_id("toast")).to_have_text("Picture downloaded.")
    finally:
        context.close()


def test_copy_as_text_puts_a_chat_message_on_the_clipboard(browser, live_server, api):
    context = phone_with(browser, live_server, "", timezone_id="Asia/Shanghai",
                         permissions=["clipboard-read", "clipboard-write"])
    try:
        page = context.new_page()
        session = evening_on_settle(page, api)
        page.get_by_test_id("copy-text").click()
        expect(page.get_by_test_id("toast")).to_have_text("摘要已复制，可以粘贴到群里了。")
        created = datetime.fromisoformat(api_get(api, session)["created_at"].replace("Z", "+00:00"))
        day = created.astimezone(ZoneInfo("Asia/Shanghai")).date().isoformat()
        assert page.evaluate("navigator.clipboard.readText()") == (
            f"Friday · {day}\n"
            "总分：Dan +380 · Ben +20 · Amy -120 · Cat -280\n"
            "谁付给谁：\n"
            "Cat → Dan 280\n"
            "Amy → Dan 100\n"
            "Amy → Ben 20")
    finally:
        context.close()


def test_chromium_finds_the_page_installable(playwright_instance, live_server, tmp_path):
    """Chromium's own installability check (what makes it offer "Install app"): no errors.

    A browser profile on disk, as a phone's is: Chromium never offers to install from an incognito
    window, and every ordinary test context is one.
    """
    context = playwright_instance.chromium.launch_persistent_context(
        tmp_path / "profile", executable_path=CHROMIUM, args=CHROMIUM_ARGS, viewport=PHONE,
        base_url=live_server.url)
    try:
        page = context.pages[0] if context.pages else context.new_page()
        page.goto("/")
        expect(page.get_by_test_id("session-name")).to_be_visible()
        page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
        cdp = context.new_cdp_session(page)
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    finally:
        context.close()
