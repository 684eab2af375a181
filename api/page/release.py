"""The page as one release: every asset's address carries its content's hash, so no phone mixes versions.

Assets at ``/app/<path>?v=<hash>`` are cached a year, ``immutable``; a new release is new addresses. On a
cold load the page is one file: esbuild bundles ``main.js`` and all it imports inline in the HTML with
the words and rule sets, as many small files over a table's Wi-Fi take waves of round trips
(``benchmarks/page_load.py``); the bundle is made at the server's start, never kept. Without esbuild the
modules are served as they are, through an import map of versioned addresses. The ``version`` hashes it
all (and ``PAGE_RELEASE``): a new release installs a new service worker beside the old until the person
taps "reload" (``tests/e2e/test_page_release.py``).
"""
import base64
import hashlib
import html
import json
import re
import shutil
import subprocess
from collections import deque
from dataclasses import dataclass
from functools import cache
from pathlib import Path

STATIC = Path(__file__).parent / "static" / "app"
ENTRY = "/app/js/main.js"
#: The screens a page opens on: #start on a new phone, #table with an evening (shell/routes.js imports every screen
#: when its route is first shown; these two the HTML asks for at once, beside main.js's own modules).
FIRST_SCREENS = ("/app/js/screens/evening/start.js", "/app/js/screens/evening/table.js")
#: ``import … from '…'`` and ``import '…'`` at the start of a line: the static imports (tests/page/test_imports.py).
STATIC_IMPORT = re.compile(r"""^[ \t]*(?:import|export)\b[\w$*{},\s]+?\bfrom\s*(['"])(.+?)\1"""
                           r"""|^[ \t]*import\s*(['"])(.+?)\3""", re.M)
ASSET_ATTRIBUTE = re.compile(r'((?:src|href)=")(/app/[^"?#]+)(")')
#: Where the HTML carries the words and the rule sets of the reader's language (``page_html``).
PAGE_DATA = "{page_data}"
#: esbuild as ``make`` installs it (``.cache/esbuild``), else one on the PATH; neither: the page is unbundled.
ESBUILD = Path(__file__).resolve().parents[2] / ".cache" / "esbuild" / "node_modules" / ".bin" / "esbuild"
FIRST_READ = "/app/js/first_read.js"
#: esbuild's minifying: a smaller bundle than the modules (benchmarks/page_load.py).
MINIFY = ["--minify"]
#: A year: the longest max-age browsers honour; ``immutable`` spares even the revalidation of a reload.
IMMUTABLE = "public, max-age=31536000, immutable"


@dataclass(frozen=True)
class Release:
    version: str
    addresses: dict[str, str]  # "/app/js/api.js" -> "/app/js/api.js?v=…", words tables included
    index_html: bytes
    script_hashes: tuple[str, ...]  # for the Content-Security-Policy: every inline script of the HTML
    style_hashes: tuple[str, ...]  # and its inline style sheet (bundled)
    bundled: bool  # the page's modules are in its HTML (esbuild), not fetched one by one

    def page_html(self, language: str, words: bytes, rulesets: bytes) -> bytes:
        """The HTML for a phone whose browser prefers ``language``: its words and rule sets carried inline (data,
        not scripts: no policy hash needed), read by i18n.js and shell/state.js when the page speaks that language."""
        data = "".join(f'  <script type="application/json" id="{name}" data-lang="{html.escape(language)}">'
                       f'{inline(body)}</script>\n' for name, body in (("page-words", words), ("page-rulesets", rulesets)))
        return self.index_html.replace(PAGE_DATA.encode(), data.encode(), 1)

    def is_current(self, path: str, version: str | None) -> bool:
        """Whether ``path?v=version`` is this release's address of the file (which may then be kept for good)."""
        return version is not None and self.addresses.get(path) == f"{path}?v={version}"

    def kept(self) -> list[str]:
        """What the service worker keeps for offline use: every file the page may load (bundled, the modules and the
        style sheet are in the HTML already: not one of them is asked for)."""
        return sorted(address for path, address in self.addresses.items()
                      if not (self.bundled and (path.startswith("/app/js/") or path == "/app/app.css")))


