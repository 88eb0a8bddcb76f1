"""Round trip: a project saved to a .storplan file opens back equal (examples and generated projects)."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.catalog import Catalog, bundled_catalog
from models.project import Project, load
from models.resources import examples_dir
from models.store import Calibration, CalibrationPoint, open_project, save_project

DATA = Path(__file__).parent / "data"
EMPTY = Catalog([], "test")  # generated catalog ids are random text: no snapshot to take

# --- a strategy for whole projects -----------------------------------------------------------------------------------

SPECIAL_TEXT = ['"', "'", '""" \'\'\'', "line1\nline2\r\n", "😀🚀 emoji", "tab\tand\\backslash", "next\x85line",
                "ünïcødé", "[table]\nkey = 1", "-- DROP TABLE node; --", " "]  # fmt: skip
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")  # refused in any project text (models.project.model.Record)
texts = st.one_of(st.text(max_size=24).map(lambda t: CONTROL.sub("", t)), st.sampled_from(SPECIAL_TEXT))
ALNUM = "abcXYZ0189"
ids = st.builds(lambda first, rest: first + rest, st.sampled_from(ALNUM), st.text(ALNUM + "._-", max_size=8))
coords = st.floats(allow_nan=False, allow_infinity=False, width=64)
finite = st.floats(allow_nan=False, allow_infinity=False)


def pct(lt: bool = False):
    return st.floats(min_value=0, max_value=100, exclude_max=lt, allow_nan=False)


def opt(strategy):
    return st.none() | strategy


def node_common(kind: str):
    return {"kind": st.just(kind), "catalog_id": texts.filter(bool), "label": texts, "x": coords, "y": coords}


raid = st.sampled_from(["none", "raid0", "raid4", "raid_dp", "raid_tec", "raid5", "raid6", "raid10", "ddp"])
NODE_PARAMS = {
    "host": {
        "count": st.integers(1, 10_000),
        "adapter": opt(texts),
        "adapters_per_host": st.integers(1, 16),
    },
    "switch": {},
    "controller": {
        "software": opt(texts),
        "nodes": opt(st.integers(1, 24)),
        "raid_type": raid,
        "raid_group_size": opt(st.integers(2, 64)),
        "spares_per_node": st.integers(0, 64),
        "adp": st.sampled_from(["none", "root-data", "root-data-data"]),
        "root_partition_bytes": opt(st.integers(1, 2**70)),  # beyond int64: lives in the JSON params
        "wafl_reserve_pct": opt(pct(lt=True)),
        "snapshot_reserve_pct": opt(pct(lt=True)),
        "ddp_preservation_drives": st.integers(0, 64),
        "optimization_capacity_pct": opt(pct(lt=True)),
        "capacity_tier": st.sampled_from(["none", "storagegrid", "cloud-bucket"]),
        "capacity_tier_name": texts,
        "cold_read_latency_us": opt(st.floats(min_value=0, max_value=10_000_000, exclude_min=True)),
    },
    "shelf": {"drive": texts.filter(bool), "drive_count": st.integers(0, 480)},
    "hci_cluster": {
        "hosts": st.integers(1, 64),
        "disk_groups_per_host": st.integers(1, 5),
        "capacity_drives_per_group": st.integers(1, 7),
        "policy": st.sampled_from(["ftt1-raid1", "ftt2-raid1", "ftt3-raid1", "ftt1-raid5", "ftt2-raid6"]),
        "dedupe_compression": st.booleans(),
        "slack_space_pct": opt(pct(lt=True)),
    },
    "cloud_vm": {
        "licence": texts.filter(bool),
        "ha": st.booleans(),
        "disk": texts.filter(bool),
        "disk_count": st.integers(1, 64),
        "raid_type": raid,
        "write_speed": st.sampled_from(["normal", "high"]),
        "tiering": st.sampled_from(["none", "auto", "snapshot-only", "all"]),
        "cold_data_pct": pct(),
    },
}


@st.composite
def nodes(draw, node_id: str):
    kind = draw(st.sampled_from(sorted(NODE_PARAMS)))
    fields = {**node_common(kind), **NODE_PARAMS[kind]}
    return {"id": node_id, **{name: draw(strategy) for name, strategy in fields.items()}}


@st.composite
def workloads(draw, workload_id: str, node_ids: list[str]):
    refs = st.sampled_from(node_ids) if node_ids else ids
    return {
        "id": workload_id,
        "name": draw(texts.filter(bool)),
        "preset": draw(opt(texts)),
        "target": draw(refs | ids),
        "hosts": draw(st.lists(refs, max_size=3)),
        "enabled": draw(st.booleans()),
        "block_kib": draw(st.floats(min_value=0.5, max_value=16_384)),
        "read_pct": draw(pct()),
        "random_pct": draw(pct()),
        "target_iops": draw(opt(st.floats(min_value=0, exclude_min=True, allow_nan=False, allow_infinity=False))),
        "target_mbps": draw(opt(st.floats(min_value=0, exclude_min=True, allow_infinity=False))),
        "slo_ms": draw(st.floats(min_value=0, max_value=10_000, exclude_min=True)),
        "concurrency": draw(st.integers(1, 100_000)),
        "think_time_ms": draw(st.floats(min_value=0, allow_nan=False, allow_infinity=False)),
        "dataset_bytes": draw(st.integers(0, 2**63 - 1)),
        "working_set_bytes": draw(opt(st.integers(0, 2**63 - 1))),
        "provisioned_bytes": draw(opt(st.integers(0, 2**63 - 1))),
        "compression_ratio": draw(st.floats(1, 100)),
        "compaction_ratio": draw(st.floats(1, 100)),
        "dedupe_ratio": draw(st.floats(1, 100)),
        "snapshots": draw(
            opt(
                st.fixed_dictionaries(
                    {
                        "interval_h": st.floats(min_value=1 / 60, max_value=24 * 366),
                        "retention_h": st.floats(min_value=0, max_value=24 * 3660, exclude_min=True),
                        "change_pct_per_h": pct(),
                    }
                )
            )
        ),
        "clones": draw(st.integers(0, 1000)),
        "growth_pct_per_year": draw(st.floats(0, 1000)),
        "cold_data_pct": draw(pct()),
        "cold_read_pct": draw(pct()),
    }


