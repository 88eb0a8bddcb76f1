"""vSAN data reduction follows the platform (the host record's ``data_reductions``): vSAN 8 ESA compresses only
('For the vSAN Express Storage Architecture, compression is enabled by default on the cluster', VMware vSphere 8.0
vSAN Administration; ESA deduplication is vSAN 9.0's global deduplication, vSAN Management API
VsanDataEfficiencyConfigEx, since 9.0.0.0), so an ESA cluster with deduplication and compression on gets a
compression step and no deduplication (nor OSA's dedupe metadata), and the project is told so; an OSA all-flash
cluster keeps both."""

from __future__ import annotations

import pytest

from models.capacity import evaluate_capacity
from models.catalog import HciNode, bundled_catalog
from models.evaluate import evaluate
from models.resources import examples_dir
from models.store import load_any

C, D = 1.6, 1.5  # the workload's stated compression and deduplication ratios
ESA_EXAMPLE = "vsan8-esa-6host-sqlserver-oltp.toml"  # 6 hosts x 6 x KIOXIA CM6-V 3.2 TB, RAID-5 4+1, reserved


def _with_dedupe(example: str, on: bool = True, **node_fields):
    project = load_any(examples_dir() / example)
    sc = project.scenario
    nodes = [n.model_copy(update={"dedupe_compression": on, **node_fields}) if n.kind == "hci_cluster" else n
             for n in sc.nodes]
    workloads = [w.model_copy(update={"compression_ratio": C, "dedupe_ratio": D}) for w in sc.workloads]
    return project.with_scenario(sc.model_copy(update={"nodes": nodes, "workloads": workloads}))


def _esa_usable_by_hand() -> float:
    """The 6-host ESA example's usable capacity worked from the catalog's drive and vSAN's rules, not from the
    engine: 36 devices x 3,200,631,791,616 bytes (IDEMA size of a 3,200 GB drive, no right-sizing), less the
    assumed 10% operations reserve and one host's share (1/6) of the right-sized capacity, / 1.25 (ESA RAID-5 4+1 on
    six hosts), / 1.131 (ESA log-structured file system overhead, Broadcom KB 394410); no dedupe metadata."""
    raw = 6 * 6 * 3_200_631_791_616
    return (raw - 0.10 * raw - raw / 6) / 1.25 / 1.131


def test_vsan8_esa_records_apply_compression_only_with_the_public_source():
    catalog = bundled_catalog()
    esa = [e for e in catalog if isinstance(e, HciNode) and e.architecture == "esa"]
    assert esa
    for record in esa:
        assert "vSAN 8" in record.platform and "9" not in record.platform
        assert record.data_reductions == ["compression"]
        source = record.provenance["data_reductions"].source
        assert "VsanDataEfficiencyConfigEx" in source and "9.0" in source
        assert "https://developer.broadcom.com/xapis/vsan-management-api/latest/" \
               "vim.vsan.DataEfficiencyConfigEx.html" in source
        assert "compression is enabled by default" in source
    osa = [e for e in catalog if isinstance(e, HciNode) and e.architecture == "osa"]
    assert osa and all(e.data_reductions == ["compression", "deduplication"] for e in osa)


def test_esa_with_dedupe_on_gets_compression_only():
    result = evaluate(_with_dedupe(ESA_EXAMPLE))
    system = result.capacity.systems[0]
    names = [s.name for s in system.steps]
    assert "Compression" in names
    assert "Deduplication" not in names and "Dedupe & compression metadata" not in names
    assert system.inline_efficiency == (True, False, False)
    assert system.usable_bytes == pytest.approx(_esa_usable_by_hand(), rel=1e-12)
    assert system.effective_bytes == pytest.approx(_esa_usable_by_hand() * C, rel=1e-12)
    assert system.data_reduction_ratio == pytest.approx(C)
    # the compression step's own multiplier is the stated compression ratio
    step = next(s for s in system.steps if s.name == "Compression")
    assert step.bytes_after / step.bytes_before == pytest.approx(C)