def inline(body: bytes) -> str:
    """JSON as the text of a ``<script>`` element: no ``</`` that could end it early (``<\\/`` is the same JSON).

    >>> inline('{"page.x":"a </script> b"}'.encode())
    '{"page.x":"a <\\\\/script> b"}'
    """
    return body.decode("utf-8").replace("</", "<\\/")


def script_hash(text: str) -> str:
    """The policy's source expression of an inline script or style sheet of this text."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def esbuild() -> str | None:
    """The esbuild to bundle with, if any."""
    return str(ESBUILD) if ESBUILD.exists() else shutil.which("esbuild")


def bundle(tool: str, entry: str, form: str) -> str:
    """``entry`` and all it imports as one script (``form``: ``esm`` or ``iife``), minified; dynamic imports of the
    page's modules are joined into it too (no code splitting), so no module is ever fetched."""
    done = subprocess.run([tool, str(STATIC / entry.removeprefix("/app/")), "--bundle", f"--format={form}", *MINIFY,
                           "--charset=utf8", "--legal-comments=none", "--log-level=error"],
                          capture_output=True, check=True, timeout=120)
    return done.stdout.decode("utf-8").strip()


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
    tool = esbuild()  # bundled or not is another page, so another release for the service worker
    version = digest(json.dumps([addresses, salt, tool is not None], sort_keys=True).encode())
    import_map = json.dumps({"imports": addresses}, sort_keys=True, separators=(",", ":"))
    page = ASSET_ATTRIBUTE.sub(lambda m: m.group(1) + html.escape(addresses.get(m.group(2), m.group(2))) + m.group(3),
                               (STATIC / "index.html").read_text(encoding="utf-8"))
    entry = re.search(r'  <script type="module" src="[^"]+"></script>\n', page).group(0)
    scripts, styles = [import_map], []
    if tool:
        main, first_read = bundle(tool, ENTRY, "esm"), bundle(tool, FIRST_READ, "iife")
        css = files["/app/app.css"].decode("utf-8").strip()
        if "</script" in (main + first_read).lower() or "</style" in css.lower():
            raise ValueError("a bundle of the page would end its element early")
        scripts = [first_read, import_map, main]  # in the order of the HTML
        styles.append(css)
        # The share link's read first, before the style sheet: a classic script waits for the style sheets above it.
        page = page.replace('  <link rel="stylesheet"', f'  <script>{first_read}</script>\n  <link rel="stylesheet"', 1)
        # The style sheet inline: as a file, its own round trip held the scripts back (they wait for it).
        page = re.sub(r'  <link rel="stylesheet" href="[^"]+">\n', lambda _: f"  <style>{css}</style>\n", page, count=1)
        # Render-blocking, so the first frame is the page drawn by its modules, not the bare top bar parsed before
        # them; `blocking="render"` holds only in the head (at the end of the body Chromium still drew that frame,
        # a cost in benchmarks/page_load.py's trace).
        # A module runs once the document is parsed wherever it stands, so the words and rule sets below are there.
        page = page.replace(entry, f'  <script type="importmap">{import_map}</script>\n'
                                   f'  <script type="module" blocking="render">{main}</script>\n', 1)
        page = page.replace("</body>", f"{PAGE_DATA}</body>", 1)
    else:
        # The entry first: the browser asks for them in this order, six at a time (HTTP/1.1), and main.js asked
        # for last waited behind its own imports (benchmarks/page_load.py's waterfall). Then the rest, nearest first.
        preloads = "".join(f'  <link rel="modulepreload" href="{html.escape(addresses[path])}">\n'
                           for path in first_view_modules(files) if path != ENTRY)
        page = page.replace(entry, f'  <script type="importmap">{import_map}</script>\n{entry}{preloads}', 1)
        page = page.replace("</body>", f"{PAGE_DATA}</body>", 1)
    return Release(version, addresses, page.encode(), tuple(script_hash(text) for text in scripts),
                   tuple(script_hash(text) for text in styles), bool(tool))


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
