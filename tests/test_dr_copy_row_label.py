"""The Capacity requirement table names a DR copy's row without two parentheses in a row: the
aff-a70-snapmirror-cvo-dr report read "Cloud Volumes ONTAP DR (Azure) (DR copy)" (REVIEW43-PDF #7)."""

from __future__ import annotations

from app.report.document import dr_copy_row_label
from models.resources import examples_dir
from models.store import load_any


def test_a_name_ending_in_parentheses_gets_the_words_after_a_comma():
    project = load_any(examples_dir() / "aff-a70-snapmirror-cvo-dr.toml")
    labels = [n.label for n in project.scenario.nodes if getattr(n, "label", "").endswith("(Azure)")]
    assert labels == ["Cloud Volumes ONTAP DR (Azure)"]  # the example's destination, as the report names it
    assert dr_copy_row_label(labels[0]) == "Cloud Volumes ONTAP DR (Azure), DR copy"
    assert ") (" not in dr_copy_row_label(labels[0])


def test_a_plain_name_keeps_its_parenthesis():
    assert dr_copy_row_label("DR site") == "DR site (DR copy)"
