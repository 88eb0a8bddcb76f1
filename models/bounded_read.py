"""Bounded reading of the files a user hands StorPlan (price books, lab data, the user catalog).

One way in for a file of unknown origin, so that no file can hang a command, fill the memory or reach a parser
unchecked:

* :func:`read_bytes` opens a path only when ``os.stat`` says it is a regular file (a device such as
  ``/dev/zero``, a FIFO, a socket or a directory is refused without being opened), opens it with ``O_NONBLOCK``
  (a FIFO swapped in after the check still cannot block) and checks the open file again, then reads at most
  ``max_bytes`` + 1 bytes: a larger file is refused before any parsing.
* :func:`read_text` decodes UTF-8 (a byte-order mark is dropped), naming the line and column of a bad byte.
* :func:`refuse_controls` refuses control characters other than tab, line feed and carriage return.
* :func:`csv_rows` reads CSV text with the standard :mod:`csv` module (RFC 4180 quoting: a doubled quote inside a
  quoted field is one quote) under a row limit, a field-size limit and a time budget, turning the module's own
  errors (``_csv.Error``) into a :class:`FileRefusedError` naming the line.
* :func:`parse_toml` parses TOML after a nesting-depth check (deep nesting would exhaust the parser's recursion),
  naming the line of every problem.

Every refusal is a :class:`FileRefusedError`: one line naming the file, the line (or row) and the field when known.
"""

from __future__ import annotations

import io
import os
import re
import stat
import time
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

__all__ = ["CONTROL_CHARACTERS", "CsvLimits", "FileRefusedError", "csv_rows", "detect_delimiter", "parse_toml",
           "read_bytes", "read_text", "refuse_controls", "toml_too_deep"]


class FileRefusedError(ValueError):
    """A file refused by the bounded reader; ``str()`` is one line: ``<file>: line <n>: <field>: <problem>``.

    Attributes:
        origin: how the file is named (its path, or a caller's name for it); problem: what is wrong;
        line: the 1-based line (or CSV row) or None; field: the column or key, or "".
    """

    def __init__(self, origin: str, problem: str, line: int | None = None, field: str = "") -> None:
        self.origin, self.problem, self.line, self.field = origin, problem, line, field
        where = origin + (f": line {line}" if line is not None else "") + (f": {field}" if field else "")
        super().__init__(f"{where}: {problem}")


def _size_text(n: int) -> str:
    """``16 MiB``, ``200 KiB``, ``12 bytes``."""
    for unit, size in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return f"{n} bytes"


