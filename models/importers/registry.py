"""The environment readers by source, imported on use: source kind -> "module:function". Each function takes a
file path and returns an :class:`~models.importers.inventory.Inventory` or raises
:class:`~models.importers.inventory.InventoryError`; :func:`detect` tells which reader a file needs."""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Sequence
from pathlib import Path

from models.bounded_read import FileRefusedError, read_bytes
from models.importers.inventory import ImportFlag, Inventory, InventoryError
from models.importers.workbook import MAX_FILE_BYTES, norm, sheet_names

READERS: dict[str, str] = {
    "rvtools": "models.importers.rvtools:read_rvtools",
    "liveoptics": "models.importers.liveoptics:read_liveoptics",
    "azure-migrate": "models.importers.azure_migrate:read_azure_migrate",
    "ontap": "models.importers.ontap:read_ontap",
}
"""Source kind -> the reader's "module:function"."""


def reader(kind: str) -> Callable[..., Inventory]:
    """The reader function of source ``kind`` (a key of :data:`READERS`).

    Raises:
        InventoryError: ``kind`` is not a known source.
    """
    try:
        module, name = READERS[kind].split(":")
    except KeyError:
        raise InventoryError(f"unknown environment source {kind!r} (known: {', '.join(READERS)})") from None
    fn: Callable[..., Inventory] = getattr(importlib.import_module(module), name)
    return fn


WORKBOOK_SHEETS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("azure-migrate", ("All_VM_IaaS_Server_Rehost_Perf",)),
    ("liveoptics", ("VMs",)),
    ("rvtools", ("vInfo",)),
)
"""Source kind -> the sheets (all of them, case and spaces ignored) a workbook of that source holds: the sheets its
reader needs (Live Optics' VM Performance is optional: without it the machines have no performance figures)."""
COMPANION_SHEETS: dict[str, tuple[str, ...]] = {
    "liveoptics": ("VM Performance", "Details", "ESX Hosts", "VM Disks", "ESX Performance"),
}
"""Source kind -> sheets of which a workbook of that source holds at least one beside :data:`WORKBOOK_SHEETS` (a
sheet named "VMs" alone is too common a name to tell Live Optics by)."""

SOURCE_NAMES = {"rvtools": "RVTools", "liveoptics": "Live Optics", "azure-migrate": "Azure Migrate",
                "ontap": "ONTAP"}
"""Source kind -> the tool's name as messages spell it."""

_RVTOOLS_CSV = ("vInfoVMName", "vInfoProvisioned", "vInfoInUse")
_SNIFF_BYTES = 1 << 20


def detect(path: Path) -> str:
    """The source kind of ``path``, from its content (sheet names of a workbook, the header of a CSV file, the
    shape of a JSON or text file), never from its name alone.

    Args:
        path: a file, or a folder of RVTools CSV export files.

    Raises:
        InventoryError: the file is none of the known sources (the message says what was looked for), or it is
            refused by the bounded reader (too large, a zip bomb, damaged).
    """
    path = Path(path)
    if path.is_dir():
        for p in sorted(path.iterdir())[:200]:
            if p.is_file() and p.suffix.lower() == ".csv" and _csv_is_rvtools(p):
                return "rvtools"
        raise InventoryError(f"{path.name}: no RVTools CSV export file in the folder (a header with "
                             f"{_RVTOOLS_CSV[0]})")
    try:
        head = read_bytes(path, MAX_FILE_BYTES, path.name)[:_SNIFF_BYTES]
    except FileRefusedError as exc:
        raise InventoryError(str(exc)) from None
    if not head:
        raise InventoryError(f"{path.name}: empty (0 bytes)")
    if head[:4] == b"PK\x03\x04":
        names = sheet_names(path)
        have = {norm(s) for s in names}
        for kind, sheets in WORKBOOK_SHEETS:
            companions = COMPANION_SHEETS.get(kind, ())
            if all(norm(s) in have for s in sheets) and (
                    not companions or any(norm(s) in have for s in companions)):
                return kind
        looked = "; ".join(f"{SOURCE_NAMES[kind]}: {', '.join(sheets)}"
                           + (f" with one of {', '.join(COMPANION_SHEETS[kind])}" if kind in COMPANION_SHEETS else "")
                           for kind, sheets in WORKBOOK_SHEETS)
        found = ", ".join(repr(s) for s in names[:12]) + (f" and {len(names) - 12} more" if len(names) > 12 else "")
        raise InventoryError(f"{path.name}: a workbook of no known source (looked for the sheets {looked}; it has "
                             f"{found or 'no sheet'})")
    sample = head.decode("utf-8-sig", errors="replace")
    first = sample.lstrip()[:1]
    if any(name in sample.split("\n", 1)[0] for name in _RVTOOLS_CSV):
        return "rvtools"
    if first in "{[" and first and ('"records"' in sample or '"counter_schemas"' in sample
                                    or '"statistics"' in sample):
        return "ontap"
    if ("Object:" in sample and "Counter" in sample) or "\u00b7counter\u00b7" in sample.casefold():
        return "ontap"
    if re.search(r"^\s*Node\b.*\bModel\b|^\s*Model:\s*\S", sample, re.MULTILINE):
        return "ontap"  # system node show / system show: the installed controller's model
    what = _text_kind(head)
    named = ""
    if path.suffix.lower() in (".xlsx", ".xlsm") and not what.startswith("an "):
        what = what.removesuffix(BINARY_NOT)  # said once, after the name
        named = f" named {path.suffix.lower()}, not an xlsx workbook"
    raise InventoryError(f"{path.name}: {what}{named}: cannot tell which tool exported it (looked for the sheets of an "
                         "RVTools, Live Optics or Azure Migrate xlsx workbook, an RVTools CSV header, ONTAP REST JSON "
                         "or ONTAP statistics text)")


