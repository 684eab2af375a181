"""Issue 26: share links that open on another phone, and the page on plain http over the Wi-Fi.

Two servers started as a person starts them, ``taizhang serve`` (``make run``'s
server; ``tests/system/announcing.py``): one listening on the network
(0.0.0.0), one on loopback only. Neither has ``TAIZHANG_PUBLIC_URL``.

- Opened on ``http://127.0.0.1:PORT`` (the computer running the server), the
  Share view's links and QR codes carry the network address the server
  printed, and that link opens the evening on a second phone; with the server
  on loopback only, Share says no address is known and shows no link.
- Opened as a phone on the Wi-Fi does, ``http://taizhang.lan:PORT`` (Chromium's
  ``--host-resolver-rules`` maps the name to 127.0.0.1, so the origin is not
  loopback and not secure): no service worker, no clipboard API, no Web Share,
  yet every view of an evening and a group works, the links carry that origin,
  "Share as a picture" downloads the PNG, Copy falls back to selecting the
  text, a hand entered offline is sent exactly once, and the page says once
  (not again on reload) what only https gives and where the README explains it.
Screenshots: ``tests/artifacts/26-*.png``.
"""
import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, SUITE_RATE_LIMITS, phones_of
from tests.e2e.steps import (api_get, expect_totals, in_one_language, quick_win, record_draw, screenshot,
                             start_evening, switch_language, to_table)
from tests.system.announcing import TAIZHANG, AnnouncingServer

LAN_NAME = "taizhang.lan"
LANGUAGES = {"zh-Hant": "zh-TW", "zh-Hans": "zh-CN", "en": "en-US"}
#: document.execCommand('copy') calls, recorded: on plain http the page copies by selecting the text.
RECORD_COPIES = """
  window.copied = [];
  const execCommand = document.execCommand.bind(document);
  document.execCommand = (command, ...rest) => {
    if (command === 'copy') window.copied.push(document.getSelection().toString() || document.activeElement.value);
    return execCommand(command, ...rest);
  };
"""


def serve(tmp_path_factory, host: str) -> AnnouncingServer:
    data = tmp_path_factory.mktemp(f"serve-{host}")
    return AnnouncingServer([TAIZHANG, "serve", "--host", host, "--port", "0", "--workers", "1", "--data", str(data)],
                            env=SUITE_RATE_LIMITS, cwd=data)


@pytest.fixture(scope="module")
def on_network(tmp_path_factory):
    server = serve(tmp_path_factory, "0.0.0.0")
    yield server
    server.stop()


@pytest.fixture(scope="module")
def on_loopback(tmp_path_factory):
    server = serve(tmp_path_factory, "127.0.0.1")
    yield server
    server.stop()


