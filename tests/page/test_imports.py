"""What the phone page's modules import, read from their source with a small regex (no browser).

The page is plain ES modules under ``api/page/static/app/`` (no build step), in one folder per kind, so
that where a file lives says what it may use:

- ``js/main.js``, the entry: it starts the page from the modules of ``js/shell/`` (the router, the
  app's state, the top bar), which import each other; of them ``routes.js``, the route table, alone
  imports screens.
- ``js/screens/<area>/``: one module per route, in the folder of its area (``evening``, ``group``,
  ``competition``; ``#group-evening``: ``screens/group/group_evening.js``), each one imported by
  routes.js. A screen imports parts, format helpers and the infrastructure, never another screen: it
  goes to another through the router (``app.go``). A helper kept in a screen and imported by
  others is how ``conflict -> history -> entry -> conflict`` came about.
- ``js/parts/``: pieces of screens (fields and errors, the dialog, the tile picker, the chart, a
  group's downloads, …). A part imports parts, format helpers and the infrastructure, never a screen.
- ``js/format/``: values in words, with no DOM and no API (amounts, dates, a hand's line, why money
  moved). A format helper imports only format helpers, ``i18n.js`` (the words) and ``tiles.js``.
- the other modules of ``js/``, the infrastructure (the API client, the DOM builder, the words,
  storage, the outbox, live updates, tiles): they import only each other.
- ``sw.js``, the service worker, a classic script (registered without ``type: 'module'``): it
  imports nothing.

Nothing imports main.js, which starts the page when it is loaded, and no screen or part imports the
shell: the app's state reaches them as an argument. A module anywhere else has no
rule, and fails. No module may import, directly or through others, a module that imports it back,
and every import names a file of the page by its path (the browser resolves no bare name without an
import map). Every import counts: ``import … from``, ``import '…'``, ``export … from``, and the
dynamic ``import('…')`` (and a classic script's ``importScripts('…')``), a dependency all the same,
only deferred; one of anything but a plain string is refused, as the walk cannot follow it.
"""
from __future__ import annotations

import re
from pathlib import Path

from tests.imports import circles

APP = Path(__file__).resolve().parents[2] / "api" / "page" / "static" / "app"
ENTRY = "js/main.js"
ROUTES = "js/shell/routes.js"
#: The folders of screens/, one per area of the page.
AREAS = {"evening", "group", "competition"}
WORKER = "sw.js"
#: The infrastructure a format helper may use: the words, and the tiles and winds.
WORDS_AND_TILES = {"js/i18n.js", "js/tiles.js"}
KINDS = {"entry", "shell", "screen", "part", "format", "infrastructure", "worker"}

STATIC = re.compile(r"""^[ \t]*(?:import|export)\b[\w$*{},\s]+?\bfrom\s*(['"])(.+?)\1"""
                    r"""|^[ \t]*import\s*(['"])(.+?)\3""", re.M)
DYNAMIC = re.compile(r"""\b(?:import|importScripts)\s*\(\s*(?:(['"])(.+?)\1\s*\))?""")


def imported_paths(source: str) -> list[str | None]:
    """The path of every import in ``source``, in order; None for a dynamic import of anything but a string.

    A classic script's ``importScripts('…')`` (the worker's way to import) counts as a dynamic import.
    """
    found = [(match.start(), match.group(2) or match.group(4)) for match in STATIC.finditer(source)]
    found += [(match.start(), match.group(2)) for match in DYNAMIC.finditer(source)]
    return [path for _, path in sorted(found, key=lambda item: item[0])]


def resolve(path: str, importer: str) -> str | None:
    """The module ``path`` names from ``importer``, both under ``api/page/static/app/``; None for a bare name or a URL."""
    if path.startswith(("./", "../")):
        parts = []
        for part in [*importer.split("/")[:-1], *path.split("/")]:
            if part == "..":
                if not parts:
                    return None
                parts.pop()
            elif part not in ("", "."):
                parts.append(part)
        return "/".join(parts)
    if path.startswith("/app/"):
        return path[len("/app/"):]
    return None


def page_modules(app: Path = APP) -> dict[str, str]:
    """Every ``.js`` file of the page (sw.js included) by its path under ``api/page/static/app/`` -> its source."""
    return {path.relative_to(app).as_posix(): path.read_text(encoding="utf-8") for path in sorted(app.rglob("*.js"))}


def page_imports(app: Path = APP) -> dict[str, list[tuple[str, str | None]]]:
    """Each module -> [(the path as written, the module it names or None)], sw.js included."""
    return {name: [(path, resolve(path, name) if path else None) for path in imported_paths(source)]
            for name, source in page_modules(app).items()}


