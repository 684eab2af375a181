"""Printable and exportable reports (報表): PDF sheets, pictures for a chat, CSV.

Most modules here load reportlab and Pillow, a tenth of a second of CPU in every process that imports them: the
server's routes reach those as attributes (``reports.pdf.render_pdf``), imported when a route first draws, so a
worker that never prints a sheet or a picture starts without them (``python -X importtime``)."""
import importlib


def __getattr__(name: str):
    """``reports.<name>``: the module, imported now if it was not (PEP 562; the import lock makes it once)."""
    if not name.startswith("_"):
        try:
            return importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as missing:
            if missing.name != f"{__name__}.{name}":
                raise
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
