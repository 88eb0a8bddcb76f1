"""Bounded, hostile-safe reading of the spreadsheets and CSV files the environment readers take: a workbook is
checked as a zip archive (size, member count, declared uncompressed sizes, compression ratios) before any part is
parsed, its sheets streamed a row at a time (formulas read as their text and never evaluated), under a row cap and a
time budget; columns are found by name (aliases across versions, spaces and case ignored), never by
position. Every refusal is one :class:`~models.importers.inventory.InventoryError` naming the file (its name, never
its folder), the sheet and what is missing."""

from __future__ import annotations

import html
import io
import math
import posixpath
import re
import time
import zipfile
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any
from xml.etree import ElementTree
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
MAX_MACHINES = 250_000
"""Machines one file may list (the largest vCenter holds some 45,000 VMs): a sheet of a million rows is refused
within bounded time and memory."""
MAX_COLUMNS = 2_000
"""Columns of a header row considered at most."""
SECONDS = 120.0
"""Time budget for reading one file (wall clock)."""
MAX_ROW_BYTES = 64 * 2**20
"""Longest XML of one sheet row accepted (bytes)."""
MAX_CSV_FILES = 200
EXABYTE = 10**18
"""Capacities beyond this (bytes) are refused as absurd."""

_SPACES = re.compile(r"\s+")
_ROOT_TAG = re.compile(rb"<([A-Za-z_][\w.-]*:)?worksheet\b[^>]*>")


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
    wanted: list[set[int] | None] = field(default_factory=lambda: [None])

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

    def only(self, *columns: int | None) -> None:
        """Read only ``columns`` (indices; None ignored) from the rows not read yet: a cell of another column is
        skipped unparsed (a workbook's rows hold it as None)."""
        self.wanted[0] = {k for k in columns if k is not None}

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