def graph(imports: dict[str, list[tuple[str, str | None]]]) -> dict[str, set[str]]:
    return {name: {target for _, target in found if target} for name, found in imports.items()}


def kind(name: str) -> str | None:
    """What a module is, from where it lives: entry, shell, screen, part, format, infrastructure or worker; None
    elsewhere."""
    if name == WORKER:
        return "worker"
    if name == ENTRY:
        return "entry"
    folders = name.split("/")
    if len(folders) == 2 and folders[0] == "js":
        return "infrastructure"
    if len(folders) == 3 and folders[0] == "js":
        return {"shell": "shell", "parts": "part", "format": "format"}.get(folders[1])
    if len(folders) == 4 and folders[:2] == ["js", "screens"] and folders[2] in AREAS:
        return "screen"
    return None


def may_import(importer: str, imported: str) -> bool:
    """The rule of the module docstring for one import."""
    if imported == ENTRY:
        return False
    importer_kind, imported_kind = kind(importer), kind(imported)
    if importer_kind in ("entry", "shell"):
        return (imported_kind in ("shell", "part", "format", "infrastructure")
                or (importer == ROUTES and imported_kind == "screen"))
    if importer_kind in ("screen", "part"):
        return imported_kind in ("part", "format", "infrastructure")
    if importer_kind == "format":
        return imported_kind == "format" or imported in WORDS_AND_TILES
    if importer_kind == "infrastructure":
        return imported_kind == "infrastructure"
    return False


def breaches(imports: dict[str, set[str]], importers: set[str | None], imported: set[str | None]) -> list[str]:
    """``a imports b`` for each import against the rules from a kind in ``importers`` to a kind in ``imported``."""
    return sorted(f"{name} imports {target}" for name, targets in imports.items() for target in targets
                  if kind(name) in importers and kind(target) in imported and not may_import(name, target))


def test_every_import_names_a_file_of_the_page():
    modules = set(page_modules())
    wrong = sorted(f"{name} imports {path or 'something that is not a plain string'}: "
                   + ("no such file" if target else "not a path to a file of the page")
                   for name, found in page_imports().items() for path, target in found
                   if target not in modules)
    assert not wrong, "imports of nothing the page serves:\n" + "\n".join(wrong)


def test_no_module_of_the_page_imports_itself_back():
    found = circles(graph(page_imports()))
    assert not found, "import circles in the page:\n" + "\n".join(found)


def test_every_module_has_a_place():
    homeless = sorted(name for name in page_modules() if kind(name) is None)
    assert not homeless, ("modules outside js/shell, js/screens/<area>, js/parts, js/format and js/ itself:\n"
                          + "\n".join(homeless))


def test_no_two_modules_share_a_file_name():
    """A name says which module is meant (in an import, a stack trace, a search) without its folder."""
    by_name = {}
    for name in page_modules():
        by_name.setdefault(name.rsplit("/", 1)[-1], []).append(name)
    shared = sorted(" ".join(paths) for paths in by_name.values() if len(paths) > 1)
    assert not shared, "modules of one file name:\n" + "\n".join(shared)


def test_no_screen_imports_another_screen():
    wrong = breaches(graph(page_imports()), {"screen"}, {"screen"})
    assert not wrong, "a screen goes to another through the router (app.go), not an import:\n" + "\n".join(wrong)


def test_no_part_or_format_helper_imports_a_screen():
    wrong = breaches(graph(page_imports()), {"part", "format"}, {"screen"})
    assert not wrong, "what a screen shares belongs in parts/ or format/:\n" + "\n".join(wrong)


def test_format_helpers_import_only_words_tiles_and_each_other():
    wrong = breaches(graph(page_imports()), {"format"}, KINDS | {None})
    assert not wrong, "format/ is values in words, no DOM, no API:\n" + "\n".join(wrong)


def test_the_infrastructure_imports_only_itself_and_the_worker_nothing():
    wrong = breaches(graph(page_imports()), {"infrastructure", "worker"}, KINDS | {None})
    assert not wrong, "the infrastructure is the bottom layer; sw.js is a classic script:\n" + "\n".join(wrong)


def test_nothing_imports_the_entry():
    wrong = breaches(graph(page_imports()), KINDS, {"entry"})
    assert not wrong, "main.js starts the page when it is loaded:\n" + "\n".join(wrong)


