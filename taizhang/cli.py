"""``taizhang``: the command a package install gives (``[project.scripts]`` in pyproject.toml).

``serve`` is gunicorn with ``api.gunicorn_config``, as ``make run`` starts it; ``backup``, ``report``,
``group-report`` and ``import`` are the app's own Flask commands, looked up in the app, so each is
written once. The database: ``--data DIR`` (``TAIZHANG_DATA``), else ``DATABASE_URL``, else
``$XDG_DATA_HOME/taizhang``: never a folder of the installed package, which an upgrade replaces. A
command that only reads (``READS``) creates no database.
"""
import copy
import multiprocessing
import os
import sys
from pathlib import Path

import click

from taizhang import reach

DATABASE_FILE = "taizhang.sqlite"
#: The app's Flask commands ``taizhang`` offers, with the line ``taizhang --help`` shows for each
#: (the help of each is the app's own: ``taizhang backup --help``).
APP_COMMANDS = {
    "backup": "Write every evening to DIRECTORY as JSON (--keep N: dated folders, the N newest kept).",
    "import": "Recreate evenings from backup files (new ids and links, printed).",
    "report": "Write an evening's settlement sheet (PDF).",
    "group-report": "Write a group's sheet (PDF).",
}
#: The app's commands that only read the database.
READS = {"backup", "report", "group-report"}
DATA_OPTION = dict(type=click.Path(file_okay=False, path_type=Path),
                   help="Folder of the SQLite database (created if missing, except by a command that only reads); "
                        "else DATABASE_URL, else ~/.local/share/taizhang")
DATA_KEY = "taizhang.data"  # ctx.meta: --data given after an app's command


def default_data_dir() -> Path:
    """``$XDG_DATA_HOME/taizhang``, else ``~/.local/share/taizhang``: outside any installed package."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "taizhang"


def database_url(data: Path | None, create: bool = True) -> str:
    """The database: SQLite in ``data`` when given, else ``DATABASE_URL``, else SQLite in the default folder;
    its folder is made unless ``create`` is false (a read)."""
    if data is None and os.environ.get("DATABASE_URL"):
        return os.environ["DATABASE_URL"]
    folder = (data or default_data_dir()).resolve()
    if create:
        folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / DATABASE_FILE}"


def missing_file(url: str) -> Path | None:
    """The SQLite file ``url`` names when it does not exist (opening it would create it), else None."""
    from api.http.db import database_url as parsed, in_memory

    database = parsed(url)
    if database.get_backend_name() != "sqlite" or in_memory(database) or Path(database.database).exists():
        return None
    return Path(database.database)


def remember_data(ctx, _param, value) -> None:
    """``--data`` given after an app's command: kept where the app is built (``Taizhang.app``) finds it."""
    if value is not None:
        ctx.meta[DATA_KEY] = value


class Taizhang(click.Group):
    """``serve`` is its own; the other commands are the app's, found once the database is known."""

    def list_commands(self, ctx):
        return sorted([*super().list_commands(ctx), *APP_COMMANDS])

    def get_command(self, ctx, name):
        own = super().get_command(ctx, name)
        if own is not None or name not in APP_COMMANDS:
            return own
        from flask.cli import ScriptInfo

        from api import blueprints

        found = next(command for blueprint in blueprints() if (command := blueprint.cli.get_command(ctx, name)))
        # The commands' with_appcontext builds the app once their own options are read (their --data among them).
        ctx.obj = ScriptInfo(create_app=lambda: self.app(ctx, name), set_debug_flag=False)
        command = copy.copy(found)
        command.params = [*found.params, click.Option(["--data"], expose_value=False, callback=remember_data,
                                                      **DATA_OPTION)]
        return command

    @staticmethod
    def app(ctx, name):
        """The app on the database chosen; for a read, none is created where there is none."""
        from api import create_app

        url = database_url(ctx.meta.get(DATA_KEY) or ctx.params.get("data"), create=name not in READS)
        missing = missing_file(url) if name in READS else None
        if missing is not None:
            raise click.ClickException(f"No database at {missing}: nothing was recorded there. The server's "
                                       "database is named with --data DIR or DATABASE_URL.")
        return create_app({"DATABASE_URL": url})

    def format_commands(self, ctx, formatter):
        """The list of commands without building the app (which would make a database to print help)."""
        rows = [(name, self.commands[name].get_short_help_str(60)) for name in super().list_commands(ctx)]
        rows += list(APP_COMMANDS.items())
        with formatter.section("Commands"):
            formatter.write_dl(sorted(rows))


