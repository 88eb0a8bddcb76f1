"""Every bundled example of the current catalog evaluates with no error or warning (issue 15: each new family's
example "evaluates with no warnings"; its report is rendered by tests/gui/test_present_consistency.py). The
examples rebuilt from the five seed reports keep the warnings their documents call for (RAID 0 on the EF550, no
spares on the 192-spindle array, more ports cabled than the seed's switch licenses, the A800's ADP root partition
that no readable source gives)."""

from __future__ import annotations

import pytest

from models.evaluate import evaluate
from models.resources import examples_dir
from models.store import load_any

SEED_EXAMPLES = {"a800-oracle-slob-fcp", "a800-oracle-slob-nvmefc", "aff8080-nfs-file-services",
                 "aff8080-sqlserver-tpce", "cvo-azure-ds14-ha-oltp", "cvo-azure-ds14-single-oltp",
                 "cvo-azure-ds3-single-oltp", "cvo-azure-ds4-ha-oltp", "cvo-azure-ds4-single-oltp",
                 "ef550-sas-analytics", "spinning192-sas-analytics", "vsan-sqlserver-raid1", "vsan-sqlserver-raid5"}
CURRENT = [p for p in sorted(examples_dir().glob("*.toml")) if p.stem not in SEED_EXAMPLES]


def test_the_current_examples_cover_the_new_families():
    stems = {p.stem for p in CURRENT}
    for family in ("nvmetcp", "c80-qlc", "ef600", "vsan8-esa-6host", "cvo-aws", "anf-", "gcnv-", "fas70",
                   "cvo-azure-e20ds-v5", "cvo-gcp"):
        assert any(family in s for s in stems), family


@pytest.mark.parametrize("path", CURRENT, ids=lambda p: p.stem)
def test_a_current_example_evaluates_without_warnings(path):
    evaluation = evaluate(load_any(path))
    assert [p.message for p in evaluation.problems if p.severity in ("error", "warning")] == []
    assert [p for s in evaluation.capacity.systems for p in s.problems] == []
    assert all(w.saturation_iops for w in evaluation.performance.workloads)
