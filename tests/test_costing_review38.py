"""Cost section faults of the session-38 review, each checked against a hand calculation: the SnapMirror DR
design counts its Cloud Volumes ONTAP destination by the cloud options' price lines, and its break-even sentence
says no option carries the I/O over the whole horizon; the Azure NetApp Files design pays for the 4 TiB it
provisions while the same service in the table is sized to the need (2 TiB); the count of options that fall short
is worded by category; a cloud design's carbon is unknown, not 0; the break-even column is never empty."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from models.catalog import CloudVm
from models.costing.cloud_prices import LICENCE_PRICES, MANAGED_PRICES, VCPU_PRICES
from models.costing.tco import CostLine, OptionCost, shortfall_count_note
from models.design import resolve
from models.evaluate import project_catalog, with_layouts
from models.present.cost import NO_BREAK_EVEN, NO_BREAK_EVEN_PROTOCOL, design_tco, footprint_rows, option_rows
from models.project.textformat import load

EXAMPLES = Path(__file__).resolve().parent.parent / "resources" / "examples"


def _tco(name: str, iops_growth_pct_per_year: float | None = None):
    project = load(EXAMPLES / f"{name}.toml")
    if iops_growth_pct_per_year is not None:
        faster = [w.with_changes(iops_growth_pct_per_year=iops_growth_pct_per_year) for w in project.scenario.workloads]
        project = project.with_scenario(project.scenario.model_copy(update={"workloads": faster}))
    design = with_layouts(resolve(project, None, project_catalog(project)))
    return project, design, design_tco(project, design.scenario, design.catalog)


def test_cvo_dr_design_counts_its_cloud_destination_and_says_no_option_carries_the_io() -> None:
    # the IOPS target growing 34.5 % a year (2.43x over the 36 months; the example's 30 % gives 2.20x, which ANF Ultra
    # carries): no cloud option carries the I/O over the whole horizon
    project, design, tco = _tco("aff-a70-snapmirror-cvo-dr", iops_growth_pct_per_year=34.5)
    node = next(n for n in design.scenario.nodes if n.kind == "cloud_vm")
    vm = design.catalog.find(node.catalog_id)
    assert isinstance(vm, CloudVm)
    lines = {line.name: line for line in tco.design.lines}
    # one node, not HA: vCPU x 730 h x the provider's vCPU-hour price; the licence per node-hour x 730 h
    assert lines["Compute"].monthly[0] == pytest.approx(vm.vcpu * VCPU_PRICES[vm.provider].price * 730)
    assert lines["Licence"].monthly[0] == pytest.approx(LICENCE_PRICES[node.licence].price * 730)
    disk = design.catalog.find(node.disk)
    nvram = 2048 * 0.132  # the parts list's NVRAM disk, a P40 of 2,048 GiB, priced too (review 56 #2)
    per_disk = (lines["Disks"].monthly[0] - nvram) / node.disk_count  # the design's 6 disks hold month 1's copies
    assert per_disk == pytest.approx(disk.size_bytes / 2**30 * 0.132, rel=1e-3)  # a P30 at 0.132 a GiB-month
    on_prem = sum(lines[k].total for k in ("Hardware", "Support", "Power", "Space"))
    assert tco.design.total == pytest.approx(on_prem + sum(lines[k].total for k in ("Compute", "Disks", "Licence")))
    # ANF Ultra, which carried the I/O to a month, serves NFS / SMB only, not the example's NVMe/TCP (review 57 #6);
    # the options that serve it (FSx for ONTAP, Cloud Volumes ONTAP) cannot carry it from month 1: none compared
    assert tco.cheapest is None and tco.break_even_hardware is None
    assert all(o.short_from_month == 1 for o in tco.options)
    assert "no cloud option of the catalog carries the workloads' I/O, so none is compared and no break-even month " \
           "is given" in tco.notes
    assert not any("breaks even" in n for n in tco.notes)


def test_anf_design_pays_what_it_provisions_and_the_option_what_the_need_takes() -> None:
    _, design, tco = _tco("anf-premium-oracle-nfs")
    price = MANAGED_PRICES["azure-netapp-files-premium"][0].price
    assert price == pytest.approx(0.000403 * 730)
    assert tco.design.total == pytest.approx(4096 * price * 36)  # the node provisions 4 TiB, the data stays under
    option = next(o for o in tco.options if o.catalog_id == "azure-netapp-files-premium")
    # 9,500 IOPS x 8 KiB = 74.2 MiB/s at 64 MiB/s per TiB: 2 TiB (the data, 1 TB grown 20 % a year, fits in 1)
    need = math.ceil(9500 * 8 * 1024 / 2**20 / 64)
    assert option.total == pytest.approx(need * 1024 * price * 36)
    assert any("4 TiB it provisions of Azure NetApp Files, Premium service level" in n for n in tco.notes)
    assert "4 TiB" in tco.design.lines[0].basis and "2 TiB" in option.lines[0].basis
    # a managed service's carbon: not known, never 0
    assert tco.carbon_over_horizon_kg is None
    rows = dict(footprint_rows(tco))
    assert "not known" in rows["Embodied and total carbon"] and not any("0 kg" in v for v in rows.values())
    assert all(even == "" for _, _, even in option_rows(tco))  # a cloud design: the column is left out


def test_unpriced_design_fills_the_break_even_column() -> None:
    # an NVMe/FC design FSx for ONTAP carries (the DR example's NVMe/TCP is carried by no option that serves it)
    _, _, tco = _tco("aff-a400-ns224-oracle-nvmefc")
    rows = {name: even for name, _, even in option_rows(tco)}
    assert rows[tco.cheapest] == f"if the hardware costs at most {tco.break_even_hardware:,.0f} USD"
    others = {name: even for name, even in rows.items() if name not in (tco.cheapest, tco.design.name)}
    # every option, not only the cheapest, gets the most the hardware may cost to break even against it (review 53b
    # #7): (option - running costs) / (1 + horizon x support / 1,200)
    assert not tco.break_even and len(others) == len(tco.options) - 1
    support = tco.inputs.support_pct_per_year.value
    for option in tco.options:
        budget = (option.total - tco.design.total) / (1 + tco.inputs.horizon_months * support / 1200)
        if option.name in others and option.short_from_month == 1:  # no alternative: no price (review 54)
            assert others[option.name] == (NO_BREAK_EVEN_PROTOCOL if option.protocol_short else NO_BREAK_EVEN)
        elif option.name in others:
            assert others[option.name] == (f"if the hardware costs at most {budget:,.0f} USD" if budget > 0
                                           else "at no hardware price")
    assert not any("hardware not priced" in even for even in rows.values())


def _option(name: str, short_from: int | None) -> OptionCost:
    line = CostLine("Capacity", 0.0, (1.0,) * 36, "")
    return OptionCost(name, "cloud", (line,), shortfall=("x",) if short_from else (), short_from_month=short_from)


def test_shortfall_count_is_worded_by_category() -> None:
    options = [_option("a", None), _option("b", 34), _option("c", 34), _option("d", 20), _option("e", 1)]
    assert shortfall_count_note(options) == (
        "1 of the 5 cloud options carries the workloads' I/O over the whole horizon; 3 carry it only until month 19, "
        "month 33; 1 cannot carry it at any size from the first month (marked in the table, in that order)")
    none = shortfall_count_note([_option("b", 34), _option("e", 1)])
    assert none.startswith("of the 2 cloud options, none carries") and "1 carry it only until month 33" in none


def test_vsan_hosts_count_their_assumed_height_and_unknown_power_is_not_read_as_zero() -> None:
    _, design, tco = _tco("vsan8-esa-stretched-4x4-sqlserver-oltp")
    cluster = next(n for n in design.scenario.nodes if n.kind == "hci_cluster")
    assert cluster.hosts == 8 and cluster.stretched
    assert tco.energy is not None and tco.energy.rack_units == 8 * 2  # 2U a host, as the sizer's recommendation
    lines = {line.name: line for line in tco.design.lines}
    assert lines["Space"].total == pytest.approx(16 * 30 * 36)  # 30 USD a rack unit a month, 36 months
    assert lines["Power"].basis.startswith("not known, not counted") and "0 W" not in lines["Power"].basis
    assert not tco.design.complete and any("witness host (left out)" in m for m in tco.design.missing)
    rows = dict(footprint_rows(tco))
    assert rows["Typical power"].startswith("not known") and rows["Rack units"].startswith("16 U")
    design_row = option_rows(tco)[0]
    assert design_row[1].startswith("running costs only: 17,280 USD (space); hardware not priced")
    assert "power of the 8 vSAN hosts" in design_row[1]
    compared = next(o for o in tco.options if o.name == tco.cheapest)
    assert tco.break_even_hardware == pytest.approx((compared.total - 17_280) / (1 + 36 * 15 / 1200))
    assert any("that price is an upper bound, as the power the catalog gives no figure for is not counted" in n
               for n in tco.notes)