def _kind_of(mode: int) -> str:
    """What a non-regular file is, in words."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_bytes(path: str | Path, max_bytes: int, origin: str | None = None) -> bytes:
    """The bytes of a regular file of at most ``max_bytes`` bytes.

    Args:
        path: the file (a symbolic link is followed to what it names, which must be a regular file).
        max_bytes: the largest size accepted, in bytes.
        origin: how messages name the file (default: ``path``).

    Raises:
        FileRefusedError: missing or unreadable, not a regular file (device, FIFO, socket, folder: never opened, so
            nothing blocks or streams forever), or larger than ``max_bytes`` (checked on the size the file system
            reports and again on the bytes read, so a file that grows while read is refused too).
    """
    name = str(path) if origin is None else origin
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        raise FileRefusedError(name, f"cannot read the file: {exc.strerror or exc}") from None
    if not stat.S_ISREG(mode):
        raise FileRefusedError(name, f"{_kind_of(mode)}, not a regular file: refused")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0)
    flags |= getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise FileRefusedError(name, f"cannot read the file: {exc.strerror or exc}") from None
    with os.fdopen(fd, "rb", buffering=0) as handle:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):  # replaced between the check and the open
            raise FileRefusedError(name, f"{_kind_of(st.st_mode)}, not a regular file: refused")
        if st.st_size > max_bytes:
            raise FileRefusedError(name, f"the file is {_size_text(st.st_size)}, more than the {_size_text(max_bytes)} "
                              "this reader accepts")
        chunks: list[bytes] = []
        got = 0
        while got <= max_bytes:
            try:
                chunk = handle.read(min(1 << 20, max_bytes + 1 - got))
            except OSError as exc:
                raise FileRefusedError(name, f"cannot read the file: {exc.strerror or exc}") from None
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
        if got > max_bytes:
            raise FileRefusedError(name, f"the file holds more than the {_size_text(max_bytes)} this reader accepts")
    return b"".join(chunks)


def _line_col(text: str, pos: int) -> tuple[int, int]:
    """1-based line and column of character ``pos``."""
    return text.count("\n", 0, pos) + 1, pos - (text.rfind("\n", 0, pos) + 1) + 1


def read_text(path: str | Path, max_bytes: int, origin: str | None = None) -> str:
    """The UTF-8 text of a regular file of at most ``max_bytes`` bytes (:func:`read_bytes`); a leading byte-order
    mark is dropped.

    Raises:
        FileRefusedError: as :func:`read_bytes`, or a byte that is not UTF-8 (the message names its line and column).
    """
    name = str(path) if origin is None else origin
    data = read_bytes(path, max_bytes, name)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise FileRefusedError(name, f"column {column}: byte 0x{data[exc.start]:02x} is not UTF-8 text (save the file "
                          "as UTF-8)", line) from None


CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
"""Control characters refused in user text: C0 except tab, line feed and carriage return; DEL; C1. They print as
nothing, break spreadsheet exports (XML 1.0 forbids most of them) and are never part of a real value."""


def refuse_controls(text: str, origin: str) -> str:
    """``text`` unchanged when it holds no :data:`CONTROL_CHARACTERS`.

    Raises:
        FileRefusedError: naming the line and column of the first control character and its code (U+0000...).
    """
    found = CONTROL_CHARACTERS.search(text)
    if found is None:
        return text
    line, column = _line_col(text, found.start())
    raise FileRefusedError(origin, f"column {column}: control character U+{ord(found.group()):04X} (only tab and line "
                      "breaks are accepted)", line)


@dataclass(frozen=True)
class CsvLimits:
    """The limits :func:`csv_rows` reads under.

    Attributes:
        max_rows: data rows accepted (the header not counted); max_field_chars: characters in one field;
        seconds: time budget for the whole read (wall clock, checked every few thousand rows).
    """

    max_rows: int
    max_field_chars: int
    seconds: float = 2.0


def detect_delimiter(header: str, delimiters: str = ",;\t") -> str:
    """The delimiter of a CSV file from its header line: the one of ``delimiters`` that occurs most often outside
    double quotes (a comma on a tie or when none occurs)."""
    unquoted = re.sub(r'"[^"]*"', "", header)
    counts = {d: unquoted.count(d) for d in delimiters}
    best = max(counts, key=lambda d: (counts[d], d == ","))
    return best if counts[best] else ","


def csv_rows(text: str, origin: str, limits: CsvLimits, delimiter: str = ",",
             columns: list[str] | None = None) -> Iterator[tuple[int, list[str]]]:
    """The rows of CSV text, each with the line it starts on, under ``limits``.

    Args:
        text: the whole text (already bounded in size: :func:`read_text`); origin: how messages name the file;
        limits: rows, field size and time; delimiter: one character; columns: names of the columns, used to name
        a field in a message (the header row, once read).

    Yields:
        (line number of the row's first line, its fields) for every row, header included (line 1).

    Raises:
        FileRefusedError: a control character (:func:`refuse_controls`), more than ``limits.max_rows`` data rows, a
            field longer than ``limits.max_field_chars``, malformed CSV (the :mod:`csv` module's error, with its
            line), or past the time budget.
    """
    import csv  # here, not at import: every start reads its TOML through this module, few read a CSV

    refuse_controls(text, origin)
    # csv.excel is RFC 4180: double quotes, a doubled quote inside a quoted field is one quote
    reader = csv.reader(io.StringIO(text, newline=""), csv.excel, delimiter=delimiter)
    deadline = time.monotonic() + limits.seconds
    line = 1
    count = 0
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            if "field larger than field limit" in str(exc):
                raise FileRefusedError(origin, f"a field is longer than {limits.max_field_chars:,} characters (the "
                                  "limit)", reader.line_num) from None
            raise FileRefusedError(origin, f"not valid CSV ({exc})", reader.line_num) from None
        count += 1
        if count > limits.max_rows + 1:
            raise FileRefusedError(origin, f"more than {limits.max_rows:,} rows (the limit of this file)", line)
        if cells and max(map(len, cells)) > limits.max_field_chars:
            k = next(k for k, cell in enumerate(cells) if len(cell) > limits.max_field_chars)
            name = columns[k] if columns is not None and k < len(columns) else f"column {k + 1}"
            raise FileRefusedError(origin, f"{len(cells[k]):,} characters, more than the {limits.max_field_chars:,} "
                              "a field may hold", line, name)
        if count % 4096 == 0 and time.monotonic() > deadline:
            raise FileRefusedError(origin, f"reading took longer than {limits.seconds:g} s: stopped", line)
        yield line, cells
        line = reader.line_num + 1


@lru_cache(maxsize=1)
def _toml_token() -> re.Pattern[str]:
    """A TOML string, comment or bracket (compiled on first use: only a file the parser could not read is scanned)."""
    return re.compile(r'"""(?:[^\\]|\\.)*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*'
                      r"|[\[\]{}]")


def toml_too_deep(text: str, max_depth: int) -> int | None:
    """The line where arrays and inline tables of TOML ``text`` first nest deeper than ``max_depth``, or None.

    Brackets inside strings and comments are skipped; table headers (``[a]``, ``[[a]]``) count while open, so
    ``max_depth`` should be a few levels above what a valid file nests."""
    depth = 0
    for token in _toml_token().finditer(text):
        ch = token.group()
        if ch in "[{":
            depth += 1
            if depth > max_depth:
                return text.count("\n", 0, token.start()) + 1
        elif ch in "]}":
            depth = max(depth - 1, 0)
    return None


@lru_cache(maxsize=1)
def toml_line() -> re.Pattern[str]:
    """How :class:`tomllib.TOMLDecodeError` names the place of an error (Python 3.11-3.13 text); compiled on first
    use (only a file that is not valid TOML is refused with it)."""
    return re.compile(r"\(at line (\d+), column (\d+)\)")


def parse_toml(text: str, origin: str, max_depth: int = 64) -> dict[str, Any]:
    """TOML text as a dict; every problem a :class:`FileRefusedError` naming the line.

    Args:
        text: the TOML document; origin: how messages name the file; max_depth: the nesting reported when the
            parser runs out of recursion (deep nesting is found by :func:`toml_too_deep` only then: no cost on a
            valid file).

    Raises:
        FileRefusedError: invalid TOML (with tomllib's line and column), or arrays and tables nested too deep for the
            parser (with the line where the nesting passes ``max_depth``).
    """
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        found = toml_line().search(message)
        if found:
            problem = toml_line().sub("", message).strip()
            raise FileRefusedError(origin, f"column {found.group(2)}: not valid TOML: {problem}",
                              int(found.group(1))) from None
        raise FileRefusedError(origin, f"not valid TOML: {message}") from None
    except RecursionError:
        pass  # outside the handler: the traceback of the exhausted recursion is not kept
    raise FileRefusedError(origin, f"arrays or tables nested more than {max_depth} deep",
                           toml_too_deep(text, max_depth))
