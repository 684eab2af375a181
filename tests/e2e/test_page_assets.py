"""Without a browser: ``/`` and every asset it references are served, with the right content types."""
import json
import re
from urllib.parse import urljoin

from pathlib import Path

import pytest

from api import create_app
from api.http import db
from words import LANGUAGES

STATIC = Path(__file__).resolve().parents[2] / "api" / "page" / "static" / "app"

CONTENT_TYPES = {".js": ("text/javascript", "application/javascript"), ".css": ("text/css",),
                 ".svg": ("image/svg+xml",), ".html": ("text/html",), ".png": ("image/png",),
                 ".webmanifest": ("application/manifest+json",), ".json": ("application/json",)}
MANIFEST = "/manifest.webmanifest"  # served from the root, outside /app/
WORDS = {f"/app/words/{lang}.json" for lang in LANGUAGES}  # the page's words, from words/ (i18n.js fetches them)
#: The top bar's link to the guide is a page of its own (tests/e2e/test_guide.py), not an asset of the page.
HTML_REFERENCES = re.compile(r'(?:src|href)="(/(?!guide)[^"#]*)"')
JS_IMPORTS = re.compile(r"""(?:import|export)\s[^;]*?from\s+'([^']+)'|import\s*\(?\s*'([^']+)'""")


@pytest.fixture
def client(tmp_path):
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'taizhang.sqlite'}"})
    yield app.test_client()
    db.dispose(app)


def content_type(response) -> str:
    return response.headers["Content-Type"].split(";")[0].strip()


def expected_types(path: str) -> tuple:
    return CONTENT_TYPES[path[path.rindex("."):]]


def referenced_assets(client) -> dict[str, bytes]:
    """Every file reachable from / through src/href, JavaScript module imports (the screens' dynamic ones too) and
    the manifest's icons, by its path (an address's ``?v=`` left out)."""
    page = client.get("/").get_data(as_text=True)
    # The import map names every file of the release: the modules the page carries bundled, the style sheet, the words.
    named = json.loads(re.search(r'<script type="importmap">(.*?)</script>', page).group(1))["imports"].values()
    pending = [*HTML_REFERENCES.findall(page), *named]
    seen = {}
    while pending:
        address = pending.pop()
        path = address.split("?")[0]
        if path in seen:
            continue
        response = client.get(address)
        assert response.status_code == 200, path
        assert content_type(response) in expected_types(path), (path, response.headers["Content-Type"])
        seen[path] = response.get_data()
        if path.endswith(".js"):
            text = seen[path].decode("utf-8")
            pending += [urljoin(path, a or b) for a, b in JS_IMPORTS.findall(text)]
        if path.endswith(".webmanifest"):
            pending += [icon["src"] for icon in json.loads(seen[path])["icons"]]
    return seen


def test_the_page_is_served_with_a_strict_content_security_policy(client):
    response = client.get("/")
    assert response.status_code == 200
    assert content_type(response) == "text/html"
    policy = response.headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy
    assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy
    assert response.headers["Referrer-Policy"] == "no-referrer"


def test_every_referenced_asset_is_served(client):
    assets = referenced_assets(client)
    shipped = {f"/app/{path.relative_to(STATIC).as_posix()}" for path in STATIC.rglob("*.*")}
    # Every shipped file is used (index.html is served at /, sw.js at /sw.js), and every used file is shipped; so are
    # the words of every language.
    assert set(assets) == shipped - {"/app/index.html", "/app/sw.js"} | {MANIFEST} | WORDS
    # Nothing is loaded from another host: no CDN, no web font service.
    for path, body in assets.items():
        assert not re.search(rb"""(?:src|href|from|url\()\s*=?\s*["'(]?\s*(?:https?:)?//""", body), path


def test_a_missing_asset_is_404(client):
    assert client.get("/app/js/nothing-here.js").status_code == 404


def test_the_service_worker_may_keep_the_whole_page(client):
    worker = client.get("/sw.js")
    assert worker.status_code == 200
    assert content_type(worker) in CONTENT_TYPES[".js"]
    assert worker.headers["Service-Worker-Allowed"] == "/"
    listed = client.get("/app/assets.json").get_json()["assets"]
    shipped = {f"/app/{path.relative_to(STATIC).as_posix()}" for path in STATIC.rglob("*.*")}
    # The whole release, each file at its versioned address (index.html is / and sw.js the worker itself), but for
    # the modules and the style sheet, which the page carries in its HTML (bundled by esbuild).
    carried = {path for path in shipped if path.startswith("/app/js/")} | {"/app/app.css"}
    assert {address.split("?")[0] for address in listed} == shipped - {"/app/index.html", "/app/sw.js"} - carried | {
        "/", MANIFEST} | WORDS
    for address in listed:
        assert client.get(address).status_code == 200, address