def check_count(sheet: Sheet, count: int) -> None:
    """Refuse a sheet once it has listed :data:`MAX_MACHINES` machines (``count`` read so far).

    Raises:
        InventoryError: naming the file and the sheet."""
    if count >= MAX_MACHINES:
        raise InventoryError(f"{sheet.file}: sheet {sheet.name!r} lists more than {MAX_MACHINES:,} machines: refused")


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

    The sheets' XML is streamed here (zipfile and the standard library's expat-based ``iterparse``), a row at a time:
    openpyxl's read-only mode parses every sheet whole at load time when the file gives no ``<dimension>`` (files
    openpyxl itself writes), fills the gaps between rows with blank rows (a last, empty row 1,048,576 costs a
    million) and spends some 10 microseconds on a cell, which put 10,000 RVTools VMs over 10 s. A cell holding a
    formula reads as its text ("=SUM(A1:A9)"), never its cached result; a document type declaration (the way to
    entity expansion) is refused.

    Attributes:
        file: the file's name; sheet_names: its sheets as the file spells them.
    """

    def __init__(self, path: Path, data: bytes) -> None:
        self.file = path.name
        self._zip = zipfile.ZipFile(io.BytesIO(data))
        self._deadline = time.monotonic() + SECONDS
        self._strings: list[str] | None = None
        root = self._tree("xl/workbook.xml")
        ns = root.tag[: root.tag.index("}") + 1] if root.tag.startswith("{") else ""
        targets = {}
        for rel in self._tree("xl/_rels/workbook.xml.rels"):
            target = rel.get("Target", "")
            part = target.lstrip("/") if target.startswith("/") else "xl/" + target
            targets[rel.get("Id", "")] = posixpath.normpath(part)
        self._parts: dict[str, str] = {}
        self.sheet_names: list[str] = []
        for s in root.iter(ns + "sheet"):
            rid = next((v for k, v in s.attrib.items() if k.endswith("}id")), "")
            name = s.get("name", "")
            if rid in targets:
                self._parts[name] = targets[rid]
                self.sheet_names.append(name)
        self._ns = ns

    def _open(self, part: str) -> IO[bytes]:
        """A part of the archive, refused when it declares a document type (entity expansion)."""
        handle = self._zip.open(part)
        head = handle.peek(4096)[:4096] if hasattr(handle, "peek") else b""
        if b"<!DOCTYPE" in head.upper() or b"<!ENTITY" in head.upper():
            handle.close()
            raise InventoryError(f"{self.file}: part {part!r} declares a document type (entity expansion): refused")
        return handle

    def _tree(self, part: str) -> Any:
        """The root element of a small part (workbook, relationships)."""
        try:
            with self._open(part) as handle:
                return ElementTree.parse(handle).getroot()
        except InventoryError:
            raise
        except (KeyError, ParseError, zipfile.BadZipFile, zlib.error, EOFError, OSError) as exc:
            raise InventoryError(f"{self.file}: not a readable xlsx workbook (its part {part!r} is missing or "
                                 f"damaged: {type(exc).__name__})") from None

    def strings(self) -> list[str]:
        """The shared-strings table (read once, on first use)."""
        if self._strings is not None:
            return self._strings
        out: list[str] = []
        part = next((i.filename for i in self._zip.infolist() if i.filename.lower() == "xl/sharedstrings.xml"), None)
        if part is not None:
            try:
                with self._open(part) as handle:
                    si, t, rph = self._ns + "si", self._ns + "t", self._ns + "rPh"
                    for _, el in ElementTree.iterparse(handle):
                        if el.tag == si:
                            if el.find(rph) is None:
                                out.append("".join(x.text or "" for x in el.iter(t)))
                            else:  # phonetic runs (East Asian readings) are not the text
                                out.append("".join(x.text or "" for x in el if x.tag == t)
                                           + "".join(y.text or "" for x in el if x.tag != rph and x.tag != t
                                                     for y in x.iter(t)))
                            el.clear()
            except (ParseError, zipfile.BadZipFile, zlib.error, EOFError, OSError) as exc:
                raise InventoryError(f"{self.file}: its text table cannot be read (damaged or truncated: "
                                     f"{type(exc).__name__})") from None
        self._strings = out
        return out

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
        wanted: list[set[int] | None] = [None]
        it = self._rows(name, wanted)
        keys = {norm(k) for k in key}
        for line, row in it:
            cells = [text(c) for c in row]
            if (keys and keys & {norm(c) for c in cells}) or (not keys and any(cells)):
                while cells and not cells[-1]:
                    cells.pop()
                return Sheet(self.file, name, cells, line, self._data(it, len(cells)), wanted=wanted)
            if line >= 20:
                break
        what = f"a header row with {key[0]!r}" if key else "a header row"
        raise InventoryError(f"{self.file}: sheet {name!r} has no {what} in its first 20 rows")

    def _pieces(self, handle: IO[bytes]) -> Iterator[tuple[bytes, bytes, bytes, bytes]]:
        """Batches of whole ``<row>`` elements of a sheet's XML: (namespace prefix, root opening tag, root closing
        tag, batch). The stream is cut after a closing ``</row>`` (which cannot occur inside text: it would be
        escaped), about a MiB at a time; a row longer than :data:`MAX_ROW_BYTES` is refused."""
        buf = b""
        eof = False
        while not eof and b"sheetData" not in buf:
            chunk = handle.read(1 << 20)
            eof = not chunk
            buf += chunk
            if len(buf) > MAX_ROW_BYTES:
                break
        root = _ROOT_TAG.search(buf)
        if root is None:
            raise ParseError("no worksheet element")
        prefix = root.group(1) or b""
        start = re.compile(rb"<" + re.escape(prefix) + rb"sheetData\b[^>]*?(/?)>").search(buf, root.end())
        if start is None or start.group(1):
            return
        opening, closing = root.group(0), b"</" + prefix + b"worksheet>"
        row_end, data_end = b"</" + prefix + b"row>", b"</" + prefix + b"sheetData>"
        buf = buf[start.end():]
        while True:
            k = buf.rfind(row_end)
            if k >= 0 and (k + len(row_end) >= 1 << 20 or eof):
                piece, buf = buf[: k + len(row_end)], buf[k + len(row_end):]
                yield prefix, opening, closing, piece
                continue
            if eof:
                tail = buf.split(data_end, 1)[0]
                if tail.strip():
                    yield prefix, opening, closing, tail
                return
            if len(buf) > MAX_ROW_BYTES:
                raise InventoryError(f"{self.file}: a row of more than {MAX_ROW_BYTES // 2**20} MiB: refused")
            chunk = handle.read(1 << 20)
            eof = not chunk
            buf += chunk

    def _rows(self, name: str, wanted: list[set[int] | None]) -> Iterator[tuple[int, Sequence[Any]]]:
        """(1-based row, cells) of the rows the sheet's XML holds, under the row cap and the time budget; a cell
        beyond :data:`MAX_COLUMNS`, or outside ``wanted[0]`` when that is a set, is skipped.

        A batch of rows is scanned with regular expressions (a cell's reference, type, value, formula or inline
        text; XML character references decoded), a third of expat's time; a batch holding CDATA or comments is
        parsed by expat instead."""
        part = self._parts[name]
        count = 0
        columns = _Columns(wanted)
        try:
            strings = self.strings()
            with self._open(part) as handle:
                for prefix, opening, closing, piece in self._pieces(handle):
                    scanned = None
                    if b"<![CDATA[" not in piece and b"<!--" not in piece:
                        scanned = _scan_rows(piece, prefix, columns, strings)
                    rows = self._expat_rows(opening + piece + closing, columns, strings) if scanned is None else scanned
                    for line, row in rows:
                        count += 1
                        if count > MAX_ROWS:
                            raise InventoryError(f"{self.file}: sheet {name!r} has more than {MAX_ROWS:,} rows: "
                                                 "refused")
                        if count % 4096 == 0 and time.monotonic() > self._deadline:
                            raise InventoryError(f"{self.file}: reading took longer than {SECONDS:g} s: stopped at "
                                                 f"sheet {name!r}, row {count:,}")
                        yield line or count, row
        except InventoryError:
            raise
        except (zipfile.BadZipFile, ParseError, KeyError, ValueError, IndexError, OSError, EOFError,
                zlib.error) as exc:
            raise InventoryError(f"{self.file}: sheet {name!r} cannot be read (damaged or truncated: "
                                 f"{type(exc).__name__})") from None

    def _expat_rows(self, document: bytes, columns: _Columns, strings: list[str]) -> Iterator[tuple[int, list[Any]]]:
        """The rows of a batch parsed by expat (a batch the scanner leaves alone)."""
        ns = self._ns
        row_tag, c_tag, v_tag, f_tag, is_tag, t_tag = (ns + t for t in ("row", "c", "v", "f", "is", "t"))
        for el in ElementTree.fromstring(document):
            if el.tag != row_tag:
                continue
            r = el.get("r") or ""
            row: list[Any] = []
            columns.start_row()
            for c in el:
                if c.tag != c_tag:
                    continue
                k = columns.index(c.get("r") or "")
                if k < 0:
                    continue
                f = c.find(f_tag)
                box = c.find(is_tag)
                inline = None if box is None else "".join(t.text or "" for t in box.iter(t_tag))
                value = _value(c.get("t"), None if f is None else f.text or "", c.findtext(v_tag), inline, strings)
                if value is not None:
                    row.extend([None] * (k + 1 - len(row)))
                    row[k] = value
            yield int(r) if r.isdigit() else 0, row

    @staticmethod
    def _data(it: Iterator[tuple[int, Sequence[Any]]], width: int) -> Iterator[tuple[int, Sequence[Any]]]:
        """The data rows after the header, cut to the header's width; blank rows skipped."""
        for line, row in it:
            cut = row[:width]
            if any(c is not None and c != "" for c in cut):
                yield line, cut

    def close(self) -> None:
        """Close the archive."""
        self._zip.close()


