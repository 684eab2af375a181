"""The page as one release: every asset's address carries its content's hash, so no phone mixes versions.

Why (issue 32): assets sent with ``Cache-Control: no-cache`` cost a round trip each on every load, ~40 of them at
150 ms. Now an asset's address is ``/app/<path>?v=<hash of its bytes>``: served with a year's ``max-age`` and
``immutable``, the browser never asks for it again, and a new release is new addresses, never a stale copy. The
HTML (``/``) and the service worker's script stay revalidated: they name the release.

There is no build step. The modules import each other by their plain paths (``'./api.js'``); the page's HTML
carries an import map that sends each plain path to its versioned address, so a changed module changes its own
address only (not every module that imports it). The same map gives the words tables' addresses (``i18n.js``
reads it). The HTML also asks at once for every module the first view needs (``modulepreload``), so the browser
fetches them side by side instead of three levels deep one after another; the screens are imported when their
route is first shown (``main.js``), and the service worker keeps them all for offline use.

The release's ``version`` is a hash of all of it (files and words, and the ``PAGE_RELEASE`` setting, which a
deployment may set to make phones take the page again, and the browser tests set to stand for a new release):
the service worker's script carries it, so a new release installs a new worker, which keeps the new files
beside the old ones until the person taps "reload" (``tests/e2e/test_page_release.py``).
"""
import base64
import hashlib
import html
import json
import re
from collections import deque
from dataclasses import dataclass
from functools import cache
from pathlib import Path

STATIC = Path(__file__).parent / "static" / "app"
ENTRY = "/app/js/main.js"
#: The screens a page opens on: #start on a new phone, #table with an evening (main.js imports every screen when
#: its route is first shown; these two the HTML asks for at once, beside main.js's own modules).
FIRST_SCREENS = ("/app/js/screens/start.js", "/app/js/screens/table.js")
#: ``import … from '…'`` and ``import '…'`` at the start of a line: the static imports (tests/page/test_imports.py).
STATIC_IMPORT = re.compile(r"""^[ \t]*(?:import|export)\b[\w$*{},\s]+?\bfrom\s*(['"])(.+?)\1"""
                           r"""|^[ \t]*import\s*(['"])(.+?)\3""", re.M)
ASSET_ATTRIBUTE = re.compile(r'((?:src|href)=")(/app/[^"?#]+)(")')
#: Where the HTML asks for the words of the language the phone most likely reads (``page_html``), beside the
#: modules rather than after them: i18n.js asks for them only once every module has run (a round trip later).
WORDS_PRELOAD = "{words_preload}"
#: A year: the longest max-age browsers honour; ``immutable`` spares even the revalidation of a reload.
IMMUTABLE = "public, max-age=31536000, immutable"


@dataclass(frozen=True)
class Release:
    version: str
    addresses: dict[str, str]  # "/app/js/api.js" -> "/app/js/api.js?v=…", words tables included
    index_html: bytes
    import_map_hash: str  # for the Content-Security-Policy: an inline import map is a script to it

    def page_html(self, language: str) -> bytes:
        """The HTML for a phone whose browser prefers ``language``: its words asked for at once."""
        address = html.escape(self.addresses[f"/app/words/{language}.json"])
        return self.index_html.replace(WORDS_PRELOAD.encode(), (
            f'  <link rel="preload" as="fetch" crossorigin="anonymous" href="{address}">\n').encode(), 1)

    def is_current(self, path: str, version: str | None) -> bool:
        """Whether ``path?v=version`` is this release's address of the file (which may then be kept for good)."""
        return version is not None and self.addresses.get(path) == f"{path}?v={version}"


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


@cache
def release(words: tuple[tuple[str, bytes], ...], salt: str) -> Release:
    """The release of the files under ``static/app`` with these words tables (``(lang, bytes)``)."""
    files = {f"/app/{path.relative_to(STATIC).as_posix()}": path.read_bytes()
             for path in sorted(STATIC.rglob("*")) if path.is_file()}
    files.pop("/app/index.html")
    files.pop("/app/sw.js")  # served at /sw.js, revalidated
    files.update((f"/app/words/{lang}.json", table) for lang, table in words)
    addresses = {path: f"{path}?v={digest(data)}" for path, data in files.items()}
    version = digest(json.dumps([addresses, salt], sort_keys=True).encode())
    import_map = json.dumps({"imports": addresses}, sort_keys=True, separators=(",", ":"))
    # The entry first: the browser asks for them in this order, six at a time (HTTP/1.1), and main.js asked for
    # last waited ~0.7 s behind its own imports (benchmarks/page_load.py, its waterfall). Then the rest,
    # nearest first.
    preloads = "".join(f'  <link rel="modulepreload" href="{html.escape(addresses[path])}">\n'
                       for path in first_view_modules(files) if path != ENTRY)
    page = ASSET_ATTRIBUTE.sub(lambda m: m.group(1) + html.escape(addresses.get(m.group(2), m.group(2))) + m.group(3),
                               (STATIC / "index.html").read_text(encoding="utf-8"))
    entry = re.search(r'  <script type="module" src="[^"]+"></script>\n', page).group(0)
    page = page.replace(entry, f'  <script type="importmap">{import_map}</script>\n{entry}{WORDS_PRELOAD}{preloads}', 1)
    import_map_hash = base64.b64encode(hashlib.sha256(import_map.encode()).digest()).decode()
    return Release(version, addresses, page.encode(), import_map_hash)


def first_view_modules(files: dict[str, bytes]) -> list[str]:
    """Every module ``main.js`` and the first screens load (their static imports, and theirs), nearest first."""
    seen, pending = [], deque([ENTRY, *FIRST_SCREENS])
    while pending:
        path = pending.popleft()
        if path in seen or path not in files:
            continue
        seen.append(path)
        source = files[path].decode("utf-8")
        pending.extend(resolved(match.group(2) or match.group(4), path) for match in STATIC_IMPORT.finditer(source))
    return seen


def resolved(path: str, importer: str) -> str:
    """``'../dom.js'`` imported by ``/app/js/parts/form.js`` -> ``/app/js/dom.js``."""
    parts = importer.split("/")[:-1]
    for part in path.split("/"):
        if part == "..":
            parts.pop()
        elif part != ".":
            parts.append(part)
    return "/".join(parts)
