"""The environment readers by source, imported on use: source kind -> "module:function". Each function takes a
file path and returns an :class:`~models.importers.inventory.Inventory` or raises
:class:`~models.importers.inventory.InventoryError`; :func:`detect` tells which reader a file needs."""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from pathlib import Path

from models.bounded_read import FileRefusedError, read_bytes
from models.importers.inventory import Inventory, InventoryError
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
    ("liveoptics", ("VMs", "VM Performance")),
    ("rvtools", ("vInfo",)),
)
"""Source kind -> the sheets (all of them, case and spaces ignored) a workbook of that source holds."""

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
    if head[:4] == b"PK\x03\x04":
        have = {norm(s) for s in sheet_names(path)}
        for kind, sheets in WORKBOOK_SHEETS:
            if all(norm(s) in have for s in sheets):
                return kind
        looked = "; ".join(f"{SOURCE_NAMES[kind]}: {', '.join(sheets)}" for kind, sheets in WORKBOOK_SHEETS)
        raise InventoryError(f"{path.name}: a workbook of no known source (looked for the sheets {looked})")
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
    raise InventoryError(f"{path.name}: cannot tell which tool exported it (looked for the sheets of an RVTools, "
                         "Live Optics or Azure Migrate workbook, an RVTools CSV header, ONTAP REST JSON or ONTAP "
                         "statistics text)")


def _csv_is_rvtools(path: Path) -> bool:
    """True when the first line of the CSV file at ``path`` names RVTools' internal vInfo columns."""
    try:
        head = read_bytes(path, MAX_FILE_BYTES, path.name)[:_SNIFF_BYTES]
    except FileRefusedError:
        return False
    line = head.decode("utf-8-sig", errors="replace").split("\n", 1)[0]
    return any(name in line for name in _RVTOOLS_CSV)
