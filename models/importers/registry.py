"""The environment readers by source, imported on use: source kind -> "module:function". Each function takes a
file path and returns an :class:`~models.importers.inventory.Inventory` or raises
:class:`~models.importers.inventory.InventoryError`; :func:`detect` tells which reader a file needs."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path

from models.importers.inventory import Inventory, InventoryError

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


def detect(path: Path) -> str:
    """The source kind of ``path``, from its content (sheet names of a workbook, the shape of a JSON or text
    file), never from its name alone.

    Raises:
        InventoryError: the file is none of the known sources (the message says what was looked for).
    """
    raise InventoryError(f"{path.name}: cannot tell which tool exported it (not implemented yet)")
