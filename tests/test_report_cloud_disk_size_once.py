"""A cloud disk's size is said once in the capacity layout, as its provider publishes it, with the project's unit
beside it in the same parenthesis (REVIEW43-PDF #11: a TB project's layout read "6 x Azure Premium SSD P30
(Premium_LRS, 1,024 GiB) (1.10 TB) per node": two parentheses, one size twice)."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader

from models.capacity.physical import fmt
from models.catalog.schema import CloudDisk
from models.present.provider_size import provider_size_once
from models.project import edits
from models.resources import examples_dir
from models.store import default_catalog, load_any
from models.units import GIB, TIB, CapacityUnit, format_capacity

NAMED_SIZE = re.compile(r"(?<![\d.,])(\d{1,3}(?:,\d{3})+|\d+) (GiB|TiB)")


def _published(disk: CloudDisk) -> str | None:
    """The size the disk's name states (``1,024 GiB``, ``1 TiB``) when it is the disk's size, else None."""
    for number, unit in NAMED_SIZE.findall(disk.name):
        if abs(int(number.replace(",", "")) * {"GiB": GIB, "TiB": TIB}[unit] - disk.size_bytes) < 0.01 * GIB * 1024:
            return f"{number} {unit}"
    return None


def test_every_catalog_cloud_disk_named_with_its_size_reads_it_once():
    disks = [d for d in default_catalog().of_kind(CloudDisk) if _published(d)]
    assert len(disks) >= 30  # Azure, AWS and Google disks name their published size
    for disk in disks:
        line = f"aggregate RAID0 6 x {disk.name} ({fmt(disk.size_bytes)}) per node"  # the engine's layout line
        named = _published(disk)
        binary = provider_size_once(line, CapacityUnit.TIB)
        assert binary == f"aggregate RAID0 6 x {disk.name} per node", binary
        decimal = provider_size_once(line, CapacityUnit.TB)
        assert f"{named} = {format_capacity(disk.size_bytes, CapacityUnit.TB)}" in decimal, decimal
        assert fmt(disk.size_bytes) not in decimal and decimal.endswith(" per node")
        assert decimal.count("(") == disk.name.count("(")  # no parenthesis added


def test_a_figure_that_is_not_the_named_size_stays():
    line = "6 x Azure Premium SSD P30 (Premium_LRS, 1,024 GiB) (2.00 TiB) per node"
    assert provider_size_once(line, CapacityUnit.TB) == line
    drives = "node 1: aggregate RAID DP 1 x (9+2) drives of 3.49 TiB, 1 spare drive: 31.43 TiB after parity"
    assert provider_size_once(drives, CapacityUnit.TB) == drives


@pytest.mark.parametrize(("unit", "expected"), [
    ("TB", f"6 x Azure Premium SSD P30 (Premium_LRS, 1,024 GiB = {1024 * GIB / 1e12:.2f} TB) per node"),
    ("TiB", "6 x Azure Premium SSD P30 (Premium_LRS, 1,024 GiB) per node"),
])
def test_the_dr_examples_layout_line_in_the_pdf(unit, expected):
    from app.report import render_report_bytes

    project = edits.set_setting(load_any(examples_dir() / "aff-a70-snapmirror-cvo-dr.toml"), "capacity_unit", unit)
    data = render_report_bytes(project, validation=[])
    text = " ".join(" ".join(p.extract_text() or "" for p in PdfReader(io.BytesIO(data)).pages).split())
    assert expected in text
    assert not re.search(r"GiB\) \(\d", text)  # never a size's second parenthesis after the name
