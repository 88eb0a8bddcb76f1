"""A table's sources cited once: each distinct source gets a number in first-use order, the table's rows refer to
it by a short marker (``[1]``) and the numbered sources are listed once under the table (title, section and
address as the source gives them; every web address a link, broken only between its parts by
``app.report.links.LinkedText``).

A large report repeats one citation in many rows (the data-reduction band's published source in each of 200
workload rows, the capacity steps' ONTAP documentation in each system's step table); cited once per table, the
reader finds it once and the PDF holds each address's link once per table instead of once per row.
"""

from __future__ import annotations

from reportlab.platypus import Flowable, Spacer

from app.report.links import LinkedText


class SourceNotes:
    """The numbered sources of one table, in the order its rows first cite them."""

    def __init__(self) -> None:
        self._numbers: dict[str, int] = {}

    def marker(self, source: str) -> str:
        """The marker a row prints for ``source`` (plain text): ``[n]``, the same n for the same text; "" for an
        empty source (nothing cited)."""
        source = source.strip()
        if not source:
            return ""
        number = self._numbers.setdefault(source, len(self._numbers) + 1)
        return f"[{number}]"

    def __len__(self) -> int:
        return len(self._numbers)

    def notes(self) -> list[str]:
        """Each source once, as the line under the table prints it: ``[n] source`` in number order."""
        return [f"[{n}] {source}" for source, n in self._numbers.items()]

    def flowables(self, font: str, size: float, leading: float, colour: object) -> list[Flowable]:
        """The notes as flowables for under the table (``font`` and ``size`` / ``leading`` in points, ``colour``
        a reportlab colour): one block of the notes, which splits between notes across pages; none when the table
        cites nothing."""
        if not self._numbers:
            return []
        return [Spacer(1, 2), _Notes([LinkedText(note, font, size, leading, colour) for note in self.notes()])]


class _Notes(Flowable):
    """Notes one under the other as one flowable (a large report has thousands of notes: one flowable per table
    instead of one per note); splits between notes."""

    def __init__(self, notes: list[LinkedText]) -> None:
        super().__init__()
        self.notes = notes
        self._heights: list[float] = []

    def wrap(self, availWidth, availHeight):
        """Each note wrapped to ``availWidth`` points; returns (width, total height) in points."""
        self._heights = [note.wrap(availWidth, availHeight)[1] for note in self.notes]
        self.width, self.height = availWidth, sum(self._heights)
        return self.width, self.height

    def split(self, availWidth, availHeight):
        """The notes that fit in ``availHeight`` points and the rest; [] when not even the first fits."""
        self.wrap(availWidth, availHeight)
        used, fit = 0.0, 0
        for height in self._heights:
            if used + height > availHeight:
                break
            used, fit = used + height, fit + 1
        if fit == 0 or fit == len(self.notes):
            return [] if fit == 0 else [self]
        return [_Notes(self.notes[:fit]), _Notes(self.notes[fit:])]

    def draw(self) -> None:
        """Each note on the canvas, the first at the top."""
        y = self.height
        for note, height in zip(self.notes, self._heights, strict=True):
            y -= height
            note.drawOn(self.canv, 0, y)
