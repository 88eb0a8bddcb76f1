"""Bounded, hostile-safe reading of the spreadsheets and CSV files the environment readers take: a workbook is
checked as a zip archive (size, member count, declared uncompressed sizes, compression ratios) before openpyxl
opens it, read in read-only mode (rows streamed, formulas read as their text and never evaluated), under a row cap
and a time budget; columns are found by name (aliases across versions, spaces and case ignored), never by
position. Every refusal is one :class:`~models.importers.inventory.InventoryError` naming the file (its name, never
its folder), the sheet and what is missing."""

from __future__ import annotations

import io
import math
import re
import time
import zipfile
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.etree.ElementTree import ParseError

from models.bounded_read import CsvLimits, FileRefusedError, csv_rows, detect_delimiter, read_bytes
from models.importers.inventory import ImportFlag, InventoryError

MAX_FILE_BYTES = 200 * 2**20
"""Largest workbook or CSV file accepted (bytes)."""
MAX_UNCOMPRESSED_BYTES = 2 * 2**30
"""Largest total of the uncompressed sizes a workbook's zip archive declares (bytes)."""
MAX_SHARED_STRINGS_BYTES = 256 * 2**20
"""Largest uncompressed shared-strings part (openpyxl holds it in memory whole)."""
MAX_RATIO = 100.0
"""Largest compression ratio of a zip member above :data:`RATIO_FLOOR_BYTES` (real sheets compress 10 to 20 times;
a zip bomb a thousand times)."""
RATIO_FLOOR_BYTES = 16 * 2**20
MAX_MEMBERS = 10_000
MAX_ROWS = 2_000_000
"""Rows read from one sheet at most (blank rows included)."""
MAX_COLUMNS = 2_000
"""Columns of a header row considered at most."""
SECONDS = 120.0
"""Time budget for reading one file (wall clock)."""
MAX_CSV_FILES = 200
EXABYTE = 10**18
"""Capacities beyond this (bytes) are refused as absurd."""

_SPACES = re.compile(r"\s+")


def norm(name: object) -> str:
    """A header as compared: surrounding spaces dropped, inner runs of white space made one space, case folded."""
    return _SPACES.sub(" ", str(name)).strip().casefold()


def text(value: object) -> str:
    """A cell's value as text ("" for an empty cell; a formula is its text, never its result)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    inner = getattr(value, "text", None)  # openpyxl's ArrayFormula / DataTableFormula
    return (inner if isinstance(inner, str) else str(value)).strip()


def number(value: object) -> float | None | str:
    """A cell's value as a finite number, None for an empty cell, or a reason (str) it is not one."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "a true/false value, not a number"
    if isinstance(value, int | float):
        x = float(value)
    else:
        s = text(value)
        if not s:
            return None
        if s.startswith("="):
            return f"a formula ({s[:40]}), not a number (formulas are never evaluated)"
        try:
            x = float(s)
        except ValueError:
            return f"{s[:40]!r} is not a number"
    if not math.isfinite(x):
        return "not a finite number"
    return x


def flag_text(value: object) -> str:
    """A value as a flag message quotes it."""
    s = text(value)
    return s if len(s) <= 40 else s[:37] + "..."


@dataclass
class Sheet:
    """One table of a workbook or one CSV file: its header, found by name, and its data rows streamed.

    Attributes:
        file: the file's name; name: the sheet's name ("" for a CSV file, which names its tab by its column prefix);
        header: the header cells as the source spells them; header_row: its 1-based row;
        rows: (1-based row number, cells) for every data row after the header.
    """

    file: str
    name: str
    header: list[str]
    header_row: int
    rows: Iterator[tuple[int, Sequence[Any]]]
    index: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for k, h in enumerate(self.header):
            if h:
                self.index.setdefault(norm(h), k)

    def col(self, *aliases: str) -> int | None:
        """The index of the first of ``aliases`` the header has (None when it has none)."""
        for a in aliases:
            k = self.index.get(norm(a))
            if k is not None:
                return k
        return None

    def label(self, k: int | None) -> str:
        """Column ``k``'s header as the source spells it ("" for None)."""
        return "" if k is None else self.header[k].strip()

    def need(self, *aliases: str) -> int:
        """The index of the first of ``aliases`` the header has.

        Raises:
            InventoryError: none of them: the message names the file, the sheet and the column (with its aliases).
        """
        k = self.col(*aliases)
        if k is None:
            others = f" (nor {', '.join(repr(a) for a in aliases[1:])})" if len(aliases) > 1 else ""
            where = f"sheet {self.name!r}" if self.name else "the header"
            raise InventoryError(f"{self.file}: {where} has no column {aliases[0]!r}{others}")
        return k

    def flag(self, row: int, k: int | None, message: str, refused: bool = True) -> ImportFlag:
        """An :class:`ImportFlag` for row ``row``, column ``k`` of this sheet."""
        return ImportFlag(self.file, self.name, row, self.label(k), message, refused)