def test_only_the_route_table_imports_screens_and_only_the_shell_imports_itself():
    wrong = breaches(graph(page_imports()), KINDS, {"screen", "shell"})
    assert not wrong, "the app object reaches screens and parts as an argument:\n" + "\n".join(wrong)


def test_every_screen_is_a_route_of_the_router():
    imports = graph(page_imports())
    screens = {name for name in imports if kind(name) == "screen"}
    assert len(screens) >= 14, "the walk sees the screens it checks"
    not_routed = sorted(screens - imports[ROUTES])
    assert not not_routed, "modules of screens/ that routes.js does not draw (parts, then):\n" + "\n".join(not_routed)


# The walk itself, on a made-up module js/screens/extra.js:
SOURCE = """// import {commented} from './out.js';
import {h, replace} from '../dom.js';
import * as storage from '../storage.js';
import {busy, choices,
  field} from '../parts/form.js';
import '../parts/side_effect.js';
export {signed} from '../format/numbers.js';
export * as dates from "../format/dates.js";
/** A comment: import {this} from 'nowhere.js' is prose, not code. */
const label = 'import x from "y"';
export function late(name) {
  return import('./table.js').then(() => import(`./${name}.js`));
}
importScripts('/app/js/tiles.js');
"""


def test_the_walk_sees_every_kind_of_import():
    found = imported_paths(SOURCE)
    assert found == ["../dom.js", "../storage.js", "../parts/form.js", "../parts/side_effect.js",
                     "../format/numbers.js", "../format/dates.js", "./table.js", None, "/app/js/tiles.js"]
    assert [resolve(path, "js/screens/extra.js") for path in found if path] == [
        "js/dom.js", "js/storage.js", "js/parts/form.js", "js/parts/side_effect.js", "js/format/numbers.js",
        "js/format/dates.js", "js/screens/table.js", "js/tiles.js"]


def test_paths_resolve_as_the_browser_does():
    assert resolve("/app/js/i18n.js", "sw.js") == "js/i18n.js"
    assert resolve("./api.js", "js/main.js") == "js/api.js"
    assert resolve("../../sw.js", "js/parts/form.js") == "sw.js"
    assert resolve("../../../outside.js", "js/parts/form.js") is None
    assert resolve("lit-html", "js/main.js") is None


def test_the_rules_name_what_breaks_them():
    imports = {"js/main.js": {"js/shell/routes.js", "js/screens/group/a.js"},
               "js/shell/routes.js": {"js/screens/group/a.js"}, "js/shell/state.js": {"js/screens/evening/b.js"},
               "js/screens/group/a.js": {"js/screens/evening/b.js", "js/parts/p.js", "js/shell/state.js"},
               "js/screens/evening/b.js": {"js/main.js"}, "js/parts/p.js": {"js/screens/group/a.js"},
               "js/format/f.js": {"js/dom.js", "js/i18n.js", "js/format/g.js"}, "js/dom.js": {"js/format/f.js"}}
    assert breaches(imports, {"screen"}, {"screen"}) == ["js/screens/group/a.js imports js/screens/evening/b.js"]
    assert breaches(imports, {"entry", "shell"}, {"screen"}) == [
        "js/main.js imports js/screens/group/a.js", "js/shell/state.js imports js/screens/evening/b.js"]
    assert breaches(imports, {"screen", "part"}, {"shell"}) == ["js/screens/group/a.js imports js/shell/state.js"]
    assert breaches(imports, {"part", "format"}, {"screen", "entry"}) == [
        "js/parts/p.js imports js/screens/group/a.js"]
    assert breaches(imports, {"format"}, KINDS | {None}) == ["js/format/f.js imports js/dom.js"]
    assert breaches(imports, {"infrastructure"}, KINDS) == ["js/dom.js imports js/format/f.js"]
    assert breaches(imports, {"screen"}, {"entry"}) == ["js/screens/evening/b.js imports js/main.js"]
    assert kind("js/views/a.js") is None and kind("js/screens/group/a.js") == "screen" and kind("sw.js") == "worker"
    assert kind("js/screens/a.js") is None and kind("js/screens/lobby/a.js") is None
    assert kind("js/shell/router.js") == "shell" and kind("js/main.js") == "entry"


def test_a_circle_is_named_once_through_every_module_on_it():
    imports = {"js/parts/c.js": {"js/screens/h.js"}, "js/screens/h.js": {"js/parts/e.js", "js/dom.js"},
               "js/parts/e.js": {"js/parts/c.js"}, "js/main.js": {"js/parts/e.js"}}
    assert circles(imports) == ["js/parts/c.js -> js/screens/h.js -> js/parts/e.js -> js/parts/c.js"]
