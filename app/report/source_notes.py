"""A table's sources cited once: each distinct source gets a number in first-use order, the table's rows refer to
it by a short marker (``[1]``) and the numbered sources are listed once under the table (title, section and
address as the source gives them; every web address a link, broken only between its parts by
``app.report.links.LinkedText``).

A large report repeats one citation in many rows (the data-reduction band's published source in each of 200
workload rows, the capacity steps' ONTAP documentation in each system's step table); cited once per table, the
reader finds it once and the PDF holds each address's link once per table instead of once per row.

The notes stay with the table they number (:meth:`SourceNotes.under`, :class:`KeptWithRows`): when they do not fit
under the table at a page's foot, the table's last rows go to the next page with them, so notes never open a page
alone, away from the rows that cite them.
"""

from __future__ import annotations

from reportlab.platypus import CondPageBreak, Flowable, Spacer, Table
from reportlab.platypus.doctemplate import ActionFlowable, FrameBreak

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


    def under(self, table: Table, font: str, size: float, leading: float, colour: object) -> list[Flowable]:
        """``table`` and its notes (:meth:`flowables`) as the story's flowables, the notes kept with at least the
        table's last :data:`TAIL_ROWS` rows (:class:`KeptWithRows`); the table alone when it cites nothing."""
        notes = self.flowables(font, size, leading, colour)
        return [KeptWithRows(table, notes)] if notes else [table]


    def above(self, table: Table, lead: Flowable, font: str, size: float, leading: float,
              colour: object) -> list[Flowable]:
        """``lead`` (a line that introduces the notes, e.g. "Sources cited by number in the table below:"), the
        notes (:meth:`flowables`) and then ``table``, starting on a new page unless the lead, the notes and about
        :data:`FIRST_ROWS_ROOM` points of the table's first rows fit where they stand: for a table of many pages,
        whose reader would otherwise meet the notes only after its last row. The table alone when it cites
        nothing. (Room is checked, not the table wrapped twice: a 200-row table's wrap is what its export costs.)"""
        notes = self.flowables(font, size, leading, colour)
        if not notes:
            return [table]
        return [_RoomFor([lead, *notes], FIRST_ROWS_ROOM), lead, *notes, table]


FIRST_ROWS_ROOM = 90.0
"""Points kept free below notes printed above a table: its header and first row (the band table's header is three
lines, a row four lines of small text)."""


class _RoomFor(CondPageBreak):
    """A page break unless ``flowables`` (wrapped to the frame's width) and ``extra`` points fit where it stands."""

    def __init__(self, flowables: list[Flowable], extra: float) -> None:
        super().__init__(extra)
        self._flowables = flowables
        self._extra = extra

    def wrap(self, availWidth, availHeight):
        self.height = self._extra + sum(f.wrapOn(self.canv, availWidth, availHeight)[1] for f in self._flowables)
        return super().wrap(availWidth, availHeight)


TAIL_ROWS = 2
"""Rows of a table that go to the next page with its notes when the notes do not fit under the whole table."""


class KeptWithRows(Flowable):
    """A table and the notes under it, laid out as they come, except that the notes never start a page alone.

    Where the whole fits, it is drawn as it is (each part wrapped once, as a table on its own would be); where the
    table runs onto the next page, its last part carries the notes there; where the table fits but its notes do
    not, the table splits before its last ``tail`` rows (its header rows repeat), which open the next page with the
    notes. At the top of a page, or with a table too short to split, the table and notes go as plain flowables
    (the notes then split between notes)."""

    def __init__(self, table: Table, notes: list[Flowable], tail: int = TAIL_ROWS) -> None:
        super().__init__()
        self._content: list[Flowable] = [table, *notes]
        self._tail = tail
        self._wrapped: tuple[tuple[float, float], list[float]] | None = None

    def _heights(self, aW: float, aH: float) -> list[float]:
        """Each part's height wrapped to ``aW`` x ``aH`` points with its space before and after (cached)."""
        if self._wrapped is None or self._wrapped[0] != (aW, aH):
            heights = [f.wrapOn(self.canv, aW, aH)[1] + f.getSpaceBefore() + f.getSpaceAfter()
                       for f in self._content]
            self._wrapped = ((aW, aH), heights)
        return self._wrapped[1]

    def wrap(self, availWidth, availHeight):
        """The table and notes one under the other: (width, total height) in points."""
        self.width, self.height = availWidth, sum(self._heights(availWidth, availHeight))
        return self.width, self.height

    def draw(self) -> None:
        """The table, then the notes under it (when the whole fits where it stands)."""
        assert self._wrapped is not None
        y = self.height
        for f, height in zip(self._content, self._wrapped[1], strict=True):
            y -= height
            f.drawOn(self.canv, 0, y + f.getSpaceAfter())

    def split(self, aW, aH):
        """reportlab's split at a page break (``aW`` x ``aH`` points left in the frame): the whole when it fits or
        stands at the top of a frame; else the table's rows that fit, then a frame break, then its last rows (at
        least ``tail``, header repeated) with the notes on the next page; or a frame break before the whole."""
        table, *notes = self._content
        frame = getattr(self, "_frame", None)
        at_top = frame is not None and getattr(frame, "_atTop", False)
        heights = self._heights(aW, aH)
        if sum(heights) <= aH:
            return list(self._content)
        rows = list(getattr(table, "_rowHeights", None) or [])
        header = table.repeatRows if isinstance(table.repeatRows, int) else len(table.repeatRows)
        keep = len(rows) - self._tail  # rows that may stay above the page break
        if heights[0] > aH:  # the table runs on: its last part takes the notes along, with its last rows at least
            parts = [f for f in table.splitOn(self.canv, aW, aH) if not isinstance(f, ActionFlowable)]
            if len(parts) == 2 and len(parts[0]._cellvalues) > keep > header:
                parts = self._split_before(table, aW, sum(rows[:keep])) or parts
            if len(parts) >= 2:  # the rest on the next page, whatever room the first part left
                return [*parts[:-1], FrameBreak(), KeptWithRows(parts[-1], notes, self._tail)]
            return list(self._content) if at_top else [FrameBreak(), *self._content]
        if at_top:
            return list(self._content)
        if keep > header:  # the table fits, its notes do not: its last rows open the next page with them
            parts = self._split_before(table, aW, sum(rows[:keep]))
            if parts:
                return [parts[0], FrameBreak(), KeptWithRows(parts[1], notes, self._tail)]
        return [FrameBreak(), *self._content]

    def _split_before(self, table: Table, aW: float, height: float) -> list[Flowable]:
        """``table`` split after the rows that fill ``height`` points (its header rows repeat in the second
        part): the two parts, or [] when it does not split there."""
        cut = height + table.getSpaceBefore() + 0.01
        parts = [f for f in table.splitOn(self.canv, aW, cut) if not isinstance(f, ActionFlowable)]
        return parts if len(parts) == 2 else []


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