def cell(row: Sequence[Any], k: int | None) -> Any:
    """Cell ``k`` of ``row`` (None for a missing column or a short row)."""
    return row[k] if k is not None and k < len(row) else None


def bytes_of(row: Sequence[Any], k: int | None, scale: float, sheet: Sheet, line: int,
             flags: list[ImportFlag]) -> int | None:
    """A capacity cell in the source's unit (``scale`` bytes each) as bytes; None when empty, or when absurd
    (negative, not a finite number, beyond 1 EB), then with a flag: the value is left out, never summed in."""
    if k is None:
        return None
    x = number(cell(row, k))
    if x is None:
        return None
    if isinstance(x, str):
        flags.append(sheet.flag(line, k, f"{x}: left out"))
        return None
    b = x * scale
    if x < 0 or b > EXABYTE:
        flags.append(sheet.flag(line, k, f"{x:g} is {'negative' if x < 0 else 'beyond 1 EB'}: left out"))
        return None
    return round(b)


def check_zip(path: Path, data: bytes) -> None:
    """Refuse a workbook whose zip archive is not one, or declares more than the limits (a zip bomb).

    Raises:
        InventoryError: naming the file and what is wrong.
    """
    name = path.name
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            infos = z.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError):
        raise InventoryError(f"{name}: not a complete xlsx workbook (the file is truncated, damaged or not a "
                             "workbook)") from None
    if len(infos) > MAX_MEMBERS:
        raise InventoryError(f"{name}: the workbook holds {len(infos):,} parts, more than {MAX_MEMBERS:,}: refused")
    total = sum(i.file_size for i in infos)
    if total > MAX_UNCOMPRESSED_BYTES:
        raise InventoryError(f"{name}: the workbook unpacks to {total / 2**30:.3g} GiB, more than the "
                             f"{MAX_UNCOMPRESSED_BYTES / 2**30:g} GiB accepted (a zip bomb?): refused")
    for i in infos:
        ratio = i.file_size / max(i.compress_size, 1)
        if i.file_size > RATIO_FLOOR_BYTES and ratio > MAX_RATIO:
            raise InventoryError(f"{name}: part {i.filename!r} unpacks {ratio:,.0f} times its packed size (more than "
                                 f"{MAX_RATIO:g}: a zip bomb?): refused")
        if i.filename.lower().endswith("sharedstrings.xml") and i.file_size > MAX_SHARED_STRINGS_BYTES:
            raise InventoryError(f"{name}: its text table unpacks to {i.file_size / 2**20:,.0f} MiB, more than "
                                 f"{MAX_SHARED_STRINGS_BYTES / 2**20:g} MiB: refused")
    if not any(i.filename == "xl/workbook.xml" for i in infos):
        raise InventoryError(f"{name}: not an xlsx workbook (no workbook part in the archive)")


