"""The share link opens the same session on a second phone; the write token never reaches a URL or a log."""
from urllib.parse import parse_qs

from playwright.sync_api import expect

from tests.e2e.steps import PLAYERS, api_get, expect_totals, quick_win, screenshot, start_evening, to_table


def test_share_link_opens_the_session_on_a_second_phone(new_phone, live_server, api):
    first = new_phone().new_page()
    urls = []
    first.on("request", lambda request: urls.append(request.url))
    first.goto("/")
    session = start_evening(first)
    qr = first.get_by_test_id("qr-image")
    expect(qr).to_be_visible()
    assert first.evaluate("document.querySelector('[data-testid=qr-image]').naturalWidth") > 0
    to_table(first)
    quick_win(first, "Ben", "Cat", 3)
    expect_totals(first, ["0", "+160", "-160", "0"])

    second = new_phone().new_page()
    second.on("request", lambda request: urls.append(request.url))
    second.goto(session["link"])
    for seat, player in enumerate(PLAYERS):
        expect(second.get_by_test_id(f"seat-{seat}")).to_contain_text(player)
    expect_totals(second, ["0", "+160", "-160", "0"])
    assert second.evaluate("location.hash") == "#table"
    screenshot(second, "30-second-phone")

    # Ben deals now; Cat self-draws 1 台 on the second phone: Amy and Dan pay 100 + 20 = 120,
    # Ben pays 100 + 20 × (1 + 1) = 140.
    quick_win(second, "Cat", None, 1)
    expect_totals(second, ["-120", "+20", "+220", "-120"])
    # The first phone comes back to the page (its tab was in the background): it shows the new hand.
    first.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect_totals(first, ["-120", "+20", "+220", "-120"])
    assert len(api_get(api, session, "/hands")) == 2

    token, read_token = session["token"], parse_qs(session["link"].split("#", 1)[1])["r"][0]
    # The write token travels in the URL fragment only: the live-update stream, whose token is in its query
    # string (EventSource cannot send headers, API.md), opens with the read-only one (issue 27, item 7).
    assert not [url for url in urls if token in url]
    streams = [url for url in urls if "/events?" in url]
    assert streams and all(f"/api/sessions/{session['id']}/events?token={read_token}" in url for url in streams)
    assert token not in live_server.log()


def test_qr_code_is_drawn_only_from_a_posted_link(api):
    drawn = api.post("/app/qr.svg", data={"link": "http://127.0.0.1/#s=abc&t=secret"})
    assert drawn.status == 200
    assert drawn.headers["content-type"] == "image/svg+xml"
    assert drawn.body().lstrip().startswith(b"<svg")
    other = api.post("/app/qr.svg", data={"link": "http://127.0.0.1/#s=abc&t=other"})
    assert other.body() != drawn.body()
    refused = api.post("/app/qr.svg", data={"link": "javascript:alert(1)"})
    assert refused.status == 422
    assert refused.json()["field"] == "link"
    too_long = api.post("/app/qr.svg", data={"link": "http://x/" + "a" * 1000})
    assert too_long.status == 422
    assert api.get("/app/qr.svg?link=http://x/").status in (404, 405)  # never drawn from a query string