@click.group(cls=Taizhang, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--data", envvar="TAIZHANG_DATA", **DATA_OPTION)
@click.version_option(package_name="taizhang", prog_name="taizhang", message="%(prog)s %(version)s")
def main(data):
    """台帳 Taizhang: bookkeeping for mahjong tables. `taizhang serve` serves the phones' page."""


@main.command()
@click.option("--host", default="0.0.0.0", show_default=True,
              help="Where to listen: 0.0.0.0 is every network of the machine (phones on its Wi-Fi), "
                   "127.0.0.1 this machine only")
@click.option("--port", default=5000, show_default=True, type=click.IntRange(0, 65535))
@click.option("--workers", type=click.IntRange(min=1), default=lambda: len(os.sched_getaffinity(0)),
              show_default="one per core",
              help="Server processes; each serves many phones at once, so more than the cores only take turns")
@click.option("--connections", type=click.IntRange(min=1), default=None,
              show_default="as many as the machine lets a worker open files, at most 10,000",
              help="Connections each worker holds at once; a phone following its table holds one all evening")
@click.option("--data", envvar="TAIZHANG_DATA", **DATA_OPTION)
@click.pass_context
def serve(ctx, host, port, workers, connections, data):
    """Serve the page and the API with the production server; print the address phones open and its QR code."""
    os.environ["DATABASE_URL"] = database_url(data or ctx.parent.params.get("data"))
    Server(host, port, workers, connections).run()


class Server:
    """gunicorn's application, configured as ``make serve``'s command line configures it."""

    def __init__(self, host: str, port: int, workers: int, connections: int | None):
        from gunicorn.app.base import BaseApplication

        server = self

        class Application(BaseApplication):
            def load_config(self):
                server.configure(self.cfg)

            def load(self):
                from api import create_app

                return create_app()

        self.host, self.port, self.workers, self.connections = host, port, workers, connections
        self.announcement = ""
        self.announced = multiprocessing.Value("b", 0)  # shared with the workers, forked later: the first says it
        self.application = Application()

    def configure(self, cfg) -> None:
        """``api.gunicorn_config``'s settings (as ``--config python:api.gunicorn_config``), then ours."""
        from api import gunicorn_config

        for name, value in vars(gunicorn_config).items():
            if name in cfg.settings:
                cfg.set(name, value)
        bind = f"[{self.host}]:{self.port}" if ":" in self.host.strip("[]") else f"{self.host}:{self.port}"
        cfg.set("bind", [bind])
        cfg.set("workers", self.workers)
        if self.connections is not None:  # else api.gunicorn_config's, sized from the open-file limit
            cfg.set("worker_connections", self.connections)
        cfg.set("when_ready", self.ready)
        cfg.set("post_worker_init", self.worker_ready)

    def ready(self, arbiter) -> None:
        """gunicorn's hook once the socket listens: where phones open it (with port 0, the port the kernel chose)."""
        port = arbiter.LISTENERS[0].sock.getsockname()[1] if arbiter.LISTENERS else self.port
        phones = reach.network_url(self.host, port)
        public = os.environ.get("TAIZHANG_PUBLIC_URL") or None
        if phones and not os.environ.get("TAIZHANG_NETWORK_URL"):
            # The workers, forked after this hook, read it into the app's NETWORK_URL (api/http/address.py).
            os.environ["TAIZHANG_NETWORK_URL"] = phones
        self.announcement = reach.announcement(self.host, port, os.environ.get("TAIZHANG_NETWORK_URL") or phones,
                                               public)

    def worker_ready(self, worker) -> None:
        """gunicorn's hook in a worker that has loaded the app and is about to answer: the first to get here prints
        the announcement (when the socket listened, a phone's first request still waited seconds for it)."""
        from api import gunicorn_config

        gunicorn_config.post_worker_init(worker)
        with self.announced.get_lock():
            first, self.announced.value = not self.announced.value, 1
        if first:
            sys.stdout.write(self.announcement)
            sys.stdout.flush()

    def run(self) -> None:
        self.application.run()
