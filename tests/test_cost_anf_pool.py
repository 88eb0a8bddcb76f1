"""Azure NetApp Files holds data above one regular volume's 100 TiB in several regular volumes of one capacity pool
(review 57: the FAS70 NL-SAS example's 555 to 943 TiB read "cannot hold the data" on ANF, modelled as one volume).
Microsoft Learn, 'Resource limits for Azure NetApp Files': 'Maximum size of a single regular volume | 100 TiB',
'Number of volumes per capacity pool | 500', 'Maximum size of a single capacity pool | 1000 TiB'; each regular
volume's throughput is capped (Premium and Ultra 4,500 MiB/s, Standard 1,600 MiB/s), the I/O split evenly."""

from __future__ import annotations

import math

import pytest

from models.catalog import ManagedService, bundled_catalog
from models.costing.tco import TIB, Demand, _perf_size, managed_option, pool_volumes
from models.present.cost import design_tco
from models.project import load
from models.resources import examples_dir

VOLUME_TIB = 100  # published: a regular volume's maximum
POOL_TIB = 1_000  # published: a capacity pool's maximum (default limit)
PREMIUM_CAP_MBPS = 4_500 * 2**20 / 1e6  # 4,500 MiB/s per regular volume, in MB/s


def _rec(rid: str) -> ManagedService:
    return bundled_catalog().get(rid, ManagedService)


def test_the_records_carry_the_published_pool_limits() -> None:
    for level in ("standard", "premium", "ultra"):
        rec = _rec(f"azure-netapp-files-{level}")
        assert rec.max_capacity_bytes == VOLUME_TIB * TIB
        assert rec.max_volumes_per_pool == 500 and rec.max_pool_capacity_bytes == POOL_TIB * TIB
    assert _rec("aws-fsx-ontap-multi-az-2").max_volumes_per_pool == 1  # one HA pair's file system, as before


def test_555_tib_on_premium_is_six_regular_volumes_not_a_shortfall() -> None:
    rec = _rec("azure-netapp-files-premium")
    assert pool_volumes(rec, 555 * TIB) == math.ceil(555 / VOLUME_TIB) == 6
    assert pool_volumes(rec, 100 * TIB) == 1 and pool_volumes(rec, 101 * TIB) == 2
    size, _mbps, short, data_short = _perf_size(rec, 555 * TIB, 30_000, 983.0)
    assert short == [] and not data_short and size == 555 * TIB
    # six volumes' caps carry 6 x 4,500 MiB/s; just above that is a shortfall named per volume
    six = 6 * PREMIUM_CAP_MBPS
    _size, _mbps, short, _ = _perf_size(rec, 555 * TIB, 30_000, six * 0.99)
    assert short == []
    _size, _mbps, short, _ = _perf_size(rec, 555 * TIB, 30_000, six * 1.01)
    assert short == [f"{six * 1.01:,.0f} MB/s is above its cap of 4,719 MB/s a volume (6 volumes)"]


def test_only_data_above_the_pool_maximum_cannot_be_held() -> None:
    rec = _rec("azure-netapp-files-ultra")
    _size, _mbps, short, data_short = _perf_size(rec, 1_105 * TIB, 10_000, 100.0)
    assert data_short
    assert short == ["holding the data needs 1,105 TiB, above its largest capacity pool's 1,000 TiB"]
    _size, _mbps, short, data_short = _perf_size(rec, POOL_TIB * TIB, 10_000, 100.0)
    assert not data_short and short == []


def test_one_volume_throughput_cap_does_not_ask_for_101_tib() -> None:
    # Standard: 1,678 MB/s (1,600 MiB/s rounded up) over 16 MiB/s per TiB is 100.02 TiB: one volume's 100 TiB
    rec = _rec("azure-netapp-files-standard")
    size, _mbps, short, _ = _perf_size(rec, 1 * TIB, 0, 2_000.0)
    assert size == VOLUME_TIB * TIB
    assert short == ["2,000 MB/s is above its cap of 1,678 MB/s"]


def test_fas70_nl_sas_example_prices_anf_in_regular_volumes() -> None:
    project = load(examples_dir() / "fas70-ds460c-nlsas-nfs.toml")
    tco = design_tco(project, project.scenarios[0], bundled_catalog())
    by_id = {o.catalog_id: o for o in tco.options if o.catalog_id}
    data = _data(project)[1:]
    low, high = math.ceil(min(data) / TIB), math.ceil(max(data) / TIB)
    low_n, high_n = math.ceil(low / VOLUME_TIB), math.ceil(high / VOLUME_TIB)
    assert (low, high) == (555, 943) and (low_n, high_n) == (6, 10)
    for level in ("standard", "premium", "ultra"):
        option = by_id[f"azure-netapp-files-{level}"]
        assert not option.data_short and option.meets_workloads, option.shortfall
        basis = option.lines[0].basis
        assert f"{low_n} to {high_n} regular volumes in one capacity pool: the data is above one volume's 100 TiB" \
            in basis
    assert by_id["aws-fsx-ontap-multi-az-2"].data_short  # 512 TiB per one-HA-pair file system, as before


def _data(project) -> tuple[float, ...]:
    from models.costing.tco import data_by_month

    return data_by_month(project.scenarios[0], project.requirements, project.requirements.horizon_months)


def test_the_volumes_split_is_priced_as_the_data() -> None:
    rec = _rec("azure-netapp-files-premium")
    months = 3
    data = [250.5 * TIB] * (months + 1)
    flat = Demand(tuple(10_000.0 for _ in range(months + 1)), tuple(500.0 for _ in range(months + 1)))
    option = managed_option(rec, data, 0, 0.0, {}, demand=flat)
    assert option.meets_workloads and not option.data_short
    assert option.lines[0].monthly == pytest.approx([251 * 1024 * 0.000403 * 730] * months)
    assert ", 3 regular volumes in one capacity pool" in option.lines[0].basis
