"""Review 57: (13) a break-even against cloud options sized for the grown data, given for a design that does not
hold it (the AFF8080 file-services example full in 8.8 months; the A70 SnapMirror example's DR copy outgrowing its
disks while its cost counts more), says the comparison is not like-for-like, in the notes the Cost tab, the PDF and
the workbook share; (17) embodied carbon reads "at least" when a part is not counted (a controller without a height,
vSAN hosts), and two shelves' drive lines name their shelf."""

from __future__ import annotations

import math

from models.capacity.engine import evaluate_capacity
from models.catalog import bundled_catalog
from models.present.cost import cost_notes, design_tco, footprint_rows
from models.present.workbook import cost_sheets
from models.project import load
from models.resources import examples_dir

UNLIKE = "the comparison is not like-for-like: the design as drawn does not hold the data grown over the 36 months"


def _tco(name: str):
    project = load(examples_dir() / f"{name}.toml")
    return project, design_tco(project, project.scenarios[0], bundled_catalog())


def _rows(tco) -> dict[str, str]:
    return dict(footprint_rows(tco))


def test_aff8080_full_before_the_horizon_is_not_like_for_like() -> None:
    project, tco = _tco("aff8080-nfs-file-services")
    full = evaluate_capacity(project.scenarios[0], bundled_catalog()).total.months_until_full
    assert full is not None and full < 36 and f"{full:.1f}" == "8.8"
    notes = [n for n in cost_notes(tco) if n.startswith(UNLIKE)]
    assert notes == [f"{UNLIKE} (it is full in 8.8 months), while each cloud option is sized to hold it month by "
                     "month: the design needs more capacity for a like-for-like comparison"]


def test_dr_copy_that_outgrows_its_disks_is_not_like_for_like() -> None:
    _project, tco = _tco("aff-a70-snapmirror-cvo-dr")
    notes = [n for n in cost_notes(tco) if n.startswith(UNLIKE)]
    assert len(notes) == 1 and "its DR copy on Cloud Volumes ONTAP DR (Azure) outgrows its 6 data disks in month 18" \
        in notes[0]
    disks = next(line for line in tco.design.lines if line.name == "Disks")
    assert "then as many as hold the DR copies" in disks.basis  # what its cost counts


def test_a_design_that_holds_its_grown_data_has_no_such_note() -> None:
    _project, tco = _tco("fas70-ds460c-nlsas-nfs")  # full in 78 months
    assert not any(n.startswith("the comparison is not like-for-like") for n in tco.notes)


def test_embodied_carbon_is_a_lower_bound_when_a_part_is_not_counted() -> None:
    _project, tco = _tco("aff8080-nfs-file-services")
    total = sum(line.kg for line in tco.embodied.lines)
    assert math.isclose(total, 6_744.0)  # 3 x 2U x 100 kg + 2 x 24 x 800 GB x 0.16 kg
    assert math.isclose(3 * 2 * 100 + 2 * 24 * 800 * 0.16, 6_744.0)
    assert _rows(tco)["Embodied carbon"].startswith("at least 6,744 kg CO2e")
    assert any("AFF8080A EX HA pair" in x for x in tco.embodied.not_counted)  # its height is unknown: no line
    items = [line.item for line in tco.embodied.lines if "X447A" in line.item]
    assert items == ["24 x NetApp X447A 800GB SAS SSD in DS2246 (node 1)",
                     "24 x NetApp X447A 800GB SAS SSD in DS2246 (node 2)"]
    _project, vsan = _tco("vsan8-esa-stretched-4x4-sqlserver-oltp")
    assert _rows(vsan)["Embodied carbon"] == "at least 24,581 kg CO2e"
    _project, fas = _tco("fas70-ds460c-nlsas-nfs")  # everything counted: no bound
    assert _rows(fas)["Embodied carbon"].startswith("41,400 kg CO2e")


def test_workbook_marks_the_embodied_total_a_lower_bound() -> None:
    project, _tco_ = _tco("aff8080-nfs-file-services")
    text = repr(cost_sheets(project, project.scenarios[0], bundled_catalog()))
    assert "computed (lower bound: not counted the NetApp AFF8080A EX HA pair enclosure" in text
    assert UNLIKE + " (it is full in 8.8 months)" in text  # the notes the workbook shares


def test_metrocluster_shelves_are_named_once_with_their_site() -> None:
    _project, tco = _tco("aff-a70-metrocluster-ip-oracle-nvmetcp")
    drives = [line.item for line in tco.embodied.lines if " x " in line.item]
    assert drives == ["24 x NetApp 3.8TB NVMe SSD (TLC) in NS224 shelf",
                      "24 x NetApp 3.8TB NVMe SSD (TLC) in NS224 shelf (partner site)"]
