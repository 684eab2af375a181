"""Issue 32: the page's assets at addresses that change with their content, kept for good (``immutable``); the
HTML and the service worker's script revalidated; the release named in the worker (api/page/release.py)."""
import base64
import hashlib
import json
import re
from pathlib import Path

import pytest

from api.page import release

sqlite_only = pytest.mark.parametrize("database_kind", ["sqlite"], indirect=True)  # no database involved
STATIC = Path(__file__).resolve().parents[3] / "api" / "page" / "static" / "app"
KEPT_FOR_GOOD = "public, max-age=31536000, immutable"
IMPORT_MAP = re.compile(r'<script type="importmap">(.*?)</script>', re.S)
INLINE_MODULE = re.compile(r'<script type="module" blocking="render">(.*?)</script>', re.S)
CLASSIC_SCRIPT = re.compile(r'<script>(.*?)</script>', re.S)
STYLE = re.compile(r'<style>(.*?)</style>', re.S)


def import_map(client) -> dict[str, str]:
    return json.loads(IMPORT_MAP.search(client.get("/").get_data(as_text=True)).group(1))["imports"]


@sqlite_only
def test_each_address_carries_the_hash_of_its_content_and_is_kept_for_good(client):
    addresses = import_map(client)
    for path in ("/app/js/main.js", "/app/js/screens/evening/win.js", "/app/app.css", "/app/icons/icon-192.png"):
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
def test_the_page_carries_its_modules_and_style_inline_and_its_policy_allows_only_those_scripts(client):
    page = client.get("/")
    html = page.get_data(as_text=True)
    addresses = import_map(client)
    # Every module still has its versioned address (the map names the release); the page fetches none of them.
    assert {path for path in addresses if path.endswith(".js")} == {
        f"/app/{path.relative_to(STATIC).as_posix()}" for path in STATIC.rglob("*.js")} - {"/app/sw.js"}
    assert "modulepreload" not in html and '<script type="module" src=' not in html and "<link rel=\"stylesheet\"" not in html
    modules = INLINE_MODULE.findall(html)
    assert len(modules) == 1
    # In the head: `blocking="render"` holds nowhere else (the words and rule sets it reads follow in the body).
    assert html.index(modules[0]) < html.index("</head>") < html.index('id="page-words"')
    # A screen main.js imports only when its route is first shown is in the bundle too (no file of its own).
    assert "win-submit" in modules[0] and "group-create" in modules[0] and "import(" not in modules[0]
    first_read, = CLASSIC_SCRIPT.findall(html)
    assert "taizhangFirstRead" in first_read and html.index(first_read) < html.index("<style>")
    style, = STYLE.findall(html)
    assert ".topbar" in style
    scripts = [first_read, IMPORT_MAP.search(html).group(1), modules[0]]
    policy = page.headers["Content-Security-Policy"]
    assert f"script-src 'self' {' '.join(policy_hash(text) for text in scripts)};" in policy
    assert f"style-src 'self' {policy_hash(style)};" in policy


def policy_hash(text: str) -> str:
    return f"'sha256-{base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()}'"


@sqlite_only
def test_without_esbuild_the_page_is_its_modules_asked_for_at_once(make_app, monkeypatch):
    monkeypatch.setattr(release, "esbuild", lambda: None)
    client = make_app(PAGE_RELEASE="unbundled").test_client()
    page = client.get("/")
    html = page.get_data(as_text=True)
    addresses = import_map(client)
    preloaded = set(re.findall(r'<link rel="modulepreload" href="([^"]+)">', html))
    for path in ("/app/js/api.js", "/app/js/i18n.js", "/app/js/screens/evening/start.js", "/app/js/screens/evening/table.js"):
        assert addresses[path] in preloaded, path
    assert addresses["/app/js/screens/evening/win.js"] not in preloaded
    assert f'src="{addresses["/app/js/main.js"]}"' in html and f'href="{addresses["/app/app.css"]}"' in html
    assert INLINE_MODULE.findall(html) == [] and CLASSIC_SCRIPT.findall(html) == []
    assert f"script-src 'self' {policy_hash(IMPORT_MAP.search(html).group(1))};" in page.headers["Content-Security-Policy"]
    assert "style-src 'self';" in page.headers["Content-Security-Policy"]
    # The worker keeps every module then, and the style sheet.
    kept = client.get("/app/assets.json").get_json()["assets"]
    assert addresses["/app/js/screens/evening/win.js"] in kept and addresses["/app/app.css"] in kept


@sqlite_only
def test_the_worker_keeps_the_page_its_words_and_icons_and_no_module_it_carries(client):
    addresses = import_map(client)
    kept = client.get("/app/assets.json").get_json()["assets"]
    assert kept == ["/", "/manifest.webmanifest", *sorted(address for path, address in addresses.items()
                                                         if not path.startswith("/app/js/") and path != "/app/app.css")]
    assert addresses["/app/words/zh-Hans.json"] in kept and addresses["/app/icons/icon-192.png"] in kept


@sqlite_only
def test_a_new_release_is_a_new_worker(client, make_app):
    version = client.get("/app/assets.json").get_json()["version"]
    assert f"const VERSION = '{version}';" in client.get("/sw.js").get_data(as_text=True)
    other = make_app(PAGE_RELEASE="next").test_client()
    assert other.get("/app/assets.json").get_json()["version"] != version
    assert f"const VERSION = '{version}';" not in other.get("/sw.js").get_data(as_text=True)


@sqlite_only
def test_the_page_carries_the_words_and_rule_sets_of_the_language_the_browser_prefers(client):
    for accept, language in (("fr-FR, zh-CN;q=0.9, en;q=0.8", "zh-Hans"), ("zh-TW", "zh-Hant"), ("de", "en")):
        page = client.get("/", headers={"Accept-Language": accept})
        assert "Accept-Language" in page.headers["Vary"]
        html = page.get_data(as_text=True)
        words, rulesets = (json.loads(re.search(
            rf'<script type="application/json" id="{name}" data-lang="{language}">(.*?)</script>', html).group(1))
            for name in ("page-words", "page-rulesets"))
        assert words == client.get(f"/app/words/{language}.json").get_json(), accept
        assert rulesets == client.get("/api/rulesets", headers={"Accept-Language": language}).get_json(), accept
        # Worked out by hand: the share button's word, and 台灣 16 張's name in the reader's script.
        assert words["page.share"] == {"zh-Hans": "分享", "zh-Hant": "分享", "en": "Share"}[language]
        taiwan = next(ruleset for ruleset in rulesets if ruleset["id"] == "taiwan")
        assert taiwan["name"].startswith({"zh-Hans": "台湾十六张", "zh-Hant": "台灣十六張", "en": "台灣十六張"}[language])
