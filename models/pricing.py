"""The price book: reading the user's CSV, and what a design costs by it.

A price book is the user's own (StorPlan ships no prices): a CSV with a header row and the columns ``catalog_id``
and ``unit_price``, optionally ``part_number`` and ``currency`` (default ``USD``), one row per catalog record.
:func:`read_price_book` turns the text into :class:`~models.project.PriceRow` records that the project stores
(the file itself is never referred to again). :func:`quantities` counts what a scenario orders of each catalog
record (the same counting as the bill of materials) and :func:`cost` prices those counts.

Only the storage a design buys is required to be priced (controllers, shelves, drives, HCI hosts and their drives,
cloud VMs, disks and licences): hosts, host adapters, switches and link ports are the customer's or the fabric's
and are added only when the book prices them. A controller's internal drive bays (a shelf record with
``internal``, e.g. the AFF A50's 24 NVMe bays) are part of the controller chassis, which no price list sells
apart: unless the book prices them they cost 0, "in the controller's price" (:data:`IN_CONTROLLER_PRICE`), and are
never unpriced.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from models.bounded_read import CsvLimits, FileRefusedError, csv_rows, detect_delimiter, read_text
from models.catalog import Catalog, CloudVm, HciNode, Shelf
from models.catalog.limits import STORAGE_SWITCH_PAIR
from models.project.metrocluster import with_partner_site
from models.project.model import PriceRow, Scenario

__all__ = ["IN_CONTROLLER_PRICE", "MAX_PRICE_BOOK_BYTES", "PRICE_BOOK_LIMITS", "Costing", "PriceBookError", "cost",
           "in_controller_price", "quantities", "read_price_book", "read_price_book_file", "unpriced_names"]

REQUIRED_COLUMNS = ("catalog_id", "unit_price")
OPTIONAL_COLUMNS = ("part_number", "currency")
DEFAULT_CURRENCY = "USD"
"""Currency of rows that give none (stated in the import message)."""

IN_CONTROLLER_PRICE = "in the controller's price"
"""How a controller's internal drive bays are priced when the book gives them no row of their own (review 56:
the chassis bays are sold with the controller, never as a part)."""


MAX_PRICE_BOOK_BYTES = 16 * 2**20
"""The largest price book file read (16 MiB): a book prices catalog records, a few thousand at most, at well under
100 bytes a row."""

PRICE_BOOK_LIMITS = CsvLimits(max_rows=50_000, max_field_chars=4_096, seconds=2.0)
"""Rows, field size and time a price book is read under: one row per catalog record (the bundled catalog and a
user's own hold a few hundred to a few thousand), ids, part numbers and prices of a few dozen characters."""


class PriceBookError(ValueError):
    """A price book CSV that cannot be read; the message names the file, the line and the column."""


def _price(text: str, where: str) -> float:
    """A unit price from CSV text ("12500", "12,500.00", "$ 12500"); raises PriceBookError naming ``where``."""
    cleaned = text.strip().replace(",", "").lstrip("$€£¥ ").strip()
    try:
        value = float(cleaned)
    except ValueError:
        raise PriceBookError(f"{where}: unit_price {text!r} is not a number") from None
    if not math.isfinite(value) or value < 0:
        raise PriceBookError(f"{where}: unit_price {text!r} must be a finite number >= 0")
    return value


def read_price_book(text: str, origin: str = "price book", catalog: Catalog | None = None) -> list[PriceRow]:
    """The rows of a price book CSV (comma, semicolon or tab separated; header row required).

    Args:
        text: the CSV text; origin: how messages name the file; catalog: when given, every ``catalog_id`` must be
        one of its records (a typo would otherwise leave an item silently unpriced).

    Returns:
        One :class:`PriceRow` per data row, in file order (blank lines skipped).

    Raises:
        PriceBookError: no header, a required column missing, a bad or negative price, an empty id, an id twice,
            an unknown id, or two currencies; a control character, more than :data:`PRICE_BOOK_LIMITS` rows, a
            field over its size limit or malformed CSV (RFC 4180 quoting: a doubled quote in a quoted field is one
            quote); the message names ``origin``, the line and the column.
    """
    if not text.strip():
        raise PriceBookError(f"{origin}: the file is empty (expected a header row: catalog_id, unit_price, ...)")
    try:
        return _read_rows(text, origin, catalog)
    except FileRefusedError as exc:
        raise PriceBookError(str(exc)) from None


def read_price_book_file(path: str | Path, catalog: Catalog | None = None, origin: str | None = None) -> list[PriceRow]:
    """:func:`read_price_book` of a file, read through :mod:`models.bounded_read` (a regular file of at most
    :data:`MAX_PRICE_BOOK_BYTES`, UTF-8 with or without a byte-order mark).

    Args:
        path: the CSV file; catalog: as :func:`read_price_book`; origin: how messages name the file (default:
        ``path``).

    Raises:
        PriceBookError: a device, FIFO, folder or missing file, a file over the size limit, a byte that is not
            UTF-8, or any refusal of :func:`read_price_book`; one line naming the file (and line, column).
    """
    name = str(path) if origin is None else origin
    try:
        text = read_text(path, MAX_PRICE_BOOK_BYTES, name)
    except FileRefusedError as exc:
        raise PriceBookError(str(exc)) from None
    return read_price_book(text, name, catalog)


def _read_rows(text: str, origin: str, catalog: Catalog | None) -> list[PriceRow]:
    """The body of :func:`read_price_book` (raises PriceBookError or FileRefusedError)."""
    delimiter = detect_delimiter(text[:text.find("\n")] if "\n" in text else text)
    columns: list[str] = []  # filled from the header: a refused field is named by its column
    reader = csv_rows(text, origin, PRICE_BOOK_LIMITS, delimiter, columns)
    header = [h.strip().lower() for h in next(reader)[1]]
    columns.extend(header)
    missing = [c for c in REQUIRED_COLUMNS if c not in header]
    if missing:
        raise PriceBookError(f"{origin}: line 1: the header lacks {', '.join(missing)} "
                             f"(found: {', '.join(header) or 'nothing'})")
    col = {name: header.index(name) for name in (*REQUIRED_COLUMNS, *OPTIONAL_COLUMNS) if name in header}
    body = list(reader)  # every row read (and the limits checked) before any is validated
    rows: list[PriceRow] = []
    seen: dict[str, int] = {}
    for line_no, cells in body:
        if not any(c.strip() for c in cells):
            continue
        where = f"{origin}: line {line_no}"
        if len(cells) < len(header):
            cells = cells + [""] * (len(header) - len(cells))
        cid = cells[col["catalog_id"]].strip()
        if not cid:
            raise PriceBookError(f"{where}: catalog_id is empty")
        if cid in seen:
            raise PriceBookError(f"{where}: catalog_id {cid!r} is priced again (first on line {seen[cid]})")
        if catalog is not None and catalog.find(cid) is None:
            raise PriceBookError(f"{where}: catalog_id {cid!r} is not a catalog record")
        seen[cid] = line_no
        price = _price(cells[col["unit_price"]], where)
        currency = cells[col["currency"]].strip().upper() if "currency" in col else ""
        part = cells[col["part_number"]].strip() if "part_number" in col else ""
        try:
            rows.append(PriceRow(catalog_id=cid, part_number=part, unit_price=price,
                                 currency=currency or DEFAULT_CURRENCY))
        except ValidationError as exc:
            raise PriceBookError(f"{where}: {exc.errors()[0]['loc'][0]}: {exc.errors()[0]['msg']}") from None
    currencies = sorted({r.currency for r in rows})
    if len(currencies) > 1:
        raise PriceBookError(f"{origin}: one currency per book, found {', '.join(currencies)}")
    if not rows:
        raise PriceBookError(f"{origin}: no price rows under the header")
    return rows


STORAGE_KINDS = ("controller", "shelf", "hci_cluster", "cloud_vm", "managed_service")
"""Node kinds whose items a design buys: every one of their records must be priced for a complete cost."""


def quantities(scenario: Scenario, catalog: Catalog) -> tuple[Counter, frozenset[str]]:
    """What the scenario orders of each catalog record, and which of those records are storage (see module doc).

    Counts follow :mod:`models.present.bom`: a controller system or shelf 1 each (a controller whose shelves are
    switch-attached also its pair of storage switches, storage items), a shelf's drives its
    ``drive_count``; hosts ``count`` and their adapters ``count x adapters_per_host``; an HCI cluster's host
    record ``hosts``, its cache drives one per disk group and capacity drives per group; a cloud VM 1 (2 for an HA
    pair) with ``disk_count`` data disks and an NVRAM disk per VM, licence 1; a managed service its provisioned TiB
    (rounded up: its unit price is per TiB over the horizon); a link ``ports`` of its type. A MetroCluster's partner
    site is counted too (``models.project.metrocluster.with_partner_site``).

    Returns:
        (Counter of catalog id -> units, the ids that belong to storage items).
    """
    q: Counter = Counter()
    storage: set[str] = set()

    def add(cid: str | None, n: int, is_storage: bool) -> None:
        """Count ``n`` units of ``cid`` (skipped when None or 0)."""
        if cid and n:
            q[cid] += n
            if is_storage:
                storage.add(cid)

    scenario = with_partner_site(scenario, catalog)
    for node in scenario.nodes:
        if node.kind == "controller":
            add(node.catalog_id, 1, True)
            add(getattr(node, "storage_switch", ""),  # switch-attached shelves' pairs of storage switches
                STORAGE_SWITCH_PAIR * getattr(node, "storage_switch_pairs", 1), True)
        elif node.kind == "shelf":
            add(node.catalog_id, 1, True)
            add(node.drive, node.drive_count, True)
        elif node.kind == "host":
            add(node.catalog_id, node.count, False)
            add(node.adapter, node.count * node.adapters_per_host, False)
        elif node.kind == "switch":
            add(node.catalog_id, 1, False)
        elif node.kind == "hci_cluster":
            add(node.catalog_id, node.hosts, True)
            rec = catalog.find(node.catalog_id)
            if isinstance(rec, HciNode):
                groups = node.hosts * node.disk_groups_per_host
                if rec.cache_drive and node.architecture != "esa":  # ESA: no cache tier
                    add(rec.cache_drive, groups, True)
                add(rec.capacity_drive, groups * node.capacity_drives_per_group, True)
        elif node.kind == "managed_service":
            add(node.catalog_id, math.ceil(node.provisioned_bytes / 2**40), True)  # priced per provisioned TiB
        elif node.kind == "cloud_vm":
            per = 2 if node.ha else 1
            add(node.catalog_id, per, True)
            add(node.disk, node.disk_count * per, True)
            add(node.licence, 1, True)
            rec = catalog.find(node.catalog_id)
            if isinstance(rec, CloudVm) and rec.nvram_disk:
                add(rec.nvram_disk, per, True)
    for link in scenario.links:
        add(link.link_type, link.ports, False)
    return q, frozenset(storage)


@dataclass(frozen=True)
class Costing:
    """A design's price by the book.

    Attributes:
        total: sum of units x unit price over the priced records (in ``currency``);
        currency: the book's; lines: (catalog id, part number, units, unit price, extended price) per priced
        record; unpriced: storage records the book does not price (a total with any is incomplete); in_controller:
        the controller's internal drive bays the book has no row for, priced at 0 with the controller
        (:data:`IN_CONTROLLER_PRICE`; their lines are in ``lines``, at 0).
    """

    total: float
    currency: str
    lines: tuple[tuple[str, str, int, float, float], ...]
    unpriced: tuple[str, ...]
    in_controller: tuple[str, ...] = ()

    @property
    def complete(self) -> bool:
        """Every storage record is priced."""
        return not self.unpriced


def cost(scenario: Scenario, catalog: Catalog, book: list[PriceRow]) -> Costing | None:
    """The price of ``scenario`` by ``book``; None when the book is empty (costs appear only with a book)."""
    if not book:
        return None
    prices = {row.catalog_id: row for row in book}
    q, storage = quantities(scenario, catalog)
    lines = []
    bays = []
    for cid, units in q.items():
        row = prices.get(cid)
        if row is not None:
            lines.append((cid, row.part_number, units, row.unit_price, units * row.unit_price))
        elif in_controller_price(catalog, cid):
            lines.append((cid, "", units, 0.0, 0.0))
            bays.append(cid)
    unpriced = tuple(sorted(cid for cid in storage if cid not in prices and cid not in bays))
    return Costing(sum(line[4] for line in lines), book[0].currency, tuple(lines), unpriced, tuple(sorted(bays)))


def in_controller_price(catalog: Catalog, catalog_id: str) -> bool:
    """True when ``catalog_id`` is a controller's internal drive bays (a :class:`~models.catalog.Shelf` with
    ``internal``): part of the controller chassis, priced with it (:data:`IN_CONTROLLER_PRICE`) unless the book
    prices the record itself."""
    return isinstance(rec := catalog.find(catalog_id), Shelf) and rec.internal


def unpriced_names(catalog: Catalog | None, ids: Sequence[str]) -> list[str]:
    """The product names of the unpriced records ``ids`` (a customer reads the list: never a catalog id; an id
    the catalog does not hold is shown as it is, it is all there is to name it)."""
    out = []
    for cid in ids:
        rec = catalog.find(cid) if catalog is not None else None
        out.append(rec.name if rec is not None and rec.name else cid)
    return out
