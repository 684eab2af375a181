"""The phone page at a table's Wi-Fi (issue 32): four rows, each against a floor measured in the same run.

Chromium (Debian's, driven by Playwright) at 390 px, with the network of a busy table's Wi-Fi
(``Network.emulateNetworkConditions``: 1.6 Mbps down, 750 kbps up, 150 ms round trip) and a 4× slower CPU
(``Emulation.setCPUThrottlingRate``), against gunicorn as ``make serve`` runs it (``tests/system/server.py``):

1. cold load of ``/`` (a new phone: no cache, no service worker) until the start form is there;
2. cold load of an evening's table (40 hands, opened by its share link) until the totals are there;
3. reopening ``/`` with the service worker in control, until the start form is there;
4. tap Record on a quick win until the new totals show.

The floor of each row is the least the network allows for it, measured by the same browser, throttled the
same way, against the same server (the benchmark's app is ``create_app()`` plus ``/floor/<name>``):

- rows 1 and 2: the same bytes the page received before it was usable (its HTML, styles, scripts, words and
  API answers, read back from the server) as one HTML file, sent as the page's HTML is (``revalidated``,
  compressed by the same Flask-Compress), until its last element is parsed;
- row 3: that file of row 1 opened again from the browser's cache (a revalidation: one round trip);
- row 4: the same ``POST …/hands`` (same body, same headers) from a bare page whose click handler sends it and
  writes the answer's totals into the page: one round trip.

A time is taken in the page (``performance.now()``, polled every frame, the same way on both sides): from the
navigation's start, or from the click. Each row runs A, B, A, B, … (ours, the floor) ``--rounds`` times (5);
printed: the median and the spread (min–max) of each side, the ratio of the medians, and for ours the
requests and bytes (compressed, on the wire) before the row's end. Targets: every ratio ≤ 1.2.

    .venv/bin/python benchmarks/page_load.py [--rounds 5] [--workers 2]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.api.sessions.tables import DRAW, discard, self_draw, session_body  # noqa: E402
from tests.system.server import WORKERS, ProductionServer  # noqa: E402

# The whole browser, as a phone runs it (`apt-get install chromium`), not the headless shell of the suite.
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
PHONE = {"width": 390, "height": 844}
NETWORK = {"offline": False, "latency": 150, "downloadThroughput": 1.6e6 / 8, "uploadThroughput": 750e3 / 8}
CPU_SLOWDOWN = 4
TARGET = 1.2
EVENING_HANDS = 40
TIMEOUT_MS = 120_000
#: "There": each returns performance.now() once the row's end is on screen.
START_FORM = "() => document.querySelector('[data-testid=start-submit]') && performance.now()"
TABLE = "() => document.querySelector('[data-testid=total-0]') && performance.now()"
FLOOR_END = "() => document.getElementById('end') && performance.now()"
#: What the page received before `at` (ms since the navigation began): [address, bytes on the wire].
RECEIVED = """(at) => [performance.getEntriesByType('navigation')[0],
  ...performance.getEntriesByType('resource').filter((e) => e.responseEnd <= at)]
  .map((e) => [e.name, e.encodedBodySize])"""
#: The time of a click on the element `selector` (capture phase), and the end: `selector`'s text changed.
CLICK_CLOCK = """(selector) => document.addEventListener('click', (event) => {
  if (event.target.closest(selector)) window.clicked = performance.now(); }, true)"""
CHANGED = """([selector, before]) => { const shown = document.querySelector(selector);
  return shown && window.clicked !== undefined && shown.textContent !== before && performance.now() - window.clicked; }"""
TAP_HTML = ('<!doctype html><meta charset="utf-8"><meta name="viewport" content="width=device-width">'
            '<title>floor</title><button id="record" type="button">Record</button><p id="totals">-</p>'
            '<script src="/floor/tap.js"></script>')
#: The floor of a tap: the same request the page's outbox sends (api.js), its totals written into the page.
TAP_JS = """const [id, token] = location.hash.slice(1).split('.');
document.getElementById('record').addEventListener('click', async () => {
  const key = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
  const response = await fetch(`/api/sessions/${id}/hands`, {method: 'POST', cache: 'no-store', headers: {
    Accept: 'application/json', 'Accept-Language': 'en', 'X-Client': 'phone page', Authorization: `Bearer ${token}`,
    'Content-Type': 'application/json', 'Idempotency-Key': key}, body: JSON.stringify(BODY)});
  const answer = await response.json();
  // Its number too: an answer without totals (before issue 32) still shows that it came.
  document.getElementById('totals').textContent = JSON.stringify([answer.number, answer.totals]);
});"""
QUICK_WIN = {"winners": [{"player": "Ben", "tai": 1}], "by": "discard", "discarder": "Cat"}


def floor_app():
    """The app as served, plus ``/floor/<name>``: files of ``PAGE_FLOOR_DIR`` sent as the page's HTML is."""
    from api import create_app
    from api.page.routes import revalidated

    app = create_app()
    folder = Path(os.environ["PAGE_FLOOR_DIR"])
    types = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8"}

    @app.get("/floor/<name>")
    def floor(name: str):
        return revalidated((folder / name).read_bytes(), types[Path(name).suffix])

    return app


