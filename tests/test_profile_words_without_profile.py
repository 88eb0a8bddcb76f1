"""profile_kind_text on paths no controller or cloud VM profile governs: the engine marks their figures "assumed"
(the band of an assumption), and the words say what that assumption is."""

from __future__ import annotations

from models.evaluate import evaluate
from models.present import NO_PROFILE_WORDS, PROFILE_KIND_WORDS, profile_kind_text, profiles_text
from models.project import load
from models.resources import examples_dir


def _evaluation(name: str):
    return evaluate(load(examples_dir() / name))


def test_vsan_and_managed_service_examples_are_not_called_uncalibrated_default():
    vsan = _evaluation("vsan8-osa-hybrid-4host-oltp.toml")
    anf = _evaluation("anf-premium-oracle-nfs.toml")
    for evaluation, words in ((vsan, NO_PROFILE_WORDS["vSAN"]), (anf, NO_PROFILE_WORDS["service"])):
        workloads = evaluation.performance.workloads
        assert workloads and all(w.profile == "assumed" for w in workloads)  # the band stays an assumption's
        assert {profile_kind_text(w) for w in workloads} == {words}
        assert profiles_text(evaluation) == words != PROFILE_KIND_WORDS["assumed"]


def test_a_controller_keeps_its_profile_words():
    evaluation = _evaluation("aff8080-sqlserver-tpce.toml")
    assert {profile_kind_text(w) for w in evaluation.performance.workloads} == {"calibrated"}
