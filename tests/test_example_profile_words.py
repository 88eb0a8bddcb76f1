"""A bundled example's description (the PDF cover's text) names its performance profile in the words the figures
carry (REVIEW44 #9: the AFF A70's cover said "assumed (the widest uncertainty band)" although its figures are
"hardware relation only" and the derived band is wider), and no description or Validation-tab line claims which
uncertainty band is widest: that is the band table's to say, and it changes with each calibration."""

from __future__ import annotations

import re

import pytest

from models.evaluate import evaluate
from models.present.summary import profile_kind_text
from models.resources import examples_dir
from models.store.textio import load_any

STATED = re.compile(r"performance profile is (.+?)(?: \(|[.;]|$)")
EXAMPLES = sorted(p.name for p in examples_dir().glob("*.toml"))


@pytest.mark.parametrize("name", EXAMPLES)
def test_a_stated_profile_kind_is_the_one_the_figures_carry(name):
    project = load_any(examples_dir() / name)
    text = project.info.description
    assert "widest" not in text, name
    stated = STATED.search(text)
    if stated is None:
        return
    kinds = {profile_kind_text(w) for w in evaluate(project).performance.workloads}
    assert kinds == {stated.group(1)}, (name, stated.group(1), kinds)


def test_the_a70_cover_names_its_kind():
    text = load_any(examples_dir() / "aff-a70-ns224-oracle-nvmetcp.toml").info.description
    assert STATED.search(text).group(1) == "hardware relation only"
