"""Platform ladders (models.validation.ladders): the bundled ladder file, the check over it and its two lines in
``storplan validate``. Nothing here asserts that a ladder holds: the checks are what the pooled model is later
fitted to pass; the tests assert that they report the true counts and numbers."""

from __future__ import annotations

import re
import tomllib

import pytest

from models.catalog import Controller, Drive, LinkType, Shelf, bundled_catalog
from models.performance import evaluate_performance
from models.project.model import ControllerNode, HostNode, Link, Scenario, ShelfNode
from models.validation.ladders import (
    BASIS_KINDS,
    LadderError,
    ladder_workloads,
    ladders_path,
    load_ladders,
    parse_ladders,
    platform_bases,
    run_ladders,
    verdict,
)

CATALOG = bundled_catalog()


@pytest.fixture(scope="module")
def run():
    return run_ladders(CATALOG)


def _raw() -> dict:
    return tomllib.loads(ladders_path().read_text(encoding="utf-8"))


def test_the_ladder_file_parses_and_every_id_is_in_the_catalog():
    ladders = load_ladders(CATALOG)
    raw = _raw()
    assert len(ladders.steps) == len(raw["step"])
    for item in raw["step"]:
        for key in ("smaller", "larger"):
            assert isinstance(CATALOG.find(item[key]), Controller), item[key]
        for key in ("smaller_drive", "larger_drive"):
            if key in item:
                assert isinstance(CATALOG.find(item[key]), Drive), item[key]
        assert item["basis_kind"] in BASIS_KINDS
        # a cited document has an address; a step without one says that only the model numbering orders it
        assert "https://" in item["basis"] or item["basis_kind"] == "vendor model numbering within one family"
    for item in raw["setup"]:
        assert isinstance(CATALOG.find(item["drive"]), Drive), item["drive"]
    pairs = {(s.smaller, s.larger) for s in ladders.steps}
    # every current family is a chain of consecutive steps
    chains = [["aff-a20", "aff-a30", "aff-a50", "aff-a70", "aff-a90", "aff-a1k"], ["aff-c30", "aff-c60", "aff-c80"],
              ["asa-a20", "asa-a30", "asa-a50", "asa-a70", "asa-a90", "asa-a1k"], ["fas50", "fas70", "fas90"],
              ["ef300", "ef600"], ["e2800", "e4000"]]
    for chain in chains:
        ids = [f"netapp-{m}" for m in chain]
        assert all((a, b) in pairs for a, b in zip(ids, ids[1:])), chain
    # and each successor named by NetApp's upgrade matrix that the catalog has
    for old, new in (("aff-a900", "aff-a1k"), ("aff-a800", "aff-a90"), ("aff-a700", "aff-a70"),
                     ("aff-a400", "aff-a70"), ("aff-c800", "aff-c80"), ("fas8700", "fas90")):
        assert (f"netapp-{old}", f"netapp-{new}") in pairs


@pytest.mark.parametrize("change, message", [
    ({"larger": "netapp-aff-a9999"}, "'netapp-aff-a9999' is not a controller"),
    ({"larger": "netapp-ns224"}, "'netapp-ns224' is not a controller"),
    ({"basis_kind": "a hunch"}, "basis_kind 'a hunch'"),
    ({"setup": "nowhere"}, "setup 'nowhere' is not defined"),
    ({"larger": "netapp-aff-c80"}, "netapp-aff-c80 does not take drive 'netapp-nvme-ssd-7.68tb-tlc'"),
    ({"basis": ""}, "'basis' must be a non-empty text"),
])
def test_a_bad_step_is_refused_naming_what_and_where(change, message):
    raw = _raw()
    raw["step"] = [{**raw["step"][0], **change}]
    with pytest.raises(LadderError, match=re.escape(message)) as caught:
        parse_ladders(raw, "ladders.toml", CATALOG)
    assert "step #1" in str(caught.value)


