"""File (NAS) workloads: the operation mix's validation, its effect on each station (hand-computed), the bundled
NFS example, a wrong link protocol, and the mix's round trip through the .storplan file."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from models.catalog import bundled_catalog
from models.evaluate import evaluate
from models.performance import build_path, evaluate_performance
from models.performance.nas import METADATA_CPU_RATIO, PROTOCOL_CPU_FACTOR, apply_op_mix
from models.performance.paths import StationSpec
from models.project.model import SPEC_SFS_2008_NFSV3_MIX, NasWorkload
from models.resources import examples_dir
from models.store import load_any

EXAMPLE = examples_dir() / "aff8080-nfs-file-services.toml"


def test_op_mix_must_name_known_operations_and_add_up_to_100():
    assert NasWorkload(op_mix=SPEC_SFS_2008_NFSV3_MIX).share(("read",)) == pytest.approx(0.18)
    with pytest.raises(ValidationError, match="add up to 90"):
        NasWorkload(op_mix={"read": 50, "write": 40})
    with pytest.raises(ValidationError, match="unknown operations mkdirs"):
        NasWorkload(op_mix={"read": 50, "mkdirs": 50})


def test_op_mix_scales_each_station_kind_as_documented():
    """40% read, 10% write, 40% getattr (read-type metadata), 10% create (write-type metadata), SMB3:
    CPU read demand = (0.4 + 0.4 x ratio) / 0.8 x factor; a drive's read demand x 0.4 / 0.8; delays unchanged."""
    nas = NasWorkload(protocol="SMB3", op_mix={"read": 40, "write": 10, "getattr": 40, "create": 10})
    cpu = StationSpec("node 1 CPU", "c", 1e-4, 2e-4, kind="cpu", write_async_s=1e-5)
    ssd = StationSpec("SSDs", "s", 3e-4, 0.0, kind="drive", write_async_s=4e-4)
    wire = StationSpec("fabric", "", 5e-6, 5e-6, delay=True, kind="delay")
    (c, d, f), note = apply_op_mix([cpu, ssd, wire], nas)
    factor = PROTOCOL_CPU_FACTOR["SMB3"]
    assert c.read_s == pytest.approx(1e-4 * (0.4 + 0.4 * METADATA_CPU_RATIO) / 0.8 * factor)
    assert c.write_s == pytest.approx(2e-4 * (0.1 + 0.1 * METADATA_CPU_RATIO) / 0.2 * factor)
    assert c.write_async_s == pytest.approx(1e-5 * 0.5)
    assert d.read_s == pytest.approx(3e-4 * 0.5) and d.write_async_s == pytest.approx(4e-4 * 0.5)
    assert f == wire
    assert "SMB3" in note and "assumed" in note


def test_the_bundled_nfs_example_evaluates_with_its_operation_mix():
    project = load_any(EXAMPLE)
    evaluation = evaluate(project)
    assert not evaluation.errors
    wp = evaluation.performance.workloads[0]
    assert wp.protocol == "NFS" and wp.profile == "hardware relation only"  # no NFS profile of its own
    assert wp.target_met and wp.saturation_iops > wp.target_iops
    assert any("operation mix" in n for n in wp.notes)
    path = build_path(project.scenario, bundled_catalog(), project.scenario.workloads[0])
    assert path.read_fraction == pytest.approx((18 + 24 + 26 + 1 + 1 + 1 + 2 + 11) / 100)
    # the same design with data operations only (no metadata) saturates at fewer operations per second
    w = project.scenario.workloads[0]
    data_only = w.with_changes(nas=NasWorkload(op_mix={"read": 64, "write": 36}))
    sc = project.scenario.model_copy(update={"workloads": [data_only]})
    assert evaluate_performance(sc, bundled_catalog()).workloads[0].saturation_iops < wp.saturation_iops


def test_a_nas_workload_over_fibre_channel_is_refused_by_name():
    project = load_any(examples_dir() / "aff8080-sqlserver-tpce.toml")
    w = project.scenario.workloads[0].with_changes(nas=NasWorkload(op_mix=SPEC_SFS_2008_NFSV3_MIX))
    sc = project.scenario.model_copy(update={"workloads": [w]})
    perf = evaluate_performance(sc, bundled_catalog())
    assert not perf.workloads
    assert "is NFSv3 but the links" in perf.problems[0] and "FCP" in perf.problems[0]


def test_the_operation_mix_survives_a_save_and_open(tmp_path):
    from models.store import open_project, save_project

    project = load_any(EXAMPLE)
    path = tmp_path / "nfs.storplan"
    save_project(project, path)
    again = open_project(path).project
    assert again.scenario.workloads[0].nas == project.scenario.workloads[0].nas
    assert again.scenario.workloads[0].nas.op_mix == SPEC_SFS_2008_NFSV3_MIX
