"""The report's embedded TrueType fonts (DejaVu Sans, bundled in ``resources/fonts`` with its licence).

Registration with reportlab is process-wide, so it happens once, under a lock; everything else in the report is
per-call state.
"""

from __future__ import annotations

import threading
import weakref

from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from models.resources import resources_dir

REGULAR = "StorPlanSans"
BOLD = "StorPlanSans-Bold"
FAMILY = "StorPlanSans-Family"

_FILES = {REGULAR: "DejaVuSans.ttf", BOLD: "DejaVuSans-Bold.ttf"}
_lock = threading.Lock()
_registered = False


WIDTHS_KEPT = 100_000
"""Text widths a font keeps (about 10 MB at most); past that it starts again."""


class _ReportFont(TTFont):
    """A TrueType font that encodes each distinct text once per PDF document.

    reportlab's ``TTFont.splitString`` maps a text's characters to the font's subsets character by character every
    time the text is drawn; a large report draws the same few thousand texts (units, names, repeated sentences)
    tens of thousands of times. The first call for a text assigns codes to its new characters; a later call for
    the same text in the same document returns what it did then (the assignments only grow), so the cached result
    is the same bytes. Its widths are kept too (a pure function of the text and size, which reportlab measures
    again on every draw to move the text cursor).
    """

    def __init__(self, name: str, filename: str) -> None:
        super().__init__(name, filename)
        self._splits: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # document -> {text: chunks}
        self._widths: dict[tuple[str, float], float] = {}  # (text, size in points) -> width in points
        self._shows: dict[bytes, str] = {}  # a subset's encoded text -> its PDF show operator, "(...) Tj"

    def stringWidth(self, text, size, encoding="utf8"):  # noqa: N802 (reportlab API)
        if type(text) is not str:
            return super().stringWidth(text, size, encoding)
        key = (text, size)
        width = self._widths.get(key)
        if width is None:
            if len(self._widths) >= WIDTHS_KEPT:
                self._widths.clear()
            width = self._widths[key] = super().stringWidth(text, size, encoding)
        return width

    def splitString(self, text, doc, encoding="utf-8"):  # noqa: N802 (reportlab API)
        if type(text) is not str:  # bytes, or a shaped string carrying its glyph positions: as reportlab does
            return super().splitString(text, doc, encoding)
        splits = self._splits.get(doc)
        if splits is None:
            splits = self._splits[doc] = {}
        chunks = splits.get(text)
        if chunks is None:
            chunks = splits[text] = super().splitString(text, doc, encoding)
        return chunks


def text_out(text, line: str) -> None:
    """``text.textOut(line)`` on a reportlab text object, the same PDF operators, at a fraction of its cost.

    reportlab's ``PDFTextObject.textOut`` formats the operators of a text anew on every draw (font lookup, subset
    split, escaping, the saved and restored cursor state); a large report draws tens of thousands of table cells.
    When the text is in one of the report's fonts and all of it in one subset (nearly every table cell), its
    operator is one ``(...) Tj`` kept per encoded text, after the subset's selection (``Tf``, ``TL``) when the text
    object has another subset selected; anything else (a text spanning subsets, another font) goes through
    reportlab's ``textOut``. The cursor moves by the text's width as reportlab moves it."""
    font = pdfmetrics.getFont(text._fontname)
    if type(font) is _ReportFont and type(line) is str:
        doc = text._canvas._doc
        chunks = font.splitString(line, doc)
        if len(chunks) == 1:
            subset, encoded = chunks[0]
            show = font._shows.get(encoded)
            if show is None:
                if len(font._shows) >= WIDTHS_KEPT:
                    font._shows.clear()
                show = font._shows[encoded] = f"({text._canvas._escape(encoded)}) Tj"
            if subset != text._curSubset:  # select the subset first, as reportlab does
                show = (f"{font.getSubsetInternalName(subset, doc)} {fp_str(text._fontsize)} Tf "
                        f"{fp_str(text._leading)} TL {show}")
                text._curSubset = subset
            text._x = text._x + font.stringWidth(line, text._fontsize)
            text._code.append(show)
            return
    text.textOut(line)


class FontError(RuntimeError):
    """A bundled font file is missing or unreadable (a broken installation)."""


def register_fonts() -> None:
    """Register the bundled fonts with reportlab (idempotent, thread-safe).

    Raises:
        FontError: a font file is missing from ``resources/fonts`` or is not a TrueType font.
    """
    global _registered
    if _registered:
        return
    with _lock:
        if _registered:
            return
        from reportlab.lib.fonts import addMapping
        from reportlab.pdfbase import pdfmetrics
        from reportlab.pdfbase.ttfonts import TTFError

        folder = resources_dir() / "fonts"
        for name, filename in _FILES.items():
            path = folder / filename
            try:
                pdfmetrics.registerFont(_ReportFont(name, str(path)))
            except (OSError, TTFError) as exc:
                raise FontError(f"report font {path} cannot be loaded: {exc}") from exc
        pdfmetrics.registerFontFamily(FAMILY, normal=REGULAR, bold=BOLD, italic=REGULAR, boldItalic=BOLD)
        for name in (REGULAR, FAMILY):
            addMapping(name, 0, 0, REGULAR)
            addMapping(name, 1, 0, BOLD)
            addMapping(name, 0, 1, REGULAR)
            addMapping(name, 1, 1, BOLD)
        _registered = True