def test_the_check_count_equals_an_independent_count_from_the_file(run):
    """One OLTP check per step, one more on NVMe/FC where the setup's block protocol is FCP and both platforms speak
    NVMe/FC, plus one NFS check where the step's setup asks for NFS and both platforms serve it: counted from the
    raw file and the catalog records, not from the module."""
    raw = _raw()
    nfs = {s["id"]: s["nfs"] for s in raw["setup"]}
    fcp = {s["id"]: s["block_protocol"] == "FCP" for s in raw["setup"]}
    expected, on_nvme = 0, 0
    for item in raw["step"]:
        both_nfs = all("NFS" in CATALOG.get(item[k], Controller).protocols for k in ("smaller", "larger"))
        both_nvme = all("NVMe/FC" in CATALOG.get(item[k], Controller).protocols for k in ("smaller", "larger"))
        on_nvme += fcp[item["setup"]] and both_nvme
        expected += 1 + (nfs[item["setup"]] and both_nfs) + (fcp[item["setup"]] and both_nvme)
    assert not run.errors
    assert len(run.checks) == expected
    assert sum(c.protocol == "NVMe/FC" for c in run.checks) == on_nvme > 0
    assert run.holding == sum(1 for c in run.checks if c.holds)
    # every check's verdict is its numbers' verdict
    for c in run.checks:
        holds = c.larger.saturation >= c.smaller.saturation and c.larger.light_ms <= 1.10 * c.smaller.light_ms
        assert c.holds == holds, (c.step, c.workload)


def _direct(controller: str, workload_id: str) -> tuple[float, float]:
    """The A70 / A90 OLTP design built by hand (24 x 7.6 TB TLC NVMe in the 4U48 internal bays, 16 x 64Gb FC from
    8 hosts) and evaluated by the whole engine."""
    drive = CATALOG.get("netapp-nvme-ssd-7.68tb-tlc", Drive)
    bays = CATALOG.get("netapp-4u48-internal-nvme", Shelf)
    fc = CATALOG.get("fc-64g", LinkType)
    nodes = [HostNode(id="h", catalog_id="fujitsu-primergy-rx300-s7", count=8, adapter="emulex-lpe32002"),
             ControllerNode(id="c", catalog_id=controller, raid_type="raid_dp", spares_per_node=1, adp="none"),
             ShelfNode(id="s", catalog_id=bays.id, drive=drive.id, drive_count=24)]
    links = [Link(id="f", source="h", target="c", link_type=fc.id, ports=16),
             Link(id="b", source="c", target="s", link_type=bays.backend_link, ports=bays.backend_lanes)]
    w = ladder_workloads()[workload_id].model_copy(update={"target": "c", "hosts": ["h"]})
    result = evaluate_performance(Scenario(name="direct", nodes=nodes, links=links, workloads=[w]), CATALOG)
    wp = result.workloads[0]
    return wp.saturation_iops, wp.light_load_latency_ms


def test_one_step_agrees_with_two_direct_evaluations(run):
    check = next(c for c in run.checks
                 if (c.step.smaller, c.step.larger, c.workload, c.protocol)
                 == ("netapp-aff-a70", "netapp-aff-a90", "oltp", "FCP"))
    small, large = _direct("netapp-aff-a70", "oltp"), _direct("netapp-aff-a90", "oltp")
    assert check.smaller.saturation == pytest.approx(small[0], rel=1e-9)
    assert check.larger.saturation == pytest.approx(large[0], rel=1e-9)
    assert check.smaller.light_ms == pytest.approx(small[1], rel=1e-9)
    assert check.larger.light_ms == pytest.approx(large[1], rel=1e-9)
    assert check.holds == (large[0] >= small[0] and large[1] <= 1.10 * small[1])


def test_the_verdict_has_no_saturation_slack():
    from models.validation.ladders import PlatformPoint

    base = PlatformPoint(1000.0, 0.2, "CPU", "calibrated")
    assert verdict(base, PlatformPoint(1000.0, 0.22, "CPU", "calibrated")) == (True, "")
    held, why = verdict(base, PlatformPoint(999.0, 0.2, "CPU", "calibrated"))
    assert not held and why == "saturation -0.1%"
    held, why = verdict(base, PlatformPoint(2000.0, 0.23, "CPU", "calibrated"))
    assert not held and why == "light-load latency +15.0%"


def test_platform_bases_cover_every_platform_and_count_the_default():
    from models.catalog import CloudVm, ManagedService
    from models.performance.profiles import controller_profile

    bases = {b.id: b for b in platform_bases(CATALOG)}
    for kind in (Controller, CloudVm, ManagedService):
        assert {e.id for e in CATALOG if isinstance(e, kind)} <= set(bases)
    # independently: a controller is on the default when its first block protocol or NFS finds no profile
    for e in CATALOG:
        if isinstance(e, Controller):
            protocols = [p for p in ("FCP", "NVMe/FC", "iSCSI", "NVMe/TCP") if p in e.protocols][:1]
            protocols += ["NFS"] if "NFS" in e.protocols else []
            none = any(controller_profile(e, CATALOG, e.default_software, p)[0] is None for p in protocols)
            assert bases[e.id].on_default == none, e.id
    assert bases["netapp-aff-a800"].bases[0] == ("FCP", "calibrated")
    assert bases["netapp-aff-a70"].bases == (("FCP", "hardware relation only"), ("NFS", "hardware relation only"))
    assert not any(b.on_default for b in bases.values())