@st.composite
def scenarios(draw, name: str):
    node_ids = draw(st.lists(ids, max_size=8, unique=True))
    node_list = [draw(nodes(node_id)) for node_id in node_ids]
    ends_from = (st.sampled_from(node_ids) | ids) if node_ids else ids
    links = []
    for link_id in draw(st.lists(ids, max_size=6, unique=True)):
        ends = draw(st.lists(ends_from, min_size=2, max_size=2, unique=True))
        links.append({"id": link_id, "source": ends[0], "target": ends[1], "link_type": draw(texts.filter(bool)),
                      "ports": draw(st.integers(1, 256))})  # fmt: skip
    work = [draw(workloads(w_id, node_ids)) for w_id in draw(st.lists(ids, max_size=4, unique=True))]
    return {"name": name, "nodes": node_list, "links": links, "workloads": work}


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**80), 2**80) | finite | texts,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(texts, inner, max_size=3),
    max_leaves=8,
)


def _own_record(entry_and_name: tuple) -> dict:
    """A bundled record as a project carries it (the fields it sets), renamed: valid by the catalog's schema, which
    a project's own records must pass when it is read."""
    entry, name = entry_and_name
    return {**entry.model_dump(mode="json", exclude_unset=True, exclude_none=True), "name": name}


_BUNDLED = sorted(bundled_catalog(), key=lambda e: e.id)[:40]
own_catalogs = st.lists(st.tuples(st.sampled_from(_BUNDLED), texts.filter(lambda t: 0 < len(t) <= 200)),
                        max_size=3, unique_by=lambda pair: pair[0].id).map(
    lambda pairs: {kind: [_own_record(p) for p in pairs if p[0].kind == kind] for kind in {p[0].kind for p in pairs}})


@st.composite
def projects(draw) -> Project:
    names = draw(st.lists(texts.filter(lambda t: 0 < len(t) <= 120), min_size=1, max_size=3, unique=True))
    data = {
        "info": {
            "name": draw(texts.filter(lambda t: 0 < len(t) <= 200)),
            "customer": draw(texts),
            "author": draw(texts),
            "description": draw(texts),
            "created": draw(texts),
            "modified": draw(texts),
        },
        "settings": {
            "capacity_unit": draw(st.sampled_from(["TB", "TiB"])),
            "default_slo_ms": draw(st.floats(min_value=0, exclude_min=True, allow_nan=False, allow_infinity=False)),
            "paper": draw(st.sampled_from(["A4", "Letter"])),
            "curve_points": draw(st.integers(10, 5000)),
        },
        "scenarios": [draw(scenarios(name)) for name in names],
        "active_scenario": draw(st.sampled_from(names)),
        "custom_catalog": draw(own_catalogs),
    }
    return Project.model_validate(data)


calibrations = st.builds(
    Calibration,
    points=st.lists(st.builds(CalibrationPoint, texts, texts, finite, finite), max_size=4).map(tuple),
    fits=st.dictionaries(texts, st.dictionaries(texts, json_values, max_size=3), max_size=2),
)


# --- tests -----------------------------------------------------------------------------------------------------------


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(project=projects(), calibration=calibrations)
def test_generated_projects_round_trip(project: Project, calibration: Calibration):
    with tempfile.TemporaryDirectory() as tmp:
        path = save_project(project, Path(tmp) / "p.storplan", catalog=EMPTY, calibration=calibration,
                            app_version="9.9.9")  # fmt: skip
        opened = open_project(path)
    assert opened.project == project
    assert opened.calibration == calibration
    assert opened.app_version == "9.9.9"
    assert opened.project.model_dump(mode="json") == project.model_dump(mode="json")


def _example_files() -> list[Path]:
    return sorted(examples_dir().glob("*.toml")) + [DATA / "project_v1.toml"]


@pytest.mark.parametrize("toml_path", _example_files(), ids=lambda p: p.name)
def test_examples_round_trip_with_the_same_numbers(toml_path: Path, tmp_path: Path):
    project = load(toml_path)
    path = save_project(project, tmp_path / (toml_path.stem + ".storplan"))
    reopened = open_project(path).project
    assert reopened == project
    # saving the reopened project gives the same content again (stable, idempotent)
    again = open_project(save_project(reopened, tmp_path / "again.storplan")).project
    assert again == project

    from models.evaluate import evaluate

    for scenario in project.scenarios:
        before = evaluate(project, scenario.name)
        after = evaluate(reopened, scenario.name)
        assert repr(after.capacity) == repr(before.capacity)
        assert [p.message for p in after.problems] == [p.message for p in before.problems]


def test_examples_are_found():
    """The example round trips above ran over the bundled examples, not over nothing."""
    assert len(list(examples_dir().glob("*.toml"))) >= 12