def throttled(browser):
    """A phone-sized context and page, on the table's Wi-Fi with a 4× slower CPU."""
    context = browser.new_context(viewport=PHONE, locale="en-US")
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", NETWORK)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    return context, page


def arrived(page, there: str) -> float:
    return page.wait_for_function(there, polling="raf", timeout=TIMEOUT_MS).json_value()


def cold(browser, url: str, there: str) -> tuple[float, list]:
    """ms from the navigation's start until ``there``, and what the page received by then."""
    context, page = throttled(browser)
    try:
        page.goto(url, wait_until="commit")
        ms = arrived(page, there)
        return ms, page.evaluate(RECEIVED, ms)
    finally:
        context.close()


WORKER_KEEPS = """() => navigator.serviceWorker.controller !== null && window.keptRelease === true"""
KEPT_PROBE = """caches.keys().then((names) => names.filter((n) => n.startsWith('taizhang-page')))
  .then(async (names) => { window.keptRelease = names.length === 1
    && (await (await caches.open(names[0])).keys()).some((r) => r.url.includes('/app/words/')); })"""


def reopened_page(browser, url: str) -> float:
    """Row 3, ours: the page opened, its release kept by the worker, then opened again."""
    context, page = throttled(browser)
    try:
        page.goto(url, wait_until="commit")
        arrived(page, START_FORM)
        for _ in range(600):
            page.evaluate(KEPT_PROBE)
            if page.evaluate(WORKER_KEEPS):
                break
            page.wait_for_timeout(100)
        else:
            raise RuntimeError("the service worker never kept the page")
        page.reload(wait_until="commit")
        return arrived(page, START_FORM)
    finally:
        context.close()


def reopened_floor(browser, url: str) -> float:
    """Row 3, the floor: the one file opened, then opened again (a revalidation of the browser's copy)."""
    context, page = throttled(browser)
    try:
        page.goto(url, wait_until="commit")
        arrived(page, FLOOR_END)
        page.reload(wait_until="commit")
        return arrived(page, FLOOR_END)
    finally:
        context.close()


def floor_file(server: ProductionServer, received: list, headers: dict) -> bytes:
    """One HTML file carrying the bytes of ``received`` (each read back from the server, decoded), its last
    element ``#end``."""
    bodies = []
    for address, _ in received:
        request = urllib.request.Request(address, headers={"Accept-Language": "en", **headers})
        with urllib.request.urlopen(request, timeout=30) as response:
            bodies.append(response.read().decode("utf-8", errors="replace"))
    text = "\n".join(bodies).replace("</script", "<\\/script")
    return (f'<!doctype html><meta charset="utf-8"><title>floor</title><script type="text/plain">{text}</script>'
            '<p id="end">end</p>').encode()


def tap(page, submit: str, totals: str, before: str) -> float:
    """ms from a click on ``submit`` until ``totals`` shows another text than ``before``."""
    page.evaluate("() => { delete window.clicked; }")
    page.locator(submit).click()
    return page.wait_for_function(CHANGED, arg=[totals, before], polling="raf", timeout=TIMEOUT_MS).json_value()


def taps_on_the_page(browser, base: str, session: dict):
    """Row 4, ours: one phone on the evening's table; each call records Ben's 1 台 on Cat's discard."""
    context, page = throttled(browser)
    page.goto(f"{base}/#s={session['id']}&t={session['token']}", wait_until="commit")
    arrived(page, TABLE)
    page.evaluate(CLICK_CLOCK, "[data-testid=win-submit]")

    def one() -> float:
        before = page.get_by_test_id("total-1").inner_text()
        page.get_by_test_id("btn-win").click()
        page.get_by_test_id("pick-winner").locator('[data-value="Ben"]').click()
        page.get_by_test_id("pick-discarder").locator('[data-value="Cat"]').click()
        page.get_by_test_id("quick-0").fill("1")
        page.get_by_test_id("win-preview").get_by_text("Cat").first.wait_for(timeout=TIMEOUT_MS)
        ms = tap(page, "[data-testid=win-submit]", "[data-testid=total-1]", before)
        page.get_by_test_id("board").wait_for(timeout=TIMEOUT_MS)
        return ms

    return context, one


def taps_on_the_floor(browser, base: str, session: dict):
    """Row 4, the floor: the bare page that sends the same request."""
    context, page = throttled(browser)
    page.goto(f"{base}/floor/tap.html#{session['id']}.{session['token']}")
    page.evaluate(CLICK_CLOCK, "#record")
    return context, lambda: tap(page, "#record", "#totals", page.locator("#totals").inner_text())


def new_evening(server: ProductionServer, hands: int) -> dict:
    status, created = server.call("POST", "/api/sessions", session_body())
    assert status == 201, created
    bodies = [discard("Ben", "Cat", 1), self_draw("Amy", 2), DRAW, discard("Dan", "Amy", 3)]
    for index in range(hands):
        status, answer = server.call("POST", f"/api/sessions/{created['id']}/hands", bodies[index % len(bodies)],
                                     {"Authorization": f"Bearer {created['token']}"})
        assert status == 201, answer
    return created