def test_validate_prints_the_two_lines_with_the_true_counts(capsys, run):
    from app.cli import main

    main(["validate", "-v"])
    out = capsys.readouterr().out
    found = re.search(r"^platform ladders: (\d+) checks, (\d+) hold \(not in the pass count below\)$", out, re.M)
    assert found and (int(found[1]), int(found[2])) == (len(run.checks), run.holding)
    bases = platform_bases(CATALOG)
    default = re.search(r"^platforms on the uncalibrated default: (\d+) of (\d+) \(controllers (\d+) of (\d+)",
                        out, re.M)
    controllers = [b for b in bases if b.kind == "controller"]
    assert default and [int(g) for g in default.groups()] == [
        sum(b.on_default for b in bases), len(bases), sum(b.on_default for b in controllers), len(controllers)]
    # the ladders come before the seed cases' pass count and say they are outside it
    assert out.index("platform ladders:") < out.rindex("headline: every check counted once")
    assert "not in the pass count below nor in the exit status" in out
    # -v: one row per check, each with both saturations and the verdict
    rows = [line for line in out.splitlines() if re.match(r"^(AFF|ASA|FAS|EF|E\d)\S* .*\b(holds|FAILS)\b", line)]
    assert len(rows) == len(run.checks)
    a70 = next(c for c in run.checks if (c.step.smaller, c.step.larger, c.workload) ==
               ("netapp-aff-a70", "netapp-aff-a90", "nfs"))
    row = next(r for r in rows if r.startswith("AFF A70 ") and "NFS" in r)
    assert f"{a70.smaller.saturation:,.0f}" in row and f"{a70.larger.saturation:,.0f}" in row
    assert ("holds" in row) == a70.holds
    # the NVMe/FC checks are rows of their own, named by the protocol, the A800 -> A90 step among them
    nvme = [c for c in run.checks if c.protocol == "NVMe/FC"]
    assert len([r for r in rows if "OLTP 8K 70/30 NVMe/FC" in r]) == len(nvme) > 0
    a800 = next(c for c in nvme if (c.step.smaller, c.step.larger) == ("netapp-aff-a800", "netapp-aff-a90"))
    row = next(r for r in rows if r.startswith("AFF A800 ") and "AFF A90 " in r and "NVMe/FC" in r)
    assert f"{a800.smaller.saturation:,.0f}" in row and ("holds" in row) == a800.holds


def _with_contradiction(smaller: str, larger: str, **fields) -> dict:
    """The bundled ladder file's tables with ``fields`` added to the step ``smaller`` < ``larger``."""
    raw = _raw()
    step = next(s for s in raw["step"] if (s["smaller"], s["larger"]) == (smaller, larger))
    step.update(fields)
    return raw


@pytest.mark.parametrize("fields, message", [
    ({"contradicted": "a figure"}, "'contradicted' (the cited figure) and 'contradicts'"),
    ({"contradicts": ["saturation"]}, "'contradicted' (the cited figure) and 'contradicts'"),
    ({"contradicted": "a figure", "contradicts": ["speed"]}, "'contradicts' names 'speed'"),
    ({"contradicted": "a figure", "contradicts": "saturation"}, "'contradicts' must be a list of texts"),
    ({"contradicted": "a figure", "contradicts": ["saturation"], "contradicted_workloads": ["tpcc"]},
     "'contradicted_workloads' names 'tpcc'"),
    ({"contradicted_workloads": ["oltp"]}, "'contradicted_workloads' without 'contradicted'"),
])
def test_a_contradiction_says_what_it_contradicts(fields, message):
    raw = _with_contradiction("netapp-aff-a700", "netapp-aff-a70", **fields)
    with pytest.raises(LadderError, match=re.escape(message)) as caught:
        parse_ladders(raw, "ladders.toml", CATALOG)
    assert "netapp-aff-a700 < netapp-aff-a70" in str(caught.value)


