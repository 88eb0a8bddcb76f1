"""A path no controller or cloud VM profile governs (a vSAN cluster, a managed service) is described in one set of
words on every view (REVIEW44 #10: a vSAN design read "assumed vSAN costs" in the GUI table and status bar, "from
StorPlan's default parameters, not fitted to any published measurement" in the summary line and "assumed (no
published measurement constrains it)" in the report's profile row and the CLI)."""

from __future__ import annotations

import pytest

from models.evaluate import evaluate
from models.present.explain import explain_figure
from models.present.summary import NO_PROFILE_WORDS, profile_kind_text
from models.present.uncertainty import PROFILE_WORDS, workload_profile_text
from models.present.verdicts import workload_verdicts
from models.project import load
from models.resources import examples_dir

OTHER_WORDS = ("default parameters", PROFILE_WORDS["assumed"], "uncalibrated")


@pytest.mark.parametrize("name, key", [("vsan8-osa-hybrid-4host-oltp.toml", "vSAN"),
                                       ("vsan8-esa-6host-sqlserver-oltp.toml", "vSAN"),
                                       ("anf-premium-oracle-nfs.toml", "service")])
def test_every_view_uses_the_no_profile_words(name, key):
    performance = evaluate(load(examples_dir() / name)).performance
    wp = performance.workloads[0]
    words = NO_PROFILE_WORDS[key]
    assert wp.profile == "assumed" and wp.profile_basis is None  # the example's fact this test relies on
    assert profile_kind_text(wp) == words  # the GUI table and status bar
    assert workload_profile_text(wp) == words  # the report's profile row and the CLI
    summary = " ".join(v.text for v in workload_verdicts(performance) if v.subject == wp.name)
    explained = "\n".join(explain_figure(wp, "Saturation"))
    for text in (summary, explained):
        assert not any(other in text for other in OTHER_WORDS), text
    assert f"Profile: {words}." in explained
    if key == "vSAN":  # a service's limits are the provider's figures: its summary adds nothing
        assert f"not measured on this system: {words}, uncertainty P10–P90" in summary, summary