BINARY_NOT = ", not text or an xlsx workbook"
"""How :func:`_text_kind` ends its words for a binary file."""


def _text_kind(head: bytes) -> str:
    """What a file that is not an xlsx workbook is, in words, from its first bytes."""
    if head[:4] == b"PK\x03\x04":
        return "an xlsx workbook (a zip archive)"
    if head[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1":
        return "an old binary Excel (.xls) or Office file, not an xlsx workbook"
    try:
        sample = head[:65536].decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        if exc.start < 65536 - 4:
            return "a binary file" + BINARY_NOT
        sample = head[:exc.start].decode("utf-8-sig", errors="replace")
    first = sample.lstrip()[:1]
    lines = sample.lstrip().splitlines()[:5]
    if first in "{[" and first:
        return "a JSON file"
    for sep in (",", ";", "\t"):  # the same number of separators on each of the first lines: a table
        counts = {line.count(sep) for line in lines if line.strip()}
        if len(counts) == 1 and counts.pop() >= 1:
            return "a CSV (comma-separated text) file"
    return "a text file"


EXPECTED = {"rvtools": "an RVTools xlsx workbook or CSV export", "liveoptics": "a Live Optics xlsx workbook",
            "azure-migrate": "an Azure Migrate xlsx workbook", "ontap": "ONTAP counters (REST JSON or statistics text)"}
"""Source kind -> what a file of that source is, in words (:func:`check_source`)."""
_FOUND = {"rvtools": "an RVTools export", "liveoptics": "a Live Optics workbook",
          "azure-migrate": "an Azure Migrate workbook", "ontap": "an ONTAP counter file (REST JSON or statistics text)"}


def check_source(path: Path, kind: str) -> None:
    """Refuse ``path`` for the source ``kind`` the user named when it is plainly something else: empty, another
    known source's file, a workbook given as ONTAP text, or text given as a workbook (the message says what it is
    and what was expected). A file :func:`detect` cannot place is left to the reader.

    Raises:
        InventoryError: as above; or the file is refused by the bounded reader.
    """
    path = Path(path)
    if kind not in EXPECTED:
        raise InventoryError(f"unknown environment source {kind!r} (known: {', '.join(READERS)})")
    try:
        found = detect(path)
    except InventoryError as exc:
        if str(exc).endswith("empty (0 bytes)") or path.is_dir():
            raise
        try:
            head = read_bytes(path, MAX_FILE_BYTES, path.name)[:_SNIFF_BYTES]
        except FileRefusedError as refused:
            raise InventoryError(str(refused)) from None
        workbook = head[:4] == b"PK\x03\x04"
        if kind == "ontap" and workbook:
            raise InventoryError(f"{path.name}: an xlsx workbook, not {EXPECTED[kind]}") from None
        if kind != "ontap" and not workbook and not (kind == "rvtools" and _text_kind(head).startswith("a CSV")):
            raise InventoryError(f"{path.name}: {_text_kind(head)}, not {EXPECTED[kind]}") from None
        return
    if found != kind:
        what = _FOUND[found]
        if found == "ontap":
            try:
                head = read_bytes(path, MAX_FILE_BYTES, path.name)[:_SNIFF_BYTES]
            except FileRefusedError as refused:
                raise InventoryError(str(refused)) from None
            what = ("an ONTAP REST JSON file (as NetApp Harvest collects it)" if _text_kind(head) == "a JSON file"
                    else "ONTAP statistics text")
        raise InventoryError(f"{path.name}: {what}, not {EXPECTED[kind]} (leave out --source to read each "
                             "file as what it is)")


EMPTY_WHERE = {"rvtools": "sheet vInfo", "liveoptics": "sheet VMs",
               "azure-migrate": "sheet All_VM_IaaS_Server_Rehost_Perf", "ontap": "the counters"}
"""Source kind -> where its machines or volumes are listed (:func:`nothing_listed`)."""


def nothing_listed(inventory: Inventory) -> str:
    """The message for an inventory that lists no machine, volume or LUN (naming the file and the sheet); "" when
    it lists some."""
    if inventory.machines or inventory.volumes:
        return ""
    return (f"{inventory.file}: {EMPTY_WHERE.get(inventory.source, 'the file')} lists no machine, volume or LUN "
            "(only a header, or every row refused)")


def _csv_is_rvtools(path: Path) -> bool:
    """True when the first line of the CSV file at ``path`` names RVTools' internal vInfo columns."""
    try:
        head = read_bytes(path, MAX_FILE_BYTES, path.name)[:_SNIFF_BYTES]
    except FileRefusedError:
        return False
    line = head.decode("utf-8-sig", errors="replace").split("\n", 1)[0]
    return any(name in line for name in _RVTOOLS_CSV)


def flag_summary(flags: Sequence[ImportFlag], shown: int = 3) -> list[str]:
    """Lines that count the refused values and rows and the warnings of ``flags`` and name the first ``shown``
    refused ones by file, sheet, row and column ("5 value(s) in 3 row(s) (the rest of each row kept) refused; first:
    badvals.xlsx sheet vInfo row 2 column 'In Use MiB': -5 is negative: left out"); empty when there is no flag."""
    lines = []
    refused = [f for f in flags if f.refused]
    if refused:
        # review 57 #7: an ONTAP counter refused drops its volume's whole poll or interval, not one value
        spans = [f for f in refused if f.message.endswith(INTERVAL_LEFT_OUT)]
        cells = [f for f in refused if f.column and f not in spans]
        whole = {(f.file, f.sheet, f.row) for f in refused if not f.column}
        rows = {(f.file, f.sheet, f.row) for f in cells}
        parts = ([f"{len(cells):,} value(s) in {len(rows):,} row(s) (the rest of each row kept)"] if cells else []) \
            + ([f"{len(whole):,} row(s)"] if whole else [])
        said = [f"{' and '.join(parts)} refused"] if parts else []
        said += [_spans_words(spans)] if spans else []
        first = "; ".join(_where(f) + f": {f.message}" for f in refused[:shown])
        lines.append(f"{'; '.join(said)}; first: {first}")
    warned = [f for f in flags if not f.refused]
    if warned:
        rows = {(f.file, f.sheet, f.row) for f in warned}
        lines.append(f"{len(warned):,} value(s) in {len(rows):,} row(s) kept with a warning; first: "
                     + "; ".join(_where(f) + f": {f.message}" for f in warned[:shown]))
    return lines


INTERVAL_LEFT_OUT = (": interval left out", ": poll left out")
"""How the ONTAP reader's flags end when a volume's or LUN's whole poll or interval is left out."""


def _spans_words(spans: Sequence[ImportFlag]) -> str:
    """The ONTAP flags that left out a volume's (or LUN's) poll or interval, counted in words: "1 volume's
    interval" (all its figures for that interval, not one value)."""
    noun = "LUN" if all(f.message.startswith("LUN ") for f in spans) else "volume"
    many = len(spans) != 1
    return (f"{len(spans):,} {noun}s' intervals" if many else f"1 {noun}'s interval") + \
        " left out (all of its figures for the interval, not one value: no load for it)"


def _where(flag: ImportFlag) -> str:
    """A flag's place: file, sheet, row and column as the source spells them."""
    book = flag.file.lower().endswith((".xlsx", ".xlsm"))
    return (f"{flag.file}{(' sheet ' if book else ' ') + flag.sheet if flag.sheet else ''} "
            f"{'row' if flag.sheet else 'line'} {flag.row}" + (f" column {flag.column!r}" if flag.column else ""))