def test_a_check_is_contradicted_only_where_every_failing_respect_is_cited():
    """A figure that contradicts the AFF A800 -> A70 step's light-load latency on the OLTP workload: the FCP check,
    which fails on light-load latency alone, fails only where the figure says so; the NVMe/FC check, which fails on
    saturation too, still fails otherwise; the NFS check holds and stays holding; a figure named for the NFS
    workload only excuses nothing on OLTP. Counted independently from the numbers."""
    from models.validation.ladders import Ladders, failures

    def checks(**fields):
        """The checks of that one step, the step read with ``fields`` from the file."""
        ladders = parse_ladders(_with_contradiction("netapp-aff-a800", "netapp-aff-a70", **fields), "ladders.toml",
                                CATALOG)
        step = next(s for s in ladders.steps if (s.smaller, s.larger) == ("netapp-aff-a800", "netapp-aff-a70"))
        return run_ladders(CATALOG, Ladders(ladders.setups, (step,))).checks

    found = {(c.workload, c.protocol): c for c in checks(contradicted="a figure", contradicts=["light-load latency"],
                                                         contradicted_workloads=["oltp"])}
    assert set(found) == {("oltp", "FCP"), ("oltp", "NVMe/FC"), ("nfs", "NFS")}
    for c in found.values():
        respects = {r for r, _ in failures(c.smaller, c.larger)}
        assert c.contradicted == (bool(respects) and respects <= {"light-load latency"} and c.workload == "oltp")
    assert found[("oltp", "FCP")].contradicted and not found[("oltp", "FCP")].holds
    assert not found[("oltp", "NVMe/FC")].contradicted  # its saturation is below the A800's: no figure says so
    assert found[("nfs", "NFS")].holds and not found[("nfs", "NFS")].contradicted
    # the same figure named for the NFS workload only: nothing on OLTP is excused
    assert not any(c.contradicted for c in checks(contradicted="a figure", contradicts=["light-load latency"],
                                                  contradicted_workloads=["nfs"]))
    # no workload named: every workload
    assert next(c for c in checks(contradicted="a figure", contradicts=["light-load latency"])
                if c.protocol == "FCP").contradicted


def test_only_a_contradicted_saturation_leaves_the_capacity_ordering():
    """The hardware relation's ordering (models.performance.hardware_relation.ordering_of) keeps a step whose cited
    figure contradicts its light-load latency only, and leaves out one whose figure contradicts its saturation (or
    does not say what it contradicts)."""
    from models.performance.hardware_relation import ordering_of

    pair = ("netapp-aff-a800", "netapp-aff-a70")

    def kept(**fields):
        return pair in {(s, g) for s, g, _ in ordering_of(_with_contradiction(*pair, **fields))}

    assert kept()
    assert kept(contradicted="a figure", contradicts=["light-load latency"])
    assert not kept(contradicted="a figure", contradicts=["saturation"])
    assert not kept(contradicted="a figure", contradicts=["saturation", "light-load latency"])
    assert not kept(contradicted="a figure")


def test_validate_counts_the_contradicted_checks_apart(capsys, monkeypatch):
    """With a step's light-load latency contradicted by a cited figure, the summary line says how many checks hold,
    how many fail only where the figure says so and how many fail otherwise, and -v marks those rows
    "contradicted" with the figure."""
    import models.validation.ladders as ladders_module
    from app.cli import main

    raw = _with_contradiction("netapp-fas8700", "netapp-fas70", contradicted="NetApp key specifications (test)",
                              contradicts=["light-load latency", "saturation"], contradicted_workloads=["oltp"])
    ladders = parse_ladders(raw, "ladders.toml", CATALOG)
    real = ladders_module.run_ladders
    monkeypatch.setattr(ladders_module, "run_ladders", lambda catalog, _=None: real(catalog, ladders))
    expected = real(CATALOG, ladders)
    # FAS8700 -> FAS70 OLTP on FCP and NVMe/FC: light-load latency and saturation only (the FAS70's half memory:
    # models.performance.cache, Flash Cache keeps what was read, so its overwritten blocks go to the HDDs)
    assert expected.contradicted == 2
    main(["validate", "-v"])
    out = capsys.readouterr().out
    found = re.search(r"^platform ladders: (\d+) checks, (\d+) hold, (\d+) fail only where a cited public figure says "
                      r"so \(contradicted\), (\d+) fail otherwise \(not in the pass count below\)$", out, re.M)
    assert found and [int(g) for g in found.groups()] == [
        len(expected.checks), expected.holding, 2, len(expected.checks) - expected.holding - 2]
    rows = [r for r in out.splitlines() if r.startswith("FAS8700 ") and "FAS70 " in r and "OLTP 8K" in r]
    assert len(rows) == 2 and all(" contradicted " in r and "NetApp key specifications (test)" in r for r in rows)