@pytest.fixture(scope="module")
def lan_browser(playwright_instance):
    """Chromium that resolves taizhang.lan to 127.0.0.1, as a phone resolves the server's name on the Wi-Fi."""
    browser = playwright_instance.chromium.launch(
        executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {LAN_NAME} 127.0.0.1"])
    yield browser
    browser.close()


@pytest.fixture
def phones(lan_browser):
    """``open(base_url, locale)``: a phone-sized context, its service worker as the origin allows (what these tests
    are about); any JavaScript error fails the test."""
    with phones_of(lan_browser) as open_phone:
        yield lambda base_url, locale="en-US": open_phone(base_url, locale, keeps_its_page=True)


def lan_url(server) -> str:
    return f"http://{LAN_NAME}:{server.port}"


def network_url(server) -> str:
    return re.search(r"Phones open: (\S+)", server.terminal).group(1)


# -- links from a loopback origin -------------------------------------------------------------------------------


def test_opened_on_loopback_the_links_carry_the_network_address_and_open_on_another_phone(phones, on_network):
    address = network_url(on_network)
    assert not urlsplit(address).hostname.startswith("127.")
    page = phones(on_network.here).new_page()
    page.goto("/")
    session = start_evening(page)
    assert session["link"].startswith(f"{address}/#s={session['id']}&t=")
    read_link = page.get_by_test_id("share-read-link").input_value()
    assert read_link.startswith(f"{address}/#s={session['id']}&t=") and "&r=" not in read_link
    expect(page.get_by_test_id("qr-image")).to_be_visible()
    screenshot(page, "26-share-loopback-network-en")
    # Another phone opens the link at the network address, as a phone on the Wi-Fi would.
    other = phones(address).new_page()
    other.goto(session["link"])
    expect(other.get_by_test_id("board")).to_be_visible()
    expect(other.locator("#title")).to_have_text("Friday")
    assert "t=" not in other.evaluate("location.hash")  # the token left the address bar


@in_one_language("zh-Hant")
def test_opened_on_loopback_with_no_address_known_share_says_so_and_shows_no_link(phones, on_loopback, lang):
    page = phones(on_loopback.here, LANGUAGES[lang]).new_page()
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    page.get_by_test_id("session-name").fill("Friday")
    for seat, player in enumerate(["Amy", "Ben", "Cat", "Dan"]):
        page.get_by_test_id(f"player-{seat}").fill(player)
    page.get_by_test_id("start-submit").click()
    note = page.get_by_test_id("share-no-address")
    expect(note).to_be_visible()
    expect(note).to_contain_text(on_loopback.here)
    expect(note).to_contain_text("TAIZHANG_PUBLIC_URL")
    expect(page.get_by_test_id("share-link")).to_have_count(0)
    expect(page.get_by_test_id("qr")).to_have_count(0)
    screenshot(page, f"26-share-no-address-{lang}", full_page=True)
    page.get_by_test_id("go-table").click()
    expect(page.get_by_test_id("board")).to_be_visible()


# -- plain http on the Wi-Fi -------------------------------------------------------------------------------------


def test_on_plain_http_the_page_says_once_what_only_https_gives(phones, on_network):
    page = phones(lan_url(on_network)).new_page()
    page.goto("/")
    assert page.evaluate("window.isSecureContext") is False
    assert page.evaluate("'serviceWorker' in navigator") is False
    note = page.get_by_test_id("plain-http")
    expect(note).to_be_visible()
    expect(note).to_contain_text("https")
    # What the phone loses, in a sentence; the README is for whoever runs the server (issue 40, item 9).
    expect(note).to_contain_text("without the Wi-Fi this phone cannot reopen the page, nor add it to the home screen")
    expect(note).not_to_contain_text("README")
    screenshot(page, "26-plain-http-note-en")
    # Said once: the next visit of this address, and a reload, do not repeat it.
    page.reload()
    expect(page.get_by_test_id("start-submit")).to_be_visible()
    expect(page.get_by_test_id("plain-http")).to_have_count(0)


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
def test_the_plain_http_note_speaks_the_pages_language(phones, on_network, lang):
    page = phones(lan_url(on_network), LANGUAGES[lang]).new_page()
    page.goto("/")
    note = page.get_by_test_id("plain-http")
    expect(note).to_contain_text("https")
    expect(note).to_contain_text("主畫面" if lang == "zh-Hant" else "主屏幕")
    expect(note).not_to_contain_text("README")
    screenshot(page, f"26-plain-http-note-{lang}")
    # The note follows the language switch: 简体 says 普通 http, 繁體 一般 http.
    switch_language(page, "繁" if lang == "zh-Hans" else "简")
    expect(note).to_contain_text("一般 http" if lang == "zh-Hans" else "普通 http")


def test_on_a_secure_origin_nothing_is_said(phones, on_network):
    page = phones(on_network.here).new_page()
    page.goto("/")
    expect(page.get_by_test_id("start-submit")).to_be_visible()
    assert page.evaluate("window.isSecureContext") is True
    expect(page.get_by_test_id("plain-http")).to_have_count(0)


def test_on_plain_http_every_view_works_and_hands_are_sent_once(phones, on_network, playwright_instance):
    origin = lan_url(on_network)
    context = phones(origin)
    context.add_init_script(RECORD_COPIES)
    page = context.new_page()
    page.goto("/")
    page.get_by_test_id("plain-http-ok").click()
    expect(page.get_by_test_id("plain-http")).to_have_count(0)
    session = start_evening(page)
    # The links carry the address this phone opened, which the others on the Wi-Fi open too.
    assert session["link"].startswith(f"{origin}/#s={session['id']}&t=")
    expect(page.get_by_test_id("qr-image")).to_be_visible()
    assert page.evaluate("navigator.clipboard === undefined && navigator.share === undefined")
    page.get_by_test_id("copy-link").click()
    expect(page.get_by_test_id("toast")).to_contain_text("Link copied")
    assert page.evaluate("window.copied") == [session["link"]]
    screenshot(page, "26-plain-http-share-en")
    to_table(page)
    # Ben 3 台 on Cat's discard (Amy deals): Cat pays 100 + 3 × 20 = 160.
    quick_win(page, "Ben", "Cat", 3)
    expect_totals(page, ["0", "+160", "-160", "0"])
    record_draw(page)

    # Offline: Dan wins 2 台 on Amy's discard; Ben deals (streak 1 after the draw) but neither wins nor pays,
    # so Amy pays 100 + 2 × 20 = 140. The hand waits on the phone, then is sent once.
    page.context.set_offline(True)
    quick_win(page, "Dan", "Amy", 2)
    expect(page.get_by_test_id("pending-note")).to_be_visible()
    page.context.set_offline(False)
    expect(page.get_by_test_id("pending-note")).to_have_count(0, timeout=15_000)
    expect_totals(page, ["-140", "+160", "-160", "+140"])
    api = playwright_instance.request.new_context(base_url=on_network.here)
    try:
        hands = api_get(api, session, "/hands")
        assert [hand["number"] for hand in hands] == [1, 2, 3]
        assert api_get(api, session)["totals"] == {"Amy": -140, "Ben": 160, "Cat": -160, "Dan": 140}
    finally:
        api.dispose()

    for route, ready in (("history", "hand-list"), ("seat", "pick-seat"), ("draw", "draw-reason"),
                         ("win", "pick-winner"), ("settle", "standings")):
        page.evaluate("(route) => { location.hash = route; }", route)
        expect(page.get_by_test_id(ready).first).to_be_visible()
        expect(page.get_by_test_id("view-error")).to_have_count(0)
        screenshot(page, f"26-plain-http-{route}-en")

    # Settle: the picture is downloaded (no Web Share off https), the summary copied by selection.
    with page.expect_download() as download:
        page.get_by_test_id("share-card").click()
    assert download.value.suggested_filename.endswith(".png")
    expect(page.get_by_test_id("toast")).to_contain_text("Picture downloaded.")
    page.get_by_test_id("copy-text").click()
    expect(page.get_by_test_id("toast")).to_contain_text("Summary copied")
    assert "Dan +140" in page.evaluate("window.copied")[-1]


def test_on_plain_http_a_groups_views_work_and_its_links_carry_the_origin(phones, on_network, playwright_instance):
    origin = lan_url(on_network)
    api = playwright_instance.request.new_context(base_url=on_network.here)
    try:
        response = api.post("/api/groups", data={"name": "Thursday club"})
        assert response.status == 201, response.text()
        group = response.json()
    finally:
        api.dispose()
    page = phones(origin).new_page()
    page.goto(f"/#g={group['id']}&t={group['member_token']}&r={group['read_token']}")
    expect(page.get_by_test_id("group-new-evening")).to_be_visible()  # the group's home, once the link is read
    for route, ready in (("standings", "standings-box"), ("balances", "payment-form"),
                         ("group-share", "group-member-qr-image")):
        page.evaluate("(route) => { location.hash = route; }", route)
        expect(page.get_by_test_id(ready).first).to_be_visible()
        expect(page.get_by_test_id("view-error")).to_have_count(0)
    link = page.get_by_test_id("group-member-link").input_value()
    assert link.startswith(f"{origin}/#g={group['id']}&t={group['member_token']}")
    screenshot(page, "26-plain-http-group-share-en")
