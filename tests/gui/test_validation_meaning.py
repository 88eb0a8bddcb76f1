"""The Validation tab says in one plain line what its checks mean for the design shown (REVIEW43 #10): which of
the design's platforms are fitted to their own published measurements (their checks in-sample) and which are
predicted, from which related system's fit; the headline's facts stay as they are."""

from __future__ import annotations

import re

import pytest

from app.gui.results.validation_view import ValidationView
from models.catalog import bundled_catalog
from models.evaluate import evaluate
from models.project import load
from models.resources import examples_dir

INTERNAL = re.compile(r"seed|profile|sibling|calibrat|hardware relation|assumed|[a-z]+_[a-z]+|netapp-", re.I)


def _meaning(qtbot, example: str) -> tuple[ValidationView, object]:
    view = ValidationView(runner=lambda progress=None: [])
    qtbot.addWidget(view)
    evaluation = evaluate(load(examples_dir() / f"{example}.toml"))
    view.set_evaluation(evaluation, "TiB")
    return view, evaluation


def test_a_design_on_a_carried_over_fit_is_called_predicted_and_names_the_source(qtbot):
    view, evaluation = _meaning(qtbot, "aff-a90-oracle-nvmefc64")
    text = view.meaning.text()
    basis = evaluation.performance.workloads[0].profile_basis
    assert basis.kind == "derived"  # the example's fact this test relies on
    source = bundled_catalog().find(basis.sibling).name
    assert text.startswith("For this design: AFF A90 HA pair: predicted from the ")
    assert source in text and "in-sample" not in text
    assert not view.meaning.isHidden() and not INTERNAL.search(text), text


def test_a_design_fitted_to_its_own_measurements_says_its_checks_are_in_sample(qtbot):
    view, evaluation = _meaning(qtbot, "aff8080-sqlserver-tpce")
    assert evaluation.performance.workloads[0].profile == "calibrated"
    text = view.meaning.text()
    assert "AFF8080A EX HA pair: fitted to its own published measurements" in text and "in-sample" in text
    assert "predicted" not in text and not INTERNAL.search(text), text


@pytest.mark.parametrize("example, kind, words", [
    # review 52: a vSAN cluster's software latency is fitted by hand to the vSAN 6.2 all-flash cluster VMware
    # measured and carried over to any other (the PDF's Performance notes and sources say the same)
    ("vsan8-esa-6host-sqlserver-oltp", "assumed",
     "predicted: its vSAN software latency was fitted by hand to VMware's published vSAN 6.2 all-flash results and "
     "carried over to this cluster, with nothing fitted to a measurement of this cluster"),
    ("aff8080-nfs-file-services", "hardware relation only",
     "predicted from ONTAP software costs fitted to published measurements of other platforms or protocols, on its"
     " own hardware"),
])
def test_a_design_with_nothing_fitted_to_it_is_predicted(qtbot, example, kind, words):
    view, evaluation = _meaning(qtbot, example)
    assert evaluation.performance.workloads[0].profile == kind
    text = view.meaning.text()
    assert words in text and "show how far predictions miss" in text and not INTERNAL.search(text), text
    assert "widest" not in text, text  # REVIEW44 #9: which band is widest is the band table's to say, not a fixed line


def test_no_evaluation_no_line(qtbot):
    view = ValidationView(runner=lambda progress=None: [])
    qtbot.addWidget(view)
    view.set_evaluation(None)
    assert view.meaning.text() == "" and view.meaning.isHidden()


def test_the_vsan_cluster_vmware_measured_is_fitted_to_its_own_measurement(qtbot):
    """Review 52: the vSAN 6.2 all-flash cluster is the one whose published write latency the vSAN software latency
    was fitted to: its checks are in-sample (the validation marks them fitted by that constant), and the line says
    so rather than "predicted"; every other vSAN cluster's line says predicted (above)."""
    from models.performance.paths import VSAN_LATENCY_MEASURED_HOST
    from models.validation.performance_cases import VSAN_CONSTANT

    view, evaluation = _meaning(qtbot, "vsan-sqlserver-raid1")
    project = load(examples_dir() / "vsan-sqlserver-raid1.toml")
    assert [n.catalog_id for n in project.scenarios[0].nodes if n.kind == "hci_cluster"] == [VSAN_LATENCY_MEASURED_HOST]
    assert VSAN_CONSTANT.startswith("engine constant: the vSAN software latencies were chosen from this case")
    text = view.meaning.text()
    assert "its vSAN software latency was fitted by hand to its own published measurement" in text, text
    assert "in-sample" in text and "predicted" not in text and not INTERNAL.search(text), text
