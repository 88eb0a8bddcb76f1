"""A workload bound by a "node N IOPS bound" station says whose figure the bound is and that it is per HA pair,
in the summary sentences and the CLI (REVIEW44 #6: the AFF A70 read "node 1 IOPS bound (published figure)" and
"estimated from its family's calibrated systems", with the AFF A90, whose published figure it is, named only in a
note several pages on, and "node 1" read as a per-node figure)."""

from __future__ import annotations

import pytest

from app.cli import main
from models.evaluate import evaluate
from models.formatting import fmt_iops
from models.present.iops_bound import iops_bound_words, whose_words
from models.present.verdicts import bottleneck_sentence, workload_verdicts
from models.project import load
from models.resources import examples_dir


def _workload(name: str):
    performance = evaluate(load(examples_dir() / f"{name}.toml")).performance
    return performance, performance.workloads[0]


@pytest.mark.parametrize("name, whose", [
    ("aff-a70-ns224-oracle-nvmetcp", "25,000 block operations per second per core on its 64 cores (an assumed "
                                     "count: not published), the rate per core of NetApp's published 'up to' figure "
                                     "of 2,400,000 IOPS for the AFF A90 HA pair over its 96 cores (an assumed count: "
                                     "not published)"),
    ("aff-a50-ns224-oracle-nvmefc64", "25,000 block operations per second per core on its 48 cores (an assumed "
                                      "count: not published), the rate per core of NetApp's published 'up to' figure "
                                      "of 2,400,000 IOPS for the AFF A90 HA pair over its 96 cores (an assumed count: "
                                      "not published)"),
])
def test_the_summary_names_whose_figure_per_ha_pair(name, whose):
    performance, wp = _workload(name)
    station = next(s for s in wp.stations if s.name == wp.bottleneck)
    assert station.ident.role == "iops_bound" and wp.profile == "hardware relation only"  # the example's facts
    bound = f"bound at {fmt_iops(wp.saturation_iops)} IOPS per HA pair: "  # the cap is the saturation here
    words = iops_bound_words(wp)
    assert words == bound + whose, words
    # the bottleneck sentence states the bound once (it is the saturation figure) and names the vendor once
    # (REVIEW45 #7: "at saturation, bound at 2.40M IOPS per HA pair: ... NetApp ranks the NetApp AFF A90 ...")
    sentence = bottleneck_sentence(wp).text
    assert f"to {fmt_iops(wp.saturation_iops)} IOPS at saturation, the per-HA-pair bound of {whose};" in sentence
    assert sentence.count(fmt_iops(wp.saturation_iops)) == 2, sentence  # at saturation and the SLO's, not thrice
    assert "NetApp AFF" not in sentence and "hardware relation's" not in sentence, sentence
    (summary,) = [v.text for v in workload_verdicts(performance) if v.subject == wp.name and "within the" in v.text]
    assert f"estimated from its family's calibrated systems and {words}, uncertainty P10–P90" in summary, summary


def test_whose_words_names_the_vendor_once():
    raw = ("the NetApp AFF A90 HA pair's bound from NetApp's published 'up to' figure, which the NetApp AFF A70 HA "
           "pair is not above (NetApp ranks the NetApp AFF A90 HA pair above it: vendor upgrade path), which the "
           "NetApp AFF A50 HA pair is not above (NetApp ranks the NetApp AFF A70 HA pair above it: model numbering)")
    assert whose_words(raw) == ("NetApp's published 'up to' figure for the AFF A90 HA pair, which NetApp ranks above "
                                "the AFF A70 HA pair (vendor upgrade path), which NetApp ranks above the AFF A50 HA "
                                "pair (model numbering)")


def test_the_cli_bottleneck_line_names_whose_figure(capsys):
    _, wp = _workload("aff-a70-ns224-oracle-nvmetcp")
    main(["evaluate", str(examples_dir() / "aff-a70-ns224-oracle-nvmetcp.toml")])
    out = capsys.readouterr().out
    # the station is node 1's share of the HA pair's cap: named so beside "per HA pair" (review 53b #16)
    assert wp.bottleneck == "node 1 IOPS bound"
    assert f"  bottleneck            HA pair IOPS bound (node 1's share), {iops_bound_words(wp)}\n" in out


def test_a_cpu_bottleneck_adds_nothing():
    _, wp = _workload("aff8080-sqlserver-tpce")
    station = next(s for s in wp.stations if s.name == wp.bottleneck)
    assert station.ident.role != "iops_bound"
    assert iops_bound_words(wp) == "" and "per HA pair" not in bottleneck_sentence(wp).text
