"""Review 54 items 12 and 13, on the CVO DR example (an AFF A70 replicating to a Cloud Volumes ONTAP node of 6 x
Azure Premium SSD P30).

Item 12: the Cost tab sized the destination's disks from the logical primary data (8 disks in month 1, 16 by month
36) while the verdict judged the design's 6 and the sizer proposed 9. The destination now pays each month for the
disks its free capacity needs to hold the DR copies grown to that month (the data with the 2:1 reduction replication
keeps, the transfer held), after the 10 % WAFL reserve: one count with the verdict (6 hold the copies until the
18-month runway) and the sizer (9 at the horizon).

Item 13: a break-even hardware price was given against options that cannot carry the workloads' I/O, and the
headline break-even did not say that the design's total counts its DR destination while the option has no DR."""

from __future__ import annotations

import math
from functools import cache

import pytest
from example_reports import example_report, page_texts

from models.catalog import bundled_catalog
from models.present.cost import NO_BREAK_EVEN, NO_BREAK_EVEN_PROTOCOL, design_tco, option_rows
from models.project import load
from models.replication.figures import replication_figures
from models.replication.sizing import grown_copies_bytes, propose_destinations
from models.resources import examples_dir

DR = examples_dir() / "aff-a70-snapmirror-cvo-dr.toml"
TIB = 2**40
P30_MONTH = 1024 * 0.132  # a P30 (1,024 GiB) at 0.132 USD per GiB-month, the disk price the Cost tab cites
P40_MONTH = 2048 * 0.132  # the NVRAM disk of the parts list, a P40 (2,048 GiB), at the same price (review 56 #2)
WAFL_FREE = 0.90  # what a CVO aggregate keeps after ONTAP's 10 % WAFL reserve (its capacity breakdown)


@cache
def _dr():
    project = load(DR)
    return project, design_tco(project, project.scenario, bundled_catalog())


def test_the_destination_pays_for_the_disks_its_grown_copies_need_the_count_the_sizer_proposes():
    project, tco = _dr()
    rep = project.scenario.replications[0]
    node = project.scenario.node(rep.target)
    assert node.disk == "azure-premium-lrs-p30" and node.disk_count == 6 and not node.ha
    disks = next(line for line in tco.design.lines if line.name == "Disks")
    counts = [round((v - P40_MONTH) / P30_MONTH, 6) for v in disks.monthly]  # the data disks, the NVRAM disk apart
    assert all(c == int(c) for c in counts)
    figures = replication_figures(project.scenario, rep)
    expected = [max(6, math.ceil(grown_copies_bytes(figures, m) / (WAFL_FREE * TIB) - 1e-9))
                for m in range(1, 37)]
    assert counts == expected
    assert counts[0] == 6  # was 8: 8 TB of logical primary data on 1 TiB disks
    assert counts[-1] == 9 == propose_destinations(project.scenario, bundled_catalog(), 36)[0].disk_count  # was 16
    # the verdict's runway of the design's 6 disks (5.40 TiB free): the count grows from that month, not before
    runway = replication_figures(project.scenario, rep, 6 * WAFL_FREE * TIB).runway_months
    assert runway == pytest.approx(18.0, abs=0.5)
    assert counts[:17] == [6] * 17 and counts[17] == 7
    assert "6 data disks (the design's) to month 17" in disks.basis and "9 by month 36" in disks.basis


def test_no_break_even_price_against_an_option_that_cannot_carry_the_io_and_the_headline_excludes_dr():
    _, tco = _dr()
    rows = {name: even for name, _, even in option_rows(tco)[1:]}
    never = [o for o in tco.options if o.short_from_month == 1]
    assert never and all(rows[o.name] == NO_BREAK_EVEN for o in never if not o.protocol_short)  # was a price
    # the file-only services (NFS / SMB in the catalog) do not serve the example's NVMe/TCP (review 57 #6)
    files = [o for o in never if o.protocol_short]
    assert len(files) == 7 and all(o.name.startswith(("Azure NetApp Files", "Google Cloud NetApp Volumes"))
                                   for o in files)
    assert all(rows[o.name] == NO_BREAK_EVEN_PROTOCOL for o in files)
    # no option serves NVMe/TCP and carries the I/O: none is compared, no hardware price breaks even
    assert len(never) == len(tco.options) and tco.cheapest is None and tco.break_even_hardware is None
    assert any(n.startswith(f"no break-even is given against the {len(never)} options that do not serve the "
                            "workloads' protocol or cannot carry") for n in tco.notes)


def test_the_pdf_cost_page_leaves_those_cells_blank_and_says_why():
    _, _, data = example_report(DR)
    text = " ".join(" ".join(page_texts(data)).split())
    assert NO_BREAK_EVEN not in text
    assert ("No break-even is given against the 11 options that do not serve the workloads' protocol or cannot "
            "carry") in text
    assert "(NFS/SMB only: no NVMe/TCP)" in text
