"""Issue 32 in Chromium: the page opens from the service worker's copy with no round trip (the server down, or
asked for nothing), a new release is offered rather than mixed in, and Record paints the totals from its answer.
"""

from playwright.sync_api import expect

from tests.e2e.conftest import LiveServer, phones_of
from tests.e2e.steps import (begin_win, expect_totals, screenshot, start_evening, switch_language, to_table,
                             wait_until_kept)

#: The names of the page's caches and what they hold.
CACHES = """async () => {
  const names = (await caches.keys()).filter((name) => name.startsWith('taizhang-page'));
  const kept = [];
  for (const name of names) kept.push(...(await (await caches.open(name)).keys()).map((r) => new URL(r.url)));
  return {names, paths: kept.map((url) => url.pathname + url.search)};
}"""
def own_files(request) -> bool:
    path = request.url.split("/", 3)[3]
    return path.startswith("app/") or path.split("?")[0].split("#")[0] == ""


def test_reopening_needs_no_server_and_a_new_release_is_offered_then_taken_whole(browser, tmp_path, monkeypatch):
    server = LiveServer(tmp_path)
    try:
        with phones_of(browser) as open_phone:  # a JavaScript error on the page fails the test at the block's end
            context = open_phone(server.url, keeps_its_page=True)
            page = context.new_page()
            page.goto("/")
            expect(page.locator("h1")).to_have_text("New evening")
            wait_until_kept(page)
            first = page.evaluate(CACHES)

            # Reopened with the server up: the worker answers the page and every asset from its copy.
            asked = []
            keep = lambda request: asked.append(request)  # noqa: E731 (Playwright wraps the callable it is given)
            context.on("requestfinished", keep)
            page.reload()
            expect(page.get_by_test_id("start-form")).to_be_visible()
            page.wait_for_load_state("networkidle")
            context.remove_listener("requestfinished", keep)
            mine = [request for request in asked if own_files(request)]
            assert mine and all(request.response().from_service_worker
                                for request in mine if not request.service_worker)
            assert [request.url for request in mine if request.service_worker] == []  # the worker fetched nothing

            # Reopened with the server gone: the same, from the copy.
            server.stop()
            page.reload()
            expect(page.get_by_test_id("start-form")).to_be_visible()
            expect(page.get_by_test_id("update-offer")).to_have_count(0)

            # A new release: the old copy still opens the page, the new one installs beside it and is offered.
            monkeypatch.setenv("TAIZHANG_PAGE_RELEASE", "next")
            server = LiveServer(tmp_path, port=server.port)
            page.reload()
            offer = page.get_by_test_id("update-offer")
            expect(offer).to_contain_text("A new version of Taizhang is ready.")
            expect(page.get_by_test_id("start-form")).to_be_visible()
            screenshot(page, "32-update-offer-en")
            for short, ready, name in (("繁", "台帳有新版本了。", "zh-Hant"),
                                       ("简", "台帳有新版本了。", "zh-Hans")):
                switch_language(page, short)
                expect(offer).to_contain_text(ready)
                screenshot(page, f"32-update-offer-{name}")
            expect(page.get_by_test_id("update-reload")).to_have_text("重新加载新版本")
            switch_language(page, "EN")
            expect(page.get_by_test_id("update-reload")).to_have_text("Reload for the new version")

            # The tap reloads into the new release whole: its own HTML and addresses, the old copy gone.
            with page.expect_navigation():
                page.get_by_test_id("update-reload").click()
            expect(page.get_by_test_id("start-form")).to_be_visible()
            expect(page.get_by_test_id("update-offer")).to_have_count(0)
            wait_until_kept(page)
            second = page.evaluate(CACHES)
            assert len(first["names"]) == len(second["names"]) == 1 and first["names"] != second["names"]
            release = page.evaluate("document.querySelector('script[type=importmap]').textContent")
            assert page.evaluate("fetch('/app/assets.json').then((r) => r.json()).then((a) => a.version)") in \
                second["names"][0]
            assert all(path in release for path in second["paths"] if "?v=" in path)
    finally:
        server.stop()


def test_record_paints_the_totals_from_its_answer_without_reading_the_evening_again(new_phone):
    page = new_phone(keeps_its_page=True).new_page()
    page.goto("/")
    session = start_evening(page)
    to_table(page)
    # Amy deals; Ben wins 3 台 on Cat's discard: Cat pays 100 + 20 × 3 = 160.
    begin_win(page, "Ben", "Cat")
    page.get_by_test_id("quick-0").fill("3")
    expect(page.get_by_test_id("win-preview")).to_contain_text("160")
    asked = []
    page.on("request", lambda request: asked.append(f"{request.method} {request.url.split('?')[0]}"))
    page.get_by_test_id("win-submit").click()
    expect_totals(page, ["0", "+160", "-160", "0"])
    evening = f"/api/sessions/{session['id']}"
    sent = [line.split(" ", 1)[0] + " " + line.split(evening, 1)[1] for line in asked if evening in line]
    assert [line for line in sent if line != "GET /events"] == ["POST /hands"], asked
    # The copy kept for offline use is the evening after the hand too.
    page.reload()
    expect_totals(page, ["0", "+160", "-160", "0"])


def test_a_share_link_asks_for_its_evening_once_in_the_pages_language_before_the_page_has_run(new_phone, api):
    created = api.post("/api/sessions", data={"name": "周五", "ruleset": "taiwan", "players": ["甲", "乙", "丙", "丁"],
                                              "stakes": {"base": 100, "per_tai": 20}, "options": {}})
    assert created.status == 201, created.text()
    session = created.json()
    page = new_phone(locale="zh-CN", keeps_its_page=True).new_page()
    asked = []
    page.on("request", lambda request: asked.append(request))
    page.goto(f"/#s={session['id']}&t={session['token']}")
    expect(page.get_by_test_id("board")).to_be_visible()
    expect(page.locator("#title")).to_have_text("周五")
    reads = [request for request in asked if request.url.endswith(f"/api/sessions/{session['id']}")]
    # One read, the head's (first_read.js): the page took its answer rather than asking again.
    assert len(reads) == 1 and reads[0].method == "GET"
    assert reads[0].headers["accept-language"] == "zh-Hans" and reads[0].headers["x-client"] == "phone page"
    # Nothing else of the page was asked for before the board: the modules, style and words came in the HTML.
    before = [request.url for request in asked[:asked.index(reads[0])]]
    assert [url for url in before if "/app/" in url] == []
    screenshot(page, "32-share-link-table-zh-Hans")