class _Columns:
    """Column indices of cell references, cached by their letters; -1 for a column not read (beyond
    :data:`MAX_COLUMNS` or outside the reader's choice, ``wanted[0]``, once it made one)."""

    def __init__(self, wanted: list[set[int] | None]) -> None:
        self.wanted = wanted
        self.keep: set[int] | None = None
        self.cache: dict[str, int] = {}
        self.bytes_cache: dict[bytes, int] = {}
        self.position = 0

    def start_row(self) -> None:
        """A new row: a cell without a reference follows the previous one."""
        self.position = 0
        if self.wanted[0] is not self.keep:
            self.keep, self.cache, self.bytes_cache = self.wanted[0], {}, {}

    def index(self, ref: str) -> int:
        """The column of a cell with reference ``ref`` ("" for none: the next column), or -1 to skip it."""
        if ref:
            letters = ref.rstrip("0123456789")
            k = self.cache.get(letters)
            if k is None:
                k = _column_index(letters)
                if k >= MAX_COLUMNS or (self.keep is not None and k not in self.keep):
                    k = -1
                self.cache[letters] = k
            if k >= 0:
                self.position = k + 1
            return k
        k = self.position
        self.position += 1
        return -1 if k >= MAX_COLUMNS or (self.keep is not None and k not in self.keep) else k


_ATTR_T = re.compile(rb"""\bt\s*=\s*["']([^"']*)["']""")


