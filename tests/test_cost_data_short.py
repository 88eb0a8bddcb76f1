"""A cloud option whose largest size is below the data itself is marked "cannot hold the data", not "cannot carry the
I/O" (review 57: the FAS70 NL-SAS example's 555 TiB of data on Amazon FSx for NetApp ONTAP, whose one-HA-pair file
system holds at most 512 TiB, read "(cannot carry the I/O)" although its 30K IOPS are within the service's limits)."""

from __future__ import annotations

from models.catalog import ManagedService, bundled_catalog
from models.costing.tco import TIB, _perf_size
from models.present.cost import NO_BREAK_EVEN_DATA, design_tco, option_rows
from models.project import load
from models.resources import examples_dir


def test_data_above_the_largest_size_is_a_capacity_shortfall() -> None:
    fsx = bundled_catalog().get("aws-fsx-ontap-multi-az-2", ManagedService)
    most = fsx.max_capacity_bytes / TIB
    _bytes, _mbps, short, data_short = _perf_size(fsx, (most + 43) * TIB, 1_000.0, 10.0)
    assert data_short and short == [f"holding the data needs {most + 43:,.0f} TiB, above its largest {most:,.0f} TiB"]
    _bytes, _mbps, short, data_short = _perf_size(fsx, 10 * TIB, 1_000.0, 10.0)  # small data, light I/O: no shortfall
    assert not data_short and short == []


def test_fas70_nl_sas_example_marks_options_that_cannot_hold_its_data() -> None:
    project = load(examples_dir() / "fas70-ds460c-nlsas-nfs.toml")
    tco = design_tco(project, project.scenarios[0], bundled_catalog())
    rows = {name: (total, even) for name, total, even in option_rows(tco)}
    short = [o for o in tco.options if o.data_short]
    assert short, "the example's data is above some cloud option's largest size"
    for option in short:
        total, even = rows[option.name]
        assert total.endswith("(cannot hold the data)") and "I/O" not in total
        assert even == NO_BREAK_EVEN_DATA
        assert option.shortfall[0].startswith("from month 1: holding the data needs ")
