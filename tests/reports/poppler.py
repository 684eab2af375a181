"""Read generated PDFs with poppler-utils (pdftotext, pdffonts, pdfinfo), as a reader would."""
import re
import subprocess
import tempfile


def _run(tool: str, pdf: bytes, *args: str) -> str:
    with tempfile.NamedTemporaryFile(suffix=".pdf") as handle:
        handle.write(pdf)
        handle.flush()
        return subprocess.run([tool, *args, handle.name, *(["-"] if tool == "pdftotext" else [])],
                              check=True, capture_output=True, text=True).stdout


def pages(pdf: bytes) -> list[str]:
    """The text of every page (layout kept, so a table row stays on one line)."""
    return _run("pdftotext", pdf, "-layout").split("\f")[:-1]


def fonts(pdf: bytes) -> list[dict]:
    """pdffonts' table: one dict per font keyed by its column titles (name, type, emb, ...)."""
    title, rule, *rows = _run("pdffonts", pdf).splitlines()
    spans = [match.span() for match in re.finditer(r"-+", rule)]
    keys = [title[start:end].strip() for start, end in spans]
    return [{key: row[start:end].strip() for key, (start, end) in zip(keys, spans)} for row in rows]


def info(pdf: bytes) -> dict:
    """pdfinfo's fields, e.g. Pages, Page size."""
    return dict(line.split(":", 1) for line in _run("pdfinfo", pdf).splitlines() if ":" in line)
