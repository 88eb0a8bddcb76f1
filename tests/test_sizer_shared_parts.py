"""Parts the sizer's designs share without changing a number or a word: the shelf nodes and links of designs that
place the same (one validated node each), the capacity waterfall's byte counts formatted once per value, a lone
controller's RAID layout built without the key that would share it with another controller, and the platform limits
read only where the record publishes more than a drive and shelf limit."""

from __future__ import annotations

import math
from itertools import islice

import models.sizing as sizing
from models.capacity.layout import raid_layouts, system_layout
from models.capacity.physical import fmt
from models.catalog import Controller, Drive, Shelf
from models.catalog.limits import platform_limit_problems
from models.evaluate import project_catalog
from models.project.factory import drive_fits_shelf
from models.project.model import ControllerNode, Link, ShelfNode
from models.resources import examples_dir
from models.store import load_any
from models.units import CapacityUnit, format_capacity


def _example(name: str):
    project = load_any(examples_dir() / f"{name}.toml")
    return project, project_catalog(project)


def test_designs_placing_the_same_shelves_and_links_share_them_and_equal_freshly_validated_ones():
    project, catalog = _example("aff8080-sqlserver-tpce")
    specs = list(islice(sizing._specs(project.scenario, catalog, project.requirements), 300))
    metro, metro_catalog = _example("aff-a70-metrocluster-ip-oracle-nvmetcp")
    specs += list(islice(sizing._specs(metro.scenario, metro_catalog, metro.requirements), 60))
    scenarios = [spec.scenario for spec in specs]
    seen: dict[str, object] = {}
    shared = metro_sites = 0
    for scenario in scenarios:
        for node in scenario.nodes:
            if node.kind == "controller":
                fresh_ctl = ControllerNode.model_validate(node.model_dump())
                assert node == fresh_ctl and node.model_dump_json() == fresh_ctl.model_dump_json()
                metro_sites += node.metrocluster != "none"
            if node.kind != "shelf":
                continue
            fresh = ShelfNode(id=node.id, catalog_id=node.catalog_id, label=node.label, x=node.x, y=node.y,
                              drive=node.drive, drive_count=node.drive_count)
            assert node == fresh and node.model_dump_json() == fresh.model_dump_json()
            key = fresh.model_dump_json()
            shared += seen.get(key) is node
            seen.setdefault(key, node)
        for link in scenario.links:
            fresh_link = Link(id=link.id, source=link.source, target=link.target, link_type=link.link_type,
                              ports=link.ports)
            assert link == fresh_link and link.model_dump_json() == fresh_link.model_dump_json()
    assert shared > 100  # the same shelf placed by many designs is one object
    assert metro_sites > 10  # designs with MetroCluster settings among them
    # built again with nothing shared: every scenario equal, field for field
    sizing._shelf_node.cache_clear()
    sizing._link.cache_clear()
    sizing._controller_node.cache_clear()
    again = [spec.scenario for spec in islice(sizing._specs(project.scenario, catalog, project.requirements), 300)]
    again += [spec.scenario for spec in islice(sizing._specs(metro.scenario, metro_catalog, metro.requirements), 60)]
    assert [s.model_dump_json() for s in again] == [s.model_dump_json() for s in scenarios]


def test_formatted_byte_counts_are_format_capacitys_whatever_was_formatted_before():
    values = [0.0, -0.0, 0, 1.0, -1.0, 2**30, 2**30 - 1, 744.96 * 2**30, 25.47 * 2**40, -3 * 2**40, 7, 7.0,
              1e18, 123456789.123, math.inf, -math.inf, math.nan]
    for _ in range(2):  # the second time from the memo
        for value in values:
            assert fmt(value) == format_capacity(value, CapacityUnit.TIB), value
    assert fmt(-0.0) == "-0.00 GiB" and fmt(0.0) == "0.00 GiB"  # the sign of zero kept, whichever came first


def test_a_lone_controllers_layout_is_the_one_built_for_it_alone():
    compared = 0
    for name in ("aff8080-sqlserver-tpce", "ef550-sas-analytics", "aff-a70-metrocluster-ip-oracle-nvmetcp",
                 "fas70-ds460c-nlsas-nfs"):
        project, catalog = _example(name)
        specs = list(islice(sizing._specs(project.scenario, catalog, project.requirements), 40))
        for scenario in [project.scenario, *(spec.scenario for spec in specs)]:
            layouts = raid_layouts(scenario, catalog)
            for node_id, layout in layouts.items():
                assert layout == system_layout(scenario, catalog, node_id)
                compared += 1
    assert compared >= 80


