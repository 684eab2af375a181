"""The Wi-Fi is gone and the phone reopens the page: the service worker's copy opens it, the
saved session shows, a new hand waits in the outbox and is recorded once the server answers again."""
import json
import urllib.request

from playwright.sync_api import expect

from tests.e2e.conftest import LiveServer, phones_of
from tests.e2e.steps import expect_totals, quick_win, screenshot, start_evening, to_table, wait_until_kept


def server_hands(server, session):
    request = urllib.request.Request(f"{server.url}/api/sessions/{session['id']}/hands",
                                     headers={"Authorization": f"Bearer {session['token']}"})
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.load(response)


def test_the_page_reopens_without_the_server_and_sends_later(browser, tmp_path):
    server = LiveServer(tmp_path)
    try:
        with phones_of(browser) as open_phone:  # a JavaScript error on the page fails the test at the block's end
            context = open_phone(server.url, keeps_its_page=True)
            page = context.new_page()
            page.goto("/")
            session = start_evening(page)
            to_table(page)
            quick_win(page, "Ben", "Cat", 3)
            expect_totals(page, ["0", "+160", "-160", "0"])
            wait_until_kept(page)
            server.stop()

            page.reload()
            expect(page.get_by_test_id("offline-note")).to_be_visible()
            expect_totals(page, ["0", "+160", "-160", "0"])
            # Ben deals; Dan wins 2 台 on Amy's discard: Amy pays 100 + 20 × 2 = 140.
            quick_win(page, "Dan", "Amy", 2)
            expect(page.get_by_test_id("pending-note")).to_contain_text("1 hand(s) waiting")
            screenshot(page, "22-reopened-without-server")

            server = LiveServer(tmp_path, port=server.port)
            expect(page.get_by_test_id("pending-note")).to_have_count(0, timeout=20_000)
            expect_totals(page, ["-140", "+160", "-160", "+140"])
            hands = server_hands(server, session)
            assert [hand["payments"]["Dan"] for hand in hands] == [0, 140]
    finally:
        server.stop()
