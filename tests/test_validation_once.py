"""The validation replayed once per process for the exports (``models.validation.seed_outcomes``) and the stored
cross-validation read once while its files are unchanged (``stored_cross_validation``): the same answers as
computing them afresh, and a changed file read again."""

from __future__ import annotations

import shutil

import models.resources
from models.validation import run_validation, seed_outcomes, stored_cross_validation
from models.validation.cross_validation import FILE_NAME


def test_seed_outcomes_are_run_validation_computed_once():
    cv, _ = stored_cross_validation()
    assert cv is not None  # the stored results are current (test_cross_validation checks it too)
    kept = seed_outcomes(cv)
    assert kept == run_validation(cross_validation=cv)  # the same outcomes, checks and marks as a fresh replay
    again = seed_outcomes(cv)
    assert again == kept and again is not kept  # a new list each call: a caller changing it changes no other
    again.clear()
    assert seed_outcomes(cv) == kept
    # other cross-validation results are another replay: without any, no check carries an out-of-sample figure
    bare = seed_outcomes(None)
    assert any(c.out_of_sample is not None for o in kept for c in o.checks)
    assert all(c.out_of_sample is None for o in bare for c in o.checks)
    assert [(o.case_id, len(o.checks)) for o in bare] == [(o.case_id, len(o.checks)) for o in kept]


def test_the_stored_cross_validation_is_read_again_when_its_file_changes(tmp_path, monkeypatch):
    first, status = stored_cross_validation()
    assert first is not None and stored_cross_validation() == (first, status)
    assert stored_cross_validation()[0] is first  # kept: not parsed and digested again
    folder = tmp_path / "validation"
    folder.mkdir()
    real = models.resources.validation_dir()
    for name in (FILE_NAME, "published.toml", "ramps.toml"):
        shutil.copy(real / name, folder / name)
    monkeypatch.setattr(models.resources, "resources_dir", lambda: tmp_path)
    copied, _ = stored_cross_validation()
    assert copied == first and copied is not first  # another folder: read there, the same results
    text = (folder / FILE_NAME).read_text(encoding="utf-8")
    assert f'inputs_sha256 = "{first.inputs_sha256}"' in text
    (folder / FILE_NAME).write_text(text.replace(first.inputs_sha256, "0" * 64), encoding="utf-8")
    stale, why = stored_cross_validation()
    assert stale is None and why.startswith("stale: ")
    (folder / FILE_NAME).unlink()
    missing, why = stored_cross_validation()
    assert missing is None and why.startswith("no stored cross-validation")
    monkeypatch.undo()
    assert stored_cross_validation() == (first, status)