def row(name: str, ours: list[float], floor: list[float], note: str = "") -> None:
    a, b = statistics.median(ours), statistics.median(floor)
    verdict = "meets" if a / b <= TARGET else "misses"
    print(f"| {name} | {a:.0f} ms ({min(ours):.0f}–{max(ours):.0f}){note} | {b:.0f} ms ({min(floor):.0f}–{max(floor):.0f}) "
          f"| {a / b:.2f} ({verdict} ≤ {TARGET}) |", flush=True)


def on_the_wire(received: list) -> str:
    return f"; {len(received)} requests, {sum(size for _, size in received) / 1024:.0f} KB"


def main(argv=None) -> None:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--workers", type=int, default=WORKERS, help="gunicorn processes")
    parser.add_argument("--rows", default="1,2,3,4", help="which rows, e.g. 4 (numbered as in the docstring)")
    args = parser.parse_args(argv)
    rows = {int(number) for number in args.rows.split(",")}
    with tempfile.TemporaryDirectory() as directory, sync_playwright() as playwright:
        folder = Path(directory)
        (folder / "tap.html").write_text(TAP_HTML, encoding="utf-8")
        (folder / "tap.js").write_text(f"const BODY = {json.dumps(QUICK_WIN)};\n{TAP_JS}", encoding="utf-8")
        server = ProductionServer(f"sqlite:///{folder / 'bench.sqlite'}", folder / "gunicorn.log",
                                  app="benchmarks.page_load:floor_app()", workers=args.workers,
                                  env={"PAGE_FLOOR_DIR": str(folder)}).start()
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            base = f"http://127.0.0.1:{server.port}"
            evening = new_evening(server, EVENING_HANDS)
            print(f"gunicorn {args.workers} gevent workers; Chromium {browser.version}; {args.rounds} rounds, "
                  f"interleaved; 1.6 Mbps down, 750 kbps up, 150 ms RTT, CPU ×{CPU_SLOWDOWN}; 390 px\n")
            print("| | Taizhang: median (min–max) | floor: median (min–max) | ratio |\n|---|---|---|---|")

            _, start_bytes = cold(browser, f"{base}/", START_FORM)  # warm-up, and the floor's bytes (rows 1, 3)
            (folder / "start.html").write_bytes(floor_file(server, start_bytes, {}))
            if 1 in rows:
                row_one(browser, base, args.rounds)
            if 2 in rows:
                row_two(browser, server, folder, base, evening, args.rounds)
            if 3 in rows:
                row_three(browser, base, args.rounds)
            if 4 in rows:
                row_four(browser, server, base, args.rounds)
        finally:
            browser.close()
            server.stop()


def row_one(browser, base: str, rounds: int) -> None:
    ours, floor = [], []
    for _ in range(rounds):
        ms, received = cold(browser, f"{base}/", START_FORM)
        ours.append(ms)
        floor.append(cold(browser, f"{base}/floor/start.html", FLOOR_END)[0])
    row("cold load of `/` until the start form is usable", ours, floor, on_the_wire(received))


def row_two(browser, server: ProductionServer, folder: Path, base: str, evening: dict, rounds: int) -> None:
    table_url = f"{base}/#s={evening['id']}&t={evening['token']}"
    _, table_bytes = cold(browser, table_url, TABLE)  # warm-up, and the floor's bytes (the live stream left out)
    table_bytes = [(address, size) for address, size in table_bytes if "/events" not in address]
    (folder / "table.html").write_bytes(floor_file(server, table_bytes,
                                                   {"Authorization": f"Bearer {evening['token']}"}))
    ours, floor = [], []
    for _ in range(rounds):
        ms, received = cold(browser, table_url, TABLE)
        ours.append(ms)
        floor.append(cold(browser, f"{base}/floor/table.html", FLOOR_END)[0])
    row(f"cold load of an evening's table ({EVENING_HANDS} hands)", ours, floor, on_the_wire(received))


def row_three(browser, base: str, rounds: int) -> None:
    ours, floor = [], []
    for _ in range(rounds):
        ours.append(reopened_page(browser, f"{base}/"))
        floor.append(reopened_floor(browser, f"{base}/floor/start.html"))
    row("reopening the page (service worker in control)", ours, floor)


def row_four(browser, server: ProductionServer, base: str, rounds: int) -> None:
    # An evening each: the floor's hands on the page's evening would make the page's next one stale (412).
    page_context, ours_tap = taps_on_the_page(browser, base, new_evening(server, 0))
    floor_context, floor_tap = taps_on_the_floor(browser, base, new_evening(server, 0))
    ours_tap(), floor_tap()  # warm-up
    ours, floor = [], []
    for _ in range(rounds):
        ours.append(ours_tap())
        floor.append(floor_tap())
    page_context.close()
    floor_context.close()
    row("tap Record on a quick win until the new totals show", ours, floor)


if __name__ == "__main__":
    main()