class Workbook:
    """A workbook opened for bounded reading (:func:`open_workbook`); sheets found by name, case and spaces ignored.

    Attributes:
        file: the file's name; sheet_names: its sheets as the file spells them.
    """

    def __init__(self, path: Path, book: Any) -> None:
        self.file = path.name
        self._book = book
        self.sheet_names: list[str] = list(book.sheetnames)
        self._deadline = time.monotonic() + SECONDS

    def find(self, *names: str) -> str | None:
        """The first sheet of ``names`` the workbook has, as it spells it (None: none)."""
        by = {norm(s): s for s in self.sheet_names}
        for n in names:
            if norm(n) in by:
                return by[norm(n)]
        return None

    def missing(self, what: str) -> InventoryError:
        """The error for a workbook without sheet ``what`` (listing the sheets it has)."""
        have = ", ".join(repr(s) for s in self.sheet_names[:12]) + (", ..." if len(self.sheet_names) > 12 else "")
        return InventoryError(f"{self.file}: no sheet {what!r} (the workbook's sheets: {have or 'none'})")

    def sheet(self, name: str, key: Sequence[str] = ()) -> Sheet:
        """Sheet ``name`` (as :meth:`find` returns it): the header is the first of its first 20 rows holding one of
        ``key`` (any non-empty row when ``key`` is empty).

        Raises:
            InventoryError: no header row found, or the sheet cannot be read.
        """
        it = self._rows(self._book[name], name)
        keys = {norm(k) for k in key}
        for line, row in it:
            cells = [text(c) for c in row]
            if (keys and keys & {norm(c) for c in cells}) or (not keys and any(cells)):
                while cells and not cells[-1]:
                    cells.pop()
                return Sheet(self.file, name, cells, line, self._data(it, len(cells)))
            if line >= 20:
                break
        what = f"a header row with {key[0]!r}" if key else "a header row"
        raise InventoryError(f"{self.file}: sheet {name!r} has no {what} in its first 20 rows")

    def _rows(self, ws: Any, name: str) -> Iterator[tuple[int, Sequence[Any]]]:
        """(1-based row, cells) of the rows ``ws``'s XML holds, under the row cap and the time budget.

        openpyxl's own iteration fills the gaps between rows with blank rows (a sheet whose last, empty row is
        1,048,576 would cost a million blank rows): its sheet parser is read directly, so only the rows the file
        holds are seen, and a cell beyond :data:`MAX_COLUMNS` is ignored."""
        from openpyxl.worksheet._reader import WorkSheetParser

        book = self._book
        try:
            with ws._get_source() as src:
                parser = WorkSheetParser(src, ws._shared_strings, data_only=False, epoch=book.epoch,
                                         date_formats=book._date_formats,
                                         timedelta_formats=book._timedelta_formats)
                for count, (line, cells) in enumerate(parser.parse(), 1):
                    if count > MAX_ROWS:
                        raise InventoryError(f"{self.file}: sheet {name!r} has more than {MAX_ROWS:,} rows: refused")
                    if count % 4096 == 0 and time.monotonic() > self._deadline:
                        raise InventoryError(f"{self.file}: reading took longer than {SECONDS:g} s: stopped at sheet "
                                             f"{name!r}, row {line:,}")
                    width = min(max((c["column"] for c in cells), default=0), MAX_COLUMNS)
                    row: list[Any] = [None] * width
                    for c in cells:
                        if c["column"] <= width:
                            row[c["column"] - 1] = c["value"]
                    yield line, row
        except InventoryError:
            raise
        except (zipfile.BadZipFile, ParseError, KeyError, ValueError, TypeError, OSError, EOFError, zlib.error) as exc:
            raise InventoryError(f"{self.file}: sheet {name!r} cannot be read (damaged or truncated: "
                                 f"{type(exc).__name__})") from None

    @staticmethod
    def _data(it: Iterator[tuple[int, Sequence[Any]]], width: int) -> Iterator[tuple[int, Sequence[Any]]]:
        """The data rows after the header, cut to the header's width; blank rows skipped."""
        for line, row in it:
            cut = row[:width]
            if any(c is not None and c != "" for c in cut):
                yield line, cut

    def close(self) -> None:
        """Close the underlying archive."""
        self._book.close()


def open_workbook(path: Path) -> Workbook:
    """The workbook at ``path``, read-only, after the size and zip checks (:func:`check_zip`).

    Raises:
        InventoryError: not a regular file, larger than :data:`MAX_FILE_BYTES`, not a workbook, a zip bomb, or
            damaged (one line naming the file).
    """
    import openpyxl  # imported on use: the command line loads it only for an import

    try:
        data = read_bytes(path, MAX_FILE_BYTES, path.name)
    except FileRefusedError as exc:
        raise InventoryError(str(exc)) from None
    check_zip(path, data)
    try:
        book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=False, keep_links=False)
    except (zipfile.BadZipFile, ParseError, KeyError, ValueError, TypeError, OSError, EOFError, zlib.error,
            IndexError, AttributeError) as exc:
        raise InventoryError(f"{path.name}: not a readable xlsx workbook (damaged or truncated: "
                             f"{type(exc).__name__})") from None
    return Workbook(path, book)


def sheet_names(path: Path) -> list[str]:
    """The sheet names of the workbook at ``path`` (bounded and zip-checked like :func:`open_workbook`).

    Raises:
        InventoryError: as :func:`open_workbook`.
    """
    wb = open_workbook(path)
    try:
        return list(wb.sheet_names)
    finally:
        wb.close()


def csv_sheet(path: Path) -> Sheet:
    """A CSV file as a :class:`Sheet` (header on its first line; comma, semicolon or tab separated; UTF-8, a
    byte-order mark dropped, or Windows-1252 when not UTF-8).

    Raises:
        InventoryError: too large, not a regular file, control characters, malformed CSV, or empty.
    """
    try:
        data = read_bytes(path, MAX_FILE_BYTES, path.name)
    except FileRefusedError as exc:
        raise InventoryError(str(exc)) from None
    try:
        content = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        content = data.decode("cp1252", errors="replace")
    first = content.split("\n", 1)[0]
    delimiter = detect_delimiter(first)
    it = csv_rows(content, path.name, CsvLimits(MAX_ROWS, 1 << 20, SECONDS), delimiter)

    def rows() -> Iterator[tuple[int, Sequence[Any]]]:
        try:
            for line, cells in it:
                if any(c.strip() for c in cells):
                    yield line, cells
        except FileRefusedError as exc:
            raise InventoryError(str(exc)) from None

    stream = rows()
    try:
        line, header = next(stream)
    except StopIteration:
        raise InventoryError(f"{path.name}: the file is empty") from None
    return Sheet(path.name, "", [h.strip() for h in header], int(line), stream)
