"""Problem messages name public documents, never the reference-notes file the facts were gathered in: a hybrid vSAN
cluster with deduplication and compression, erasure coding on two hosts, a CVO VM past its data-disk limit (each a
problem built from the capacity rules' document names, shown as written on the Problems tab, the CLI and the PDF)."""

from __future__ import annotations

import re

import pytest

from models.evaluate import evaluate
from models.project import load
from models.project.model import HciClusterNode
from models.resources import examples_dir

INTERNAL = re.compile(r"public_facts|\.md\b")


def _with_cluster(changes: dict) -> list[str]:
    project = load(examples_dir() / "vsan8-osa-hybrid-4host-oltp.toml")
    scenario = project.scenarios[0]
    nodes = [n.model_copy(update=changes) if isinstance(n, HciClusterNode) else n for n in scenario.nodes]
    project = project.model_copy(update={"scenarios": [scenario.model_copy(update={"nodes": nodes}),
                                                       *project.scenarios[1:]]})
    return [p.message for p in evaluate(project).problems]


@pytest.mark.parametrize("changes, expected", [
    ({"dedupe_compression": True}, "deduplication and compression are all-flash only (VMware vSAN documentation)"),
    ({"policy": "ftt1-raid5"}, "erasure coding needs an all-flash cluster"),
    ({"hosts": 2}, "needs at least 3 hosts"),
])
def test_vsan_problems_cite_the_document_not_the_notes_file(changes, expected):
    messages = _with_cluster(changes)
    assert any(expected in m for m in messages), messages
    assert not [m for m in messages if INTERNAL.search(m)]
