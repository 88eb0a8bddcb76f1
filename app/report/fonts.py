"""The report's embedded TrueType fonts (DejaVu Sans, bundled in ``resources/fonts`` with its licence).

Registration with reportlab is process-wide, so it happens once, under a lock; everything else in the report is
per-call state.
"""

from __future__ import annotations

import threading

from models.resources import resources_dir

REGULAR = "StorPlanSans"
BOLD = "StorPlanSans-Bold"
FAMILY = "StorPlanSans-Family"

_FILES = {REGULAR: "DejaVuSans.ttf", BOLD: "DejaVuSans-Bold.ttf"}
_lock = threading.Lock()
_registered = False


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
        from reportlab.pdfbase.ttfonts import TTFError, TTFont

        folder = resources_dir() / "fonts"
        for name, filename in _FILES.items():
            path = folder / filename
            try:
                pdfmetrics.registerFont(TTFont(name, str(path)))
            except (OSError, TTFError) as exc:
                raise FontError(f"report font {path} cannot be loaded: {exc}") from exc
        pdfmetrics.registerFontFamily(FAMILY, normal=REGULAR, bold=BOLD, italic=REGULAR, boldItalic=BOLD)
        for name in (REGULAR, FAMILY):
            addMapping(name, 0, 0, REGULAR)
            addMapping(name, 1, 0, BOLD)
            addMapping(name, 0, 1, REGULAR)
            addMapping(name, 1, 1, BOLD)
        _registered = True
