"""The key figures of a replication-only destination do not contradict themselves (REVIEW43-PDF #13): Cloud
Volumes ONTAP as the DR target of the AFF A70 example printed "Data reduction (inline) 1.00:1" beside "Logical used
7.30 TiB, Physical used 3.65 TiB" (2:1). The table now says the 1.00:1 is this system's own reduction and its note,
kept with the table, says which ratio gives logical / physical and why."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from models.evaluate import evaluate
from models.formatting import fmt_capacity, fmt_ratio
from models.present.key_figures import REDUCTION_LABEL, key_figures
from models.resources import examples_dir
from models.store import load_any
from models.units import CapacityUnit


@pytest.fixture(scope="module")
def dr():
    project = load_any(examples_dir() / "aff-a70-snapmirror-cvo-dr.toml")
    evaluation = evaluate(project)
    capacity = evaluation.capacity
    (copy,) = [s for s in capacity.systems if capacity.is_replica_only(s.system_id)]
    (source,) = [s for s in capacity.systems if not capacity.is_replica_only(s.system_id)]
    return project, copy, source


def _cap(value: float) -> str:
    return fmt_capacity(value, CapacityUnit.TIB, fixed=True)


def test_a_destinations_own_reduction_is_named_and_its_note_gives_the_ratio_of_logical_to_physical(dr):
    _, copy, source = dr
    assert copy.data_reduction_ratio == 1.0  # the case the review read: 1.00:1 beside a 2:1 logical / physical
    logical, physical = copy.logical_used_bytes, copy.physical_used_bytes
    assert logical / physical == pytest.approx(2.0, rel=0.01)
    figures, note = key_figures(copy, _cap, replica_only=True)
    assert figures[0] == (f"{REDUCTION_LABEL} of this system", "1.00:1")
    assert note is not None
    assert "applies none of its own" in note and "kept in transfer" in note
    assert f"{_cap(logical)} / {_cap(physical)}, is the total efficiency ratio, {fmt_ratio(logical / physical)}" \
        in note
    own, none = key_figures(source, _cap, replica_only=False)
    assert own[0] == (REDUCTION_LABEL, fmt_ratio(source.data_reduction_ratio)) and none is None


def test_the_pdf_table_marks_the_figure_and_keeps_its_note_under_it(dr):
    from app.report import render_report_bytes

    project, copy, source = dr
    pages = [p.extract_text() or "" for p in PdfReader(io.BytesIO(render_report_bytes(project, validation=[]))).pages]
    (page,) = [" ".join(t.split()) for t in pages if "of this system" in t]
    assert "Data reduction (inline) of this system 1.00:1 [1]" in page
    note = page[page.index("[1] Data reduction 1.00:1"):]
    assert "applies none of its own" in note  # on the same page as the table
    ratio = copy.logical_used_bytes / copy.physical_used_bytes
    assert (f"{_cap(copy.logical_used_bytes)} / {_cap(copy.physical_used_bytes)}, is the total efficiency ratio, "
            f"{fmt_ratio(ratio)}") in note
    text = " ".join(" ".join(pages).split())
    assert f"Data reduction (inline) {fmt_ratio(source.data_reduction_ratio)} Total" in text  # the source: as before


def test_the_report_shows_the_dr_copy_s_effective_capacity_as_the_capacity_tab_does(dr):
    """The Capacity tab shows the DR copy at the reduction its copies keep in transfer (Effective 10.80 TiB = usable
    5.40 TiB x 2.00); the report's waterfall and step table said 'Effective 5.40 TiB' (usable x 1.00:1) for the same
    system. Both now read the presentation layer's waterfall (models.present.dr_system.shown_waterfall)."""
    import re

    from app.report import render_report_bytes

    project, copy, _source = dr
    usable = float(copy.usable_bytes)
    kept = copy.logical_used_bytes / copy.physical_used_bytes  # the copies' logical over physical: 2.00:1
    text = re.sub(r"\s+", " ", " ".join(p.extract_text() or "" for p in PdfReader(io.BytesIO(
        render_report_bytes(project, validation=[]))).pages))
    effective = fmt_capacity(usable * kept, "TiB")
    assert effective == "10.80 TiB"
    shown = fmt_capacity(usable, "TiB")
    assert f"Usable {shown} Data reduction kept in transfer {effective} Effective {effective}" in text
    assert f"Effective {effective} usable x {fmt_ratio(kept)}, the data reduction the copies keep in transfer" in text
    assert f"Usable {shown} Effective {shown}" not in text
