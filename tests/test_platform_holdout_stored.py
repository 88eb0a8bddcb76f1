"""The platforms left out, stored by ``storplan calibrate --write`` (resources/validation/platform_holdout.toml) and
read back for the bundled catalog while its digests match: the stored file is current and complete (one platform
recomputed gives the stored figures), a changed catalog or model makes it stale and the checks are computed again,
and its text reads back to the same floats."""

from __future__ import annotations

import dataclasses
import math

import pytest

from models.catalog import Controller, bundled_catalog
from models.validation import platform_holdout as module
from models.validation.cross_validation import inputs_digest
from models.validation.platform_holdout import (
    StoredHoldout,
    calibrated_platforms,
    compute_platform_holdout,
    holdout_toml,
    load_platform_holdout,
    platform_holdout,
    quantity_group,
    stored_holdout,
)

RECOMPUTED = "netapp-aff-a800"
"""The cheapest platform to recompute (about 2 s from a cold process): none of its fits is joint with another
platform's, so nothing is refitted; its saturation and latency points are both stored."""


@pytest.fixture(scope="module")
def stored() -> StoredHoldout:
    kept = load_platform_holdout()
    assert kept is not None, "run 'storplan calibrate --write'"
    return kept


def test_stored_platform_holdout_is_current_and_complete(stored):
    assert stored.staleness() == "", stored.staleness()
    assert stored.catalog_version == bundled_catalog().version
    assert stored.inputs_sha256 == inputs_digest(bundled_catalog())
    # every calibrated platform has points, each in the group its quantity names
    platforms = calibrated_platforms(bundled_catalog())
    assert {c.platform for c in stored.checks} == {r.name for r in platforms}
    assert all(c.group and c.group == quantity_group(c.quantity) for c in stored.checks)
    assert len({(c.platform, c.case_id, c.quantity) for c in stored.checks}) == len(stored.checks)
    # what the bundled catalog's holdout hands out is the stored checks
    assert platform_holdout() == list(stored.checks)
    # one platform recomputed from scratch gives the stored figures
    name = bundled_catalog().get(RECOMPUTED, Controller).name
    fresh = compute_platform_holdout(bundled_catalog(), [RECOMPUTED])
    kept = [c for c in stored.checks if c.platform == name]
    assert {c.group for c in kept} == {"saturation", "latency"}
    assert [(c.platform, c.case_id, c.quantity, c.group) for c in fresh] == [
        (c.platform, c.case_id, c.quantity, c.group) for c in kept]
    for new, old in zip(fresh, kept, strict=True):
        assert new.published == old.published, new
        for field in ("in_sample", "held_out"):
            assert getattr(new, field) == pytest.approx(getattr(old, field), rel=1e-4), (new, field)


def test_a_changed_catalog_or_model_is_stale_and_recomputed(stored, tmp_path, monkeypatch):
    a800 = bundled_catalog().get(RECOMPUTED, Controller)
    changed = bundled_catalog().with_entries([a800.model_copy(update={"cores_per_node": a800.cores_per_node + 1})])
    assert inputs_digest(changed) != stored.inputs_sha256
    assert stored.staleness(changed).startswith("stale: the published cases or the catalog changed")
    assert stored_holdout(changed) is None
    other_model = dataclasses.replace(stored, model_sha256="0" * 64)
    assert other_model.staleness().startswith("stale: the code of the fits")
    assert dataclasses.replace(stored, model_sha256="").staleness() == ""  # a frozen build has no sources to hash

    calls = []
    monkeypatch.setattr(module, "_platform_holdout", lambda catalog: calls.append(catalog) or [])
    assert platform_holdout(changed) == [] and calls == [changed]  # another catalog: computed
    # the bundled catalog with a stale stored file: computed, then kept for the process
    (tmp_path / module.FILE_NAME).write_text(holdout_toml(other_model), encoding="utf-8")
    monkeypatch.setattr(module, "validation_dir", lambda: tmp_path)
    monkeypatch.setattr(module, "_bundled_holdout", [])
    assert stored_holdout() is None
    assert platform_holdout() == [] and calls == [changed, bundled_catalog()]
    monkeypatch.setattr(module, "_platform_holdout", lambda catalog: calls.append(catalog) or [stored.checks[0]])
    monkeypatch.setattr(module, "_bundled_holdout", [])
    assert platform_holdout() == [stored.checks[0]] and platform_holdout() == [stored.checks[0]]
    assert calls == [changed, bundled_catalog(), bundled_catalog()]  # once per process
    # a current file in the same place is read, not computed
    (tmp_path / module.FILE_NAME).write_text(holdout_toml(stored), encoding="utf-8")
    monkeypatch.setattr(module, "_bundled_holdout", [])
    assert platform_holdout() == list(stored.checks) and len(calls) == 3


def test_stored_file_round_trips(stored, tmp_path):
    path = tmp_path / module.FILE_NAME
    path.write_text(holdout_toml(stored), encoding="utf-8")
    again = load_platform_holdout(path)
    assert again == stored  # every float exactly, the unbounded miss's infinity included
    assert any(math.isinf(c.held_out) for c in again.checks)
    assert load_platform_holdout(tmp_path / "none.toml") is None
    path.write_text("inputs_sha256 = 1\n", encoding="utf-8")
    with pytest.raises(ValueError, match="cannot read the platforms left out"):
        load_platform_holdout(path)
    assert stored_holdout(path=path) is None  # unreadable: computed instead