def test_esa_dedupe_request_is_reported_with_the_node_and_the_public_source():
    project = _with_dedupe(ESA_EXAMPLE)
    result = evaluate(project)
    messages = [p.message for p in result.problems if p.node_id == "vsan"]  # the node by its id, for the GUI
    told = [m for m in messages if "deduplication is not counted" in m]
    assert len(told) == 1
    # the message names the node by its label only, never its code id (18c6efd, review r2 #5)
    label = next(n.label for n in project.scenario.nodes if n.id == "vsan")
    assert label and told[0].startswith(f"HCI cluster '{label}': ") and "(vsan)" not in told[0]
    assert "VMware vSAN 8 ESA" in told[0] and "compression only" in told[0]
    assert "vim.vsan.DataEfficiencyConfigEx.html" in told[0] and "vsan-administration" in told[0]
    # with deduplication and compression off: no such notice, no reduction, the same usable capacity
    off = evaluate(_with_dedupe(ESA_EXAMPLE, on=False))
    assert not [p for p in off.problems if "deduplication is not counted" in p.message]
    system = off.capacity.systems[0]
    assert system.inline_efficiency == (False, False, False)
    assert system.usable_bytes == pytest.approx(_esa_usable_by_hand(), rel=1e-12)
    assert system.effective_bytes == pytest.approx(system.usable_bytes)


def test_osa_all_flash_with_dedupe_on_keeps_both_reductions():
    # the vSAN 8 OSA all-flash host, 4 hosts x 2 disk groups x 4 SSDs, RAID-1, slack space
    project = _with_dedupe(ESA_EXAMPLE, catalog_id="vsan-8-osa-allflash-host", architecture="osa", hosts=4,
                           disk_groups_per_host=2, capacity_drives_per_group=4, policy="ftt1-raid1")
    result = evaluate(project)
    system = result.capacity.systems[0]
    names = [s.name for s in system.steps]
    assert {"Compression", "Deduplication", "Dedupe & compression metadata"} <= set(names)
    assert system.inline_efficiency == (True, False, True)
    assert system.effective_bytes == pytest.approx(system.usable_bytes * C * D, rel=1e-12)
    raw = 4 * 2 * 4 * 3_840_755_982_336
    usable = (raw - 0.05 * raw) / 2 * (1 - 0.30)  # 5% dedupe metadata, RAID-1 x2, 30% slack (catalog)
    assert system.usable_bytes == pytest.approx(usable, rel=1e-12)
    assert not [p for p in result.problems if "is not counted" in p.message]


def test_sizer_esa_candidates_follow_the_same_rule():
    """The sizer's vSAN candidates are evaluated by the same capacity engine; it turns no data reduction on
    (a conservative search), and an ESA candidate with it on would get compression only."""
    from models.project.model import Requirements
    from models.sizing import _hci_specs

    project = _with_dedupe(ESA_EXAMPLE)
    catalog = bundled_catalog()
    req = Requirements(deployments=["hci"], families=["vSAN"], n_plus=0)
    seen = 0
    for spec in _hci_specs(project.scenario, catalog, req):
        scenario = spec.scenario
        node = next(n for n in scenario.nodes if n.kind == "hci_cluster")
        if node.architecture != "esa":
            continue
        assert node.dedupe_compression is False
        on = scenario.model_copy(update={"nodes": [node.model_copy(update={"dedupe_compression": True})]})
        system = evaluate_capacity(on, catalog).systems[0]
        assert system.inline_efficiency == (True, False, False)
        assert "Deduplication" not in [s.name for s in system.steps]
        seen += 1
        if seen >= 3:
            break
    assert seen == 3


def test_what_users_read_names_the_reductions_applied():
    """The node figures, canvas line and bill of materials say compression for a vSAN 8 ESA cluster with the
    switch on, and deduplication and compression for an OSA all-flash one."""
    from models.present.bom import bill_of_materials
    from models.present.nodes import key_figures, node_figures

    catalog = bundled_catalog()
    esa = _with_dedupe(ESA_EXAMPLE).scenario
    osa = _with_dedupe(ESA_EXAMPLE, catalog_id="vsan-8-osa-allflash-host", architecture="osa", hosts=4,
                       disk_groups_per_host=2, capacity_drives_per_group=4, policy="ftt1-raid1").scenario
    for scenario, words, short, line in ((esa, "compression on (no deduplication on this platform)", "compression",
                                          ", compression"),
                                         (osa, "deduplication and compression on", "dedupe+compression", ", dedupe")):
        node = next(n for n in scenario.nodes if n.kind == "hci_cluster")
        policy_row = next(r for r in bill_of_materials(scenario, catalog) if r.category == "Storage policy")
        assert policy_row.figures == words
        assert node_figures(node, catalog)[-1].endswith(", " + short)
        assert key_figures(node, catalog).endswith(line)
