"""The catalog records a project uses are stored in it, so it reproduces its numbers when the catalog changes."""

from __future__ import annotations

from pathlib import Path

from models.catalog import Catalog, Drive, LinkType, Shelf
from models.catalog.schema import Host, _has_number
from models.project import HostNode, Link, Project, Scenario, ShelfNode
from models.store import (
    PinnedCatalog,
    SnapshotEntry,
    catalog_updates,
    open_project,
    pinned_catalog,
    save_project,
    snapshot_catalog,
    unusable_snapshot_entries,
)


def record(cls, **fields):
    """A valid catalog record whose every number cites a (made-up) source."""
    draft = cls.model_construct(**fields)
    sources = {name: "test datasheet" for name in cls.model_fields if _has_number(getattr(draft, name, None))}
    return cls.model_validate({**fields, "sources": sources})


SAS = record(LinkType, id="sas-12g", name="SAS 12Gb", medium="SAS", speed_gbps=12, payload_mbps=1100,
             protocols=["SAS"], latency_us=2)  # fmt: skip
FC = record(LinkType, id="fc-32g", name="FC 32Gb", medium="FC", speed_gbps=32, payload_mbps=3200,
            protocols=["FCP"], latency_us=3)  # fmt: skip
SSD = record(Drive, id="ssd-800", name="SSD 800GB", media="SSD", interface="SAS", marketed_bytes=800 * 10**9,
             right_sized_bytes=745 * 10**9, read_service_time_us=100, write_service_time_us=30, max_read_mbps=500,
             max_write_mbps=400)  # fmt: skip
SHELF = record(Shelf, id="shelf-24", name="24-bay shelf", bays=24, drive_interfaces=["SAS"], backend_link="sas-12g",
               backend_lanes=4)  # fmt: skip
HOST = record(Host, id="server", name="Server", sockets=2, cores=32, memory_gib=512)
UNUSED = record(Host, id="unused-server", name="Unused", sockets=1, cores=8, memory_gib=64)
CATALOG = Catalog([SAS, FC, SSD, SHELF, HOST, UNUSED], version="2026.1")

PROJECT = Project(
    scenarios=[
        Scenario(name="Base", nodes=[HostNode(id="h", catalog_id="server"),
                                     ShelfNode(id="s", catalog_id="shelf-24", drive="ssd-800", drive_count=24)],
                 links=[Link(id="l", source="h", target="s", link_type="fc-32g")]),  # fmt: skip
        Scenario(name="Other", nodes=[ShelfNode(id="s", catalog_id="shelf-24", drive="lab-ssd", drive_count=12)]),
    ],
    custom_catalog={"drive": [SSD.model_copy(update={"id": "lab-ssd"}).model_dump(mode="json")]},
)


def test_snapshot_holds_used_records_and_what_they_need():
    snap = snapshot_catalog(PROJECT, CATALOG)
    # sas-12g is used by the shelf (backend_link); lab-ssd is the project's own record; unused-server is unused
    assert sorted(snap) == ["fc-32g", "sas-12g", "server", "shelf-24", "ssd-800"]
    # only the fields the record states: a default written out would need a source on reopen
    assert snap["ssd-800"] == SnapshotEntry("ssd-800", "drive", "2026.1",
                                            SSD.model_dump(mode="json", exclude_unset=True))


def test_saved_snapshot_reproduces_the_old_records_after_a_catalog_update(tmp_path: Path):
    path = save_project(PROJECT, tmp_path / "p.storplan", catalog=CATALOG)
    opened = open_project(path)
    assert opened.catalog_version == "2026.1"
    assert opened.catalog_snapshot == snapshot_catalog(PROJECT, CATALOG)

    faster = SSD.model_copy(update={"read_service_time_us": 80.0})
    newer = Catalog([SAS, FC, faster, SHELF, UNUSED], version="2027.1")  # "server" was dropped from the catalog
    updates = catalog_updates(opened.catalog_snapshot, newer)
    assert [(i, old["read_service_time_us"], new["read_service_time_us"]) for i, old, new in updates] == [
        ("ssd-800", 100.0, 80.0)
    ]

    pinned = pinned_catalog(opened.catalog_snapshot, newer)
    assert isinstance(pinned, PinnedCatalog)
    assert pinned.get("ssd-800") == SSD and pinned.version_of("ssd-800") == "2026.1"
    assert pinned.get("server") == HOST  # gone from the catalog, kept by the project
    assert pinned.version_of("unused-server") == "2027.1"

    # saving with the pinned catalog keeps the pinned records and their versions
    save_project(opened.project, path, catalog=pinned)
    assert open_project(path).catalog_snapshot == opened.catalog_snapshot


def test_records_that_no_longer_validate_fall_back_to_the_bundled_ones():
    snap = snapshot_catalog(PROJECT, CATALOG)
    broken = dict(snap)
    broken["ssd-800"] = SnapshotEntry("ssd-800", "drive", "2019.1", {"id": "ssd-800", "from": "the past"})
    assert unusable_snapshot_entries(broken) == ["ssd-800"]
    assert pinned_catalog(broken, CATALOG).get("ssd-800") == SSD


def test_no_catalog_given_uses_the_bundled_one_or_saves_without_snapshot(tmp_path: Path):
    opened = open_project(save_project(PROJECT, tmp_path / "p.storplan"))
    assert opened.project == PROJECT  # whatever the bundled catalog holds, the project itself is saved


def test_snapshot_of_a_cloud_volumes_ontap_project_keeps_its_nvram_disk():
    """A CVO VM record names its NVRAM disk (a second cloud-disk record): the snapshot follows that reference, so
    a saved project evaluates the same write path after a catalog update."""
    from models.catalog import CloudVm, bundled_catalog
    from models.project import load
    from models.resources import examples_dir

    catalog = bundled_catalog()
    project = load(examples_dir() / "cvo-azure-ds3-single-oltp.toml")
    snap = snapshot_catalog(project, catalog)
    vm = catalog.get("azure-standard-ds3-v2", CloudVm)
    assert vm.nvram_disk and vm.nvram_disk != project.scenario.nodes[0].disk
    assert {"azure-standard-ds3-v2", project.scenario.nodes[0].disk, vm.nvram_disk} <= set(snap)
