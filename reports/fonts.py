"""The report's CJK font (中文字型): an embedded TrueType font, else a CID font.

The PDF is self-contained when the font is a TrueType file (or collection), which reportlab subsets
and embeds: `REPORT_FONT` (``path#N`` for font N of a ``.ttc``), else the first of `INSTALLED_FONTS`,
else the CID font `MSung-Light` that the viewer must supply (a warning says so). CFF-based OpenType
fonts (Noto Sans CJK) cannot be embedded by reportlab. Glyphs the CJK font lacks (an emoji in a name)
come from `FALLBACK_FONTS`; `glyph_runs` splits a text by the font that draws it.

>>> parse_font_spec("/fonts/a.ttc#2")
('/fonts/a.ttc', 2)
>>> parse_font_spec("/fonts/b.ttf")
('/fonts/b.ttf', 0)
"""
from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import CIDFont, UnicodeCIDFont
from reportlab.pdfbase.ttfonts import TTFont, TTFError

log = logging.getLogger(__name__)

INSTALLED_FONTS = (
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc#0",
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc#0",
    "/usr/share/fonts/truetype/arphic/uming.ttc#0",
    "/usr/share/fonts/truetype/arphic/ukai.ttc#0",
)
FALLBACK_FONTS = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf",
)
CID_FALLBACK = "MSung-Light"
CID_ENCODING = "UniCNS-UCS2-H"


@dataclass(frozen=True)
class ReportFont:
    """The font every text of the report uses: its reportlab name, whether it is embedded, and its `fallbacks`."""

    name: str
    embedded: bool
    source: str
    fallbacks: tuple[str, ...] = ()


def glyph_runs(text: str, fonts: Sequence[str]) -> list[tuple[str, str]]:
    """`text` as (font, run) pairs: each character in the first of `fonts` that has it (else the first); a font
    without a character map (the CID font) is taken to have everything."""
    runs: list[tuple[str, str]] = []
    for char in text:
        font = next((name for name in fonts if _has_glyph(name, ord(char))), fonts[0])
        if runs and runs[-1][0] == font:
            runs[-1] = (font, runs[-1][1] + char)
        else:
            runs.append((font, char))
    return runs


@lru_cache(maxsize=4096)
def _has_glyph(font: str, code: int) -> bool:
    face = getattr(pdfmetrics.getFont(font), "face", None)
    glyphs = getattr(face, "charToGlyph", None)
    return glyphs is None or code in glyphs or code < 32


def with_fallbacks(font: ReportFont, installed: Sequence[str] = FALLBACK_FONTS) -> ReportFont:
    """`font` with the installed fallback fonts registered (none for the CID font, which has no glyph map)."""
    if not font.embedded:
        return font
    return ReportFont(font.name, font.embedded, font.source, tuple(f.name for f in fallback_fonts(installed)))


def fallback_fonts(installed: Sequence[str] = FALLBACK_FONTS) -> tuple[ReportFont, ...]:
    """The fonts of `installed` that exist and load, registered with reportlab, in order."""
    loaded = (_load_logged(path) for path in installed if os.path.exists(parse_font_spec(path)[0]))
    return tuple(font for font in loaded if font is not None)


def parse_font_spec(spec: str) -> tuple[str, int]:
    """Split `path#N` into the path and the collection index (0 when absent)."""
    path, hash_sign, index = spec.rpartition("#")
    if hash_sign and index.isdigit():
        return path, int(index)
    return spec, 0


def report_font(configured: str | None = None, installed: Sequence[str] = INSTALLED_FONTS) -> ReportFont:
    """The report font: `configured` if it loads, else the first installed one, else the CID font."""
    if configured:
        font = _load_logged(configured)
        if font is not None:
            return font
    for spec in installed:
        if os.path.exists(parse_font_spec(spec)[0]):
            font = _load_logged(spec)
            if font is not None:
                return font
    log.warning(
        "No TrueType CJK font found (set REPORT_FONT or install fonts-wqy-zenhei); using the CID font"
        " %s, so the PDF is not self-contained: the viewer must supply the Chinese glyphs.",
        CID_FALLBACK,
    )
    return _cid_font()


def font_from_environment(config_value: str | None = None) -> ReportFont:
    """`report_font` with `REPORT_FONT` from the app config, else from the environment, and its fallbacks."""
    return with_fallbacks(report_font(config_value or os.environ.get("REPORT_FONT")))


def _load_logged(spec: str) -> ReportFont | None:
    try:
        return _load_truetype(*parse_font_spec(spec))
    except (OSError, TTFError) as error:
        log.warning("Cannot use the report font %s: %s", spec, error)
        return None


@lru_cache(maxsize=None)
def _load_truetype(path: str, index: int) -> ReportFont:
    """Register a TrueType font (once per process) under a name of its own."""
    name = f"TaizhangCJK-{os.path.basename(path)}-{index}"
    pdfmetrics.registerFont(TTFont(name, path, subfontIndex=index))
    _map_styles(name)
    return ReportFont(name, True, f"{path}#{index}")


class TraditionalChineseCIDFont(UnicodeCIDFont):
    """`MSung-Light` with the CMap `UniCNS-UCS2-H`: reportlab's `UniGB-UCS2-H` (Simplified) is rejected by poppler."""

    def __init__(self):
        super().__init__(CID_FALLBACK)
        CIDFont.__init__(self, CID_FALLBACK, CID_ENCODING)
        self.name = self.fontName = CID_FALLBACK


@lru_cache(maxsize=None)
def _cid_font() -> ReportFont:
    pdfmetrics.registerFont(TraditionalChineseCIDFont())
    _map_styles(CID_FALLBACK)
    return ReportFont(CID_FALLBACK, False, CID_FALLBACK)


def _map_styles(name: str) -> None:
    """Bold and italic markup (<b>, <i>) fall back to the same face: CJK fonts ship one weight."""
    for bold in (0, 1):
        for italic in (0, 1):
            addMapping(name, bold, italic, name)