def test_two_controllers_built_alike_still_share_one_layout_renamed():
    project, catalog = _example("aff8080-sqlserver-tpce")
    scenario = project.scenario
    ctl = next(n for n in scenario.nodes if n.kind == "controller")
    twin = ctl.model_copy(update={"id": "twin", "label": "twin pair"})
    shelves = [n for n in scenario.nodes if n.kind == "shelf"]
    twin_shelves = [s.model_copy(update={"id": f"twin-{s.id}"}) for s in shelves]
    links = [*scenario.links, *(Link(id=f"twin-be-{s.id}", source="twin", target=s.id, link_type="sas-6g", ports=4)
                                for s in twin_shelves)]
    doubled = scenario.model_copy(update={"nodes": [*scenario.nodes, twin, *twin_shelves], "links": links})
    layouts = raid_layouts(doubled, catalog)
    assert layouts["twin"] == system_layout(doubled, catalog, "twin")
    assert layouts[ctl.id] == system_layout(doubled, catalog, ctl.id)
    assert layouts["twin"].groups == layouts[ctl.id].groups


def test_the_limit_shortcut_refuses_exactly_the_layouts_the_platform_limits_refuse():
    _, catalog = _example("aff8080-sqlserver-tpce")
    records = sorted((e for e in catalog if isinstance(e, Controller)), key=lambda e: e.id)
    # and each with a shelf limit but no raw capacity limit, and with neither (the shortcut's two other branches)
    records += [r.model_copy(update={"max_raw_bytes": None, "max_shelves": shelves})
                for r in list(records) for shelves in (1, None)]
    drives = [d for d in catalog if isinstance(d, Drive)]
    checked = refused = 0
    for record in records:
        shelves = [sh for sid in record.shelves if isinstance(sh := catalog.find(sid), Shelf)]
        for drive in drives:
            inside = next((sh for sh in shelves if sh.internal and drive_fits_shelf(drive, sh)), None)
            layouts = [(inside, None, 0)] if inside is not None else []
            layouts += [(inside, sh, k) for sh in shelves if not sh.internal and drive_fits_shelf(drive, sh)
                        for k in range(1, 2 * sizing.MAX_SHELVES + 1)]
            for ins, shelf, count in layouts:
                n_drives = (ins.bays if ins is not None else 0) + count * (shelf.bays if shelf else 0)
                if n_drives > record.max_drives:
                    continue
                want = bool(platform_limit_problems(record, sizing._filled(ins, shelf, count, drive)))
                assert sizing._over_limits(record, ins, shelf, count, drive) == want, (record.id, drive.id, count)
                checked += 1
                refused += want
    assert checked > 500 and refused > 0


def test_the_relations_remembered_pieces_equal_those_computed_afresh():
    from models.performance import hardware_relation as relation

    _, catalog = _example("aff8080-sqlserver-tpce")
    compared = 0
    for record in sorted((e for e in catalog if isinstance(e, Controller)), key=lambda e: e.id):
        for protocol in ("FCP", "NVMe/TCP", "iSCSI", "NFS"):
            for _ in range(2):  # the second time remembered
                got = relation.base_profile(record, catalog, record.default_software, protocol)
                assert got == relation._base_profile(record, catalog, record.default_software, protocol)
            for field in ("cpu_read_us", "cpu_write_us", "affinities_per_node"):
                for fitted_only in (False, True):
                    args = (catalog, record.family, protocol, field, record.id, fitted_only)
                    assert relation._contributions(*args) == relation._contributions_now(*args)
            compared += got is not None
    assert compared > 20


def test_a_profiles_remembered_kind_is_the_kind_computed_afresh():
    from models.performance import paths
    from models.performance.profiles import controller_profile, profile_kind

    _, catalog = _example("aff8080-sqlserver-tpce")
    records = [e for e in catalog if isinstance(e, Controller)]
    profiles = [p for e in records for p in e.performance]
    profiles += [p for e in records for proto in ("FCP", "NFS")
                 if (p := controller_profile(e, catalog, e.default_software, proto)[0]) is not None]
    kinds = set()
    for _ in range(2):  # the second time remembered
        for profile in profiles:
            for found, note in ((True, ""), (False, ""), (True, "another software version")):
                got = paths._profile_kind(profile, found, note)
                assert got == profile_kind(profile, found, note)
                kinds.add(got)
    assert len(profiles) > 40 and {"assumed", "derived", "calibrated"} <= kinds and len(kinds) == 4
    paths._PROFILE_KINDS.clear()
    fresh = profiles[0].model_copy()  # an equal record, another object: its own entry
    assert paths._profile_kind(fresh, True, "") == profile_kind(fresh, True, "")


def test_a_sibling_profile_on_a_vms_cores_is_one_copy_equal_to_a_fresh_one():
    from models.performance import paths

    _, catalog = _example("cvo-azure-ds14-ha-oltp")
    profiles = [p for e in catalog if isinstance(e, Controller) for p in e.performance]
    assert profiles
    for profile in profiles[:5]:
        for cores in (2, 8, 16):
            first = paths._on_cores(profile, cores)
            assert paths._on_cores(profile, cores) is first  # remembered
            fresh = profile.model_copy(update={"servers_per_node": cores})
            assert first == fresh and first.model_dump_json() == fresh.model_dump_json()
            assert first.servers_per_node == cores
