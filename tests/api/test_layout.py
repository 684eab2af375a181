"""Where things live in ``api/``, read from the source with ``ast`` (``tests/imports.py``).

- A folder per resource (``sessions``, ``groups``, ``competitions``, ``rules``, ``page``, ``guide``) and
  ``http`` for what they share; no module of ``api`` imports, directly or
  through others, a module that imports it back.
- One order, sessions <- groups <- competitions: an evening knows nothing of groups or competitions, a group
  nothing of competitions, and what they all share knows none of them (imports inside functions count).
- The app factory imports the blueprints inside ``create_app``: importing a
  service loads neither the app nor gevent.
- A module of routes (one that makes a ``blp``) is imported by the factory
  only: resources reach each other through services, never through routes.
- A service begins, locks and commits its own transactions, and takes what
  it needs of the request as arguments: no service reads ``request``, ``g``
  or the app's config, and the routes' token check (``api.http.auth``) opens
  no write for another module to commit.
- SQL only in the stores (``ledger.store``, ``ledger.group_store``, ``ledger.competition_store``) and the
  engine (``api.http.db``): no query is built anywhere else in ``api``.
"""
import ast
import subprocess
import sys

from tests.imports import ROOT, circles, imported_names, package_imports

RESOURCES = {"sessions", "groups", "competitions", "rules", "page", "guide", "http"}
SERVICES = ("api.sessions.service", "api.sessions.documents", "api.groups.service", "api.groups.documents",
            "api.groups.figures", "api.competitions.service")
REQUEST_GLOBALS = {"request", "g", "current_app", "session"}
OWN_REQUEST_READERS = {"limit", "limits", "caller", "client_label", "expected_revision", "current_session",
                       "current_group", "current_group_id", "current_access", "bearer_token"}
QUERIES = {"select", "update", "delete", "insert", "text", "bindparam"}


def sources() -> dict[str, ast.Module]:
    """Each module of ``api`` by name, parsed."""
    found = {}
    for path in sorted((ROOT / "api").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = ast.parse(path.read_text(encoding="utf-8"))
    return found


def names_from(tree: ast.AST, module_prefixes: tuple[str, ...]) -> set[str]:
    """The names imported by ``from <module> import <name>`` from modules starting with these prefixes."""
    return {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
            and node.module.startswith(module_prefixes) for alias in node.names}


def makes_blueprint(tree: ast.Module) -> bool:
    return any(isinstance(node, ast.Assign) and any(getattr(target, "id", None) == "blp" for target in node.targets)
               for node in tree.body)


def test_api_is_a_folder_per_resource_and_one_for_what_they_share():
    folders = {path.name for path in (ROOT / "api").iterdir() if (path / "__init__.py").exists()}
    assert folders == RESOURCES
    flat = {path.name for path in (ROOT / "api").glob("*.py")}
    assert flat == {"__init__.py", "gunicorn_config.py"}


def test_no_module_of_api_imports_itself_back():
    found = circles({name: names for name, names in package_imports("api").items()})
    assert not found, "import circles in api/:\n" + "\n".join(found)


# resource -> the resources it may not import (``http``: what every resource shares, so none of them)
ABOVE = {"sessions": {"groups", "competitions"}, "groups": {"competitions"},
         "http": {"sessions", "groups", "competitions", "rules", "page"}}


def resource(module: str) -> str | None:
    """``api.groups.service`` -> ``groups``; None for the factory and modules outside ``api``."""
    parts = module.split(".")
    return parts[1] if parts[0] == "api" and len(parts) > 1 and parts[1] in RESOURCES else None


def upward_imports(imports: dict[str, set[str]]) -> list[str]:
    """Each import, as ``importer -> imported``, of a resource its importer comes before."""
    return sorted(f"{name} -> {imported}" for name, names in imports.items() for imported in names
                  if resource(imported) in ABOVE.get(resource(name), ()))


def test_sessions_before_groups_before_competitions():
    assert upward_imports(package_imports("api")) == []


def test_the_order_sees_an_import_inside_a_function():
    source = "def start():\n    from api.groups.service import start_evening\n"
    modules = {"api.sessions.routes", "api.groups.service"}
    found = {"api.sessions.routes": imported_names(source, "api.sessions.routes", False, modules)}
    assert upward_imports(found) == ["api.sessions.routes -> api.groups.service"]
    assert upward_imports({"api.groups.service": {"api.sessions.service", "api.http.db"}}) == []


def test_the_factory_imports_the_app_only_when_it_is_built():
    tree = sources()["api"]
    top_level = {alias.name for node in tree.body if isinstance(node, ast.Import | ast.ImportFrom)
                 for alias in node.names}
    assert {name for name in top_level if name.startswith("api")} == set()
    assert not any(isinstance(node, ast.ImportFrom) and (node.module or "").startswith("api") for node in tree.body)


def test_importing_a_service_loads_neither_the_app_nor_gevent():
    probe = ("import sys, api.sessions.service, api.groups.service; "
             "print(sorted(m for m in sys.modules if m.startswith(('gevent', 'api.sessions.routes', "
             "'api.groups.routes', 'api.page'))))")
    loaded = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert loaded.stdout.strip() == "[]"


def test_an_app_loads_reportlab_when_a_route_first_draws_not_as_it_starts(tmp_path):
    probe = ("import sys; from api import create_app; "
             "app = create_app({'DATABASE_URL': sys.argv[1], 'TESTING': True}); "
             "before = 'reportlab' in sys.modules; "
             "answer = app.test_client().get('/api/sessions/0/report.pdf', headers={'Authorization': 'Bearer x'}); "
             "print(before, answer.status_code, 'reportlab' in sys.modules, 'reportlab.platypus' in sys.modules); "
             "import reports; reports.pdf; print('reportlab.platypus' in sys.modules)")
    loaded = subprocess.run([sys.executable, "-c", probe, f"sqlite:///{tmp_path / 'probe.sqlite'}"], cwd=ROOT,
                            capture_output=True, text=True, check=True)
    assert loaded.stdout.split() == ["False", "404", "False", "False", "True"]


def test_only_the_factory_imports_a_module_of_routes():
    trees = sources()
    routes = {name for name, tree in trees.items() if makes_blueprint(tree)}
    assert {"api.sessions.routes", "api.groups.routes", "api.rules.routes", "api.http.health"} <= routes
    imports = package_imports("api")
    importers = {name: sorted(module for module in routes & names) for name, names in imports.items()
                 if name != "api" and routes & names}
    assert importers == {}


def test_services_take_what_they_need_as_arguments():
    trees = sources()
    for name in SERVICES:
        readers = names_from(trees[name], ("flask",)) & REQUEST_GLOBALS
        own = names_from(trees[name], ("api.http",)) & OWN_REQUEST_READERS
        assert (name, readers, own) == (name, set(), set())


def test_the_token_check_opens_no_write():
    assert "begin_write" not in names_from(sources()["api.http.auth"], ("api.http.db",))


def test_queries_are_built_in_the_stores_only():
    trees = sources()
    building = {name for name, tree in trees.items()
                if names_from(tree, ("sqlalchemy", "sqlmodel")) & QUERIES and name != "api.http.db"}
    assert building == set()
