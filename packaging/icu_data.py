"""A smaller ICU data library for the Linux bundle (used by ``storplan.spec``).

Qt Core on Linux links ICU, whose data library (``libicudata.so.73`` in the PySide6 wheel) holds the locale,
collation, time-zone-name and code-page data of every language: 32 MB. Qt calls ICU for four things only:
collation (``QCollator``), code-page converters (``QStringConverter`` beyond UTF-8/16/32 and Latin-1), time-zone
display names and locale-aware case mapping (whose tables are compiled into ``libicuuc``, not the data library).
:func:`subset_library` rebuilds the data library with the root and English locale data, the root collation, the
time-zone tables and the single-byte code pages (Windows-125x, ISO-8859-x, IBM/Mac ones; the multi-byte CJK and
EBCDIC tables go), and without the transliterators, number spell-out rules and line-break dictionaries Qt never
calls: about 4.5 MB. Another locale's collation or time-zone names fall back to the root (English) ones.

It needs ``readelf`` (binutils), ``icupkg`` (ICU's tools: Debian/Ubuntu ``icu-devtools``) and a C compiler (``cc``);
without them the bundle keeps the full library (see packaging/README.md).
"""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
from pathlib import Path

LOCALE = re.compile(r"^[a-z]{2,3}(_[A-Za-z0-9]*)*\.res$")
"""An item named after a locale (``de.res``, ``sr_Latn_BA.res``, ``de_.res``); other ``.res`` items are tables."""
KEPT_LOCALE = re.compile(r"^(root|en|en_[A-Za-z0-9_]+|res_index|pool)\.res$")
UNUSED_TREES = ("brkitr", "rbnf", "translit")
"""Break iterators (and their dictionaries), number spell-out rules, transliterators: Qt calls none of them."""
SINGLE_BYTE_MAX = 40_000
"""A converter table at most this large is a single-byte code page (kept); larger ones are multi-byte (left out)."""


def tools_present() -> bool:
    """Whether readelf, icupkg and cc are on PATH."""
    return all(shutil.which(tool) for tool in ("readelf", "icupkg", "cc"))


def data_blob(library: Path) -> tuple[str, bytes]:
    """The ICU common data inside ``library``: (its symbol, e.g. ``icudt73_dat``, the bytes)."""
    symbols = subprocess.run(["readelf", "-sW", str(library)], capture_output=True, text=True, check=True).stdout
    match = re.search(r"\s([0-9a-f]+)\s+(0x[0-9a-f]+|\d+)\s+OBJECT\s+GLOBAL\s+\S+\s+\S+\s+(icudt\d+_dat)\b", symbols)
    if match is None:
        raise ValueError(f"{library}: no icudtNN_dat symbol")
    address, size, symbol = int(match.group(1), 16), int(match.group(2), 0), match.group(3)
    sections = subprocess.run(["readelf", "-SW", str(library)], capture_output=True, text=True, check=True).stdout
    for line in sections.splitlines():
        fields = line.replace("[ ", "[").split()
        if len(fields) > 5 and fields[0].startswith("[") and fields[2] == "PROGBITS":
            start, offset, length = int(fields[3], 16), int(fields[4], 16), int(fields[5], 16)
            if start <= address < start + length:
                data = library.read_bytes()[offset + address - start: offset + address - start + size]
                return symbol, data
    raise ValueError(f"{library}: {symbol} is in no PROGBITS section")


def items(data: bytes) -> dict[str, int]:
    """The items of an ICU common data package: name (without the package prefix) -> size in bytes."""
    header = struct.unpack_from("<H", data, 0)[0]
    count = struct.unpack_from("<I", data, header)[0]
    entries = [struct.unpack_from("<II", data, header + 4 + 8 * i) for i in range(count)]
    out = {}
    for i, (name_at, data_at) in enumerate(entries):
        end = entries[i + 1][1] if i + 1 < count else len(data) - header
        name = data[header + name_at: data.index(b"\0", header + name_at)].decode("ascii")
        out[name.split("/", 1)[1]] = end - data_at
    return out


def unused(name: str, size: int) -> bool:
    """Whether Qt never needs the item ``name`` (see the module's docstring)."""
    tree, _, base = name.rpartition("/")
    if tree in UNUSED_TREES:
        return True
    if base.endswith(".cnv"):
        return size > SINGLE_BYTE_MAX
    return bool(LOCALE.match(base)) and not KEPT_LOCALE.match(base)


def subset_library(library: Path, work: Path) -> Path:
    """Build the smaller data library from ``library`` in ``work``; returns its path (same file name and soname).

    Raises:
        ValueError, OSError, subprocess.CalledProcessError: the library or a tool did not do what is expected.
    """
    symbol, data = data_blob(library)
    package = symbol.removesuffix("_dat") + "l"  # icudt73_dat -> icudt73l (l: little-endian, as x86-64 and arm64)
    work.mkdir(parents=True, exist_ok=True)
    (work / "full").mkdir(exist_ok=True)
    (work / "subset").mkdir(exist_ok=True)
    full, subset = work / "full" / f"{package}.dat", work / "subset" / f"{package}.dat"  # icupkg names items
    full.write_bytes(data)                                                                 # after the file
    remove = sorted(name for name, size in items(data).items() if unused(name, size))
    for _ in range(5):  # icupkg refuses to leave an item whose dependency is removed: remove those items too
        (work / "remove.txt").write_text("\n".join(remove) + "\n", encoding="ascii")
        run = subprocess.run(["icupkg", "-r", str(work / "remove.txt"), str(full), str(subset)],
                             capture_output=True, text=True)
        dependents = sorted(set(re.findall(r"Item (\S+) depends on missing item", run.stdout + run.stderr)))
        if not dependents:
            break
        remove += dependents
    if run.returncode != 0 or not subset.is_file():
        raise ValueError(f"icupkg failed: {run.stdout}{run.stderr}")
    source = work / "icudata.S"
    source.write_text(
        f"    .section .rodata\n    .globl {symbol}\n    .type {symbol}, @object\n    .balign 16\n{symbol}:\n"
        f'    .incbin "{subset}"\n    .size {symbol}, . - {symbol}\n    .section .note.GNU-stack,"",@progbits\n',
        encoding="ascii")
    out = work / library.name
    subprocess.run(["cc", "-shared", "-nostdlib", f"-Wl,-soname,{library.name}", "-o", str(out), str(source)],
                   check=True, capture_output=True)
    return out
