"""Issue 32: the page's assets at addresses that change with their content, kept for good (``immutable``); the
HTML and the service worker's script revalidated; the release named in the worker (api/page/release.py)."""
import base64
import hashlib
import json
import re
from pathlib import Path

import pytest

sqlite_only = pytest.mark.parametrize("database_kind", ["sqlite"], indirect=True)  # no database involved
STATIC = Path(__file__).resolve().parents[3] / "api" / "page" / "static" / "app"
KEPT_FOR_GOOD = "public, max-age=31536000, immutable"
IMPORT_MAP = re.compile(r'<script type="importmap">(.*?)</script>', re.S)


def import_map(client) -> dict[str, str]:
    return json.loads(IMPORT_MAP.search(client.get("/").get_data(as_text=True)).group(1))["imports"]


@sqlite_only
def test_each_address_carries_the_hash_of_its_content_and_is_kept_for_good(client):
    addresses = import_map(client)
    for path in ("/app/js/main.js", "/app/js/screens/win.js", "/app/app.css", "/app/icons/icon-192.png"):
        content = (STATIC / path.removeprefix("/app/")).read_bytes()
        assert addresses[path] == f"{path}?v={hashlib.sha256(content).hexdigest()[:16]}"
        answer = client.get(addresses[path])
        assert answer.status_code == 200 and answer.data == content
        assert answer.headers["Cache-Control"] == KEPT_FOR_GOOD
    words = client.get("/app/words/en.json").data
    assert addresses["/app/words/en.json"] == f"/app/words/en.json?v={hashlib.sha256(words).hexdigest()[:16]}"
    assert client.get(addresses["/app/words/en.json"]).headers["Cache-Control"] == KEPT_FOR_GOOD


@sqlite_only
def test_an_address_without_the_current_hash_is_answered_but_revalidated(client):
    for address in ("/app/js/main.js", "/app/js/main.js?v=0123456789abcdef", "/app/words/en.json"):
        answer = client.get(address)
        assert answer.status_code == 200, address
        assert answer.headers["Cache-Control"] == "no-cache", address


@sqlite_only
def test_the_html_and_the_worker_are_revalidated_and_answer_304_while_unchanged(client):
    for path in ("/", "/sw.js"):
        first = client.get(path)
        assert first.headers["Cache-Control"] == "no-cache", path
        again = client.get(path, headers={"If-None-Match": first.headers["ETag"]})
        assert again.status_code == 304, path


@sqlite_only
def test_the_page_names_its_release_and_its_policy_allows_only_that_import_map(client):
    page = client.get("/")
    html = page.get_data(as_text=True)
    addresses = import_map(client)
    # Every module by its versioned address; the first view's asked for at once, the other screens not.
    assert {path for path in addresses if path.endswith(".js")} == {
        f"/app/{path.relative_to(STATIC).as_posix()}" for path in STATIC.rglob("*.js")} - {"/app/sw.js"}
    preloaded = set(re.findall(r'<link rel="modulepreload" href="([^"]+)">', html))
    for path in ("/app/js/api.js", "/app/js/i18n.js", "/app/js/screens/start.js", "/app/js/screens/table.js"):
        assert addresses[path] in preloaded, path
    assert addresses["/app/js/screens/win.js"] not in preloaded
    assert f'src="{addresses["/app/js/main.js"]}"' in html and f'href="{addresses["/app/app.css"]}"' in html
    text = IMPORT_MAP.search(html).group(1)
    digest = base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
    assert f"script-src 'self' 'sha256-{digest}'" in page.headers["Content-Security-Policy"]


@sqlite_only
def test_a_new_release_is_a_new_worker(client, make_app):
    version = client.get("/app/assets.json").get_json()["version"]
    assert f"const VERSION = '{version}';" in client.get("/sw.js").get_data(as_text=True)
    other = make_app(PAGE_RELEASE="next").test_client()
    assert other.get("/app/assets.json").get_json()["version"] != version
    assert f"const VERSION = '{version}';" not in other.get("/sw.js").get_data(as_text=True)


@sqlite_only
def test_the_page_asks_at_once_for_the_words_of_the_language_the_browser_prefers(client):
    addresses = import_map(client)
    for accept, language in (("fr-FR, zh-CN;q=0.9, en;q=0.8", "zh-Hans"), ("zh-TW", "zh-Hant"), ("de", "en")):
        page = client.get("/", headers={"Accept-Language": accept})
        assert "Accept-Language" in page.headers["Vary"]
        preloaded = re.findall(r'<link rel="preload" as="fetch" crossorigin="anonymous" href="([^"]+)">',
                               page.get_data(as_text=True))
        assert preloaded == [addresses[f"/app/words/{language}.json"]], accept