def _patterns(prefix: bytes) -> tuple[re.Pattern[bytes], ...]:
    """The scanner's patterns for a namespace prefix (b"" for the default namespace): a cell whose first attribute
    is its reference (``<c r="B7" ...>``: how Excel, RVTools and openpyxl write cells), its value, formula and
    inline text, and a phonetic run."""
    cached = _PATTERNS.get(prefix)
    if cached is None:
        p = re.escape(prefix)

        def element(tag: bytes) -> re.Pattern[bytes]:
            return re.compile(rb"<" + p + tag + rb"\b[^>]*?(?:/>|>(.*?)</" + p + tag + rb">)", re.S)

        # a cell's content stops at the next cell's start or end (no run past a missing </c>: linear time)
        inner = rb"([^<]*(?:<(?!/?" + p + rb"c[\s>/])[^<]*)*)"
        cell = re.compile(rb"<" + p + rb'c r="([A-Z]{1,3})([0-9]{1,7})"([^>]*?)(?:/>|>' + inner + rb"</" + p + rb"c>)")
        cached = (cell, element(b"v"), element(b"f"), element(b"t"),
                  re.compile(rb"<" + p + rb"rPh\b.*?</" + p + rb"rPh>", re.S))
        _PATTERNS[prefix] = cached
    return cached


_PATTERNS: dict[bytes, tuple[re.Pattern[bytes], ...]] = {}


def _xml_text(raw: bytes) -> str:
    """Element text as the scanner found it: UTF-8 decoded, character and entity references resolved."""
    s = raw.decode("utf-8", errors="replace")
    return html.unescape(s) if "&" in s else s


def _value(kind: str | None, formula: str | None, v: str | None, inline: str | None, strings: list[str]) -> Any:
    """A cell's value from its type attribute, formula text, ``<v>`` text and inline text: a formula is its text
    ("=" first, never evaluated); None for an empty cell."""
    if formula is not None:
        return "=" + formula
    if kind == "inlineStr":
        return inline or ""
    if v is None:
        return None
    if kind == "s":
        return strings[int(v)]
    if kind in ("str", "e", "d"):
        return v
    if kind == "b":
        return v.strip() == "1"
    return float(v)


def _scan_rows(piece: bytes, prefix: bytes, columns: _Columns,
               strings: list[str]) -> list[tuple[int, list[Any]]] | None:
    """The rows of a batch of row elements, scanned with regular expressions (:func:`_patterns`); None when a cell
    does not start with its reference (the batch is then left to expat). Rows without cells are left out."""
    cell_p, v_p, f_p, t_p, rph_p = _patterns(prefix)
    cells = cell_p.findall(piece)
    if len(cells) != piece.count(b"<" + prefix + b"c ") + piece.count(b"<" + prefix + b"c>"):
        return None
    out: list[tuple[int, list[Any]]] = []
    current = b""
    row: list[Any] = []
    cache: dict[bytes, int] = {}
    for letters, digits, attrs, inner in cells:
        if digits != current:
            if current:
                out.append((int(current), row))
            current, row = digits, []
            columns.start_row()
            cache = columns.bytes_cache
        k = cache.get(letters)
        if k is None:
            k = columns.index(letters.decode("ascii"))
            cache[letters] = k
        if k < 0:
            continue
        kind_m = _ATTR_T.search(attrs) if attrs else None
        kind = kind_m.group(1).decode("ascii", errors="replace") if kind_m else None
        fm = f_p.search(inner) if inner else None
        formula = None if fm is None else _xml_text(fm.group(1) or b"")
        inline = None
        if kind == "inlineStr":
            text_of = rph_p.sub(b"", inner) if b"rPh" in inner else inner
            inline = "".join(_xml_text(t.group(1) or b"") for t in t_p.finditer(text_of))
        vm = v_p.search(inner) if inner else None
        value = _value(kind, formula, None if vm is None else _xml_text(vm.group(1) or b""), inline, strings)
        if value is not None:
            if k >= len(row):
                row.extend([None] * (k + 1 - len(row)))
            row[k] = value
    if current:
        out.append((int(current), row))
    return out


def _column_index(letters: str) -> int:
    """0-based index of a column's letters ("A" -> 0, "AA" -> 26); a huge index for anything else."""
    k = 0
    for ch in letters.upper()[:4]:
        if not "A" <= ch <= "Z":
            return MAX_COLUMNS
        k = k * 26 + ord(ch) - 64
    return k - 1 if k else MAX_COLUMNS


def open_workbook(path: Path) -> Workbook:
    """The workbook at ``path``, after the size and zip checks (:func:`check_zip`).

    Raises:
        InventoryError: not a regular file, larger than :data:`MAX_FILE_BYTES`, not a workbook, a zip bomb, or
            damaged (one line naming the file).
    """
    try:
        data = read_bytes(path, MAX_FILE_BYTES, path.name)
    except FileRefusedError as exc:
        raise InventoryError(str(exc)) from None
    check_zip(path, data)
    try:
        return Workbook(path, data)
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError) as exc:
        raise InventoryError(f"{path.name}: not a readable xlsx workbook (damaged or truncated: "
                             f"{type(exc).__name__})") from None


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
