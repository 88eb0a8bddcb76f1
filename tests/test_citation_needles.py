"""A citation rewrite is tried only when its needle is in the text (``models.present.citations``): every text the
catalog, the presets and the default example cite reads exactly as with every rewrite tried, and each needle is in
every match of its pattern."""

from __future__ import annotations

import functools
import re

from models.catalog import bundled_catalog
from models.evaluate import evaluate
from models.present import citations
from models.project import load
from models.resources import examples_dir
from models.workloads import bundled_presets


@functools.cache
def _corpus() -> list[str]:
    """The source texts a customer's documents cite: every catalog provenance source and note, every preset
    source, and the default example's capacity steps (sources and formulas) and workload notes."""
    texts = [p.source for entry in bundled_catalog() for p in entry.provenance.values()]
    texts += [entry.notes for entry in bundled_catalog() if getattr(entry, "notes", "")]
    texts += [source for preset in bundled_presets().values() for source in preset.sources.values()]
    evaluation = evaluate(load(examples_dir() / "aff-a70-ns224-oracle-nvmetcp.toml"))
    assert evaluation.capacity is not None
    texts += [str(text) for system in evaluation.capacity.systems for step in system.steps
              for text in (step.source, step.formula)]
    if evaluation.performance is not None:
        texts += [note for workload in evaluation.performance.workloads for note in workload.notes]
    return sorted({t for t in texts if t})


def _uncached(source: str) -> str:
    return citations.customer_citation.__wrapped__(source)  # type: ignore[attr-defined]


def test_every_cited_text_reads_as_with_every_rewrite_tried(monkeypatch):
    corpus = _corpus()
    assert len(corpus) > 500
    guarded = [_uncached(text) for text in corpus]
    assert sum(1 for a, b in zip(corpus, guarded, strict=True) if a != b) > 100  # the rewrites do rewrite
    every = tuple((pattern, replacement, flags, None) for pattern, replacement, flags, _ in citations._REWRITE_PATTERNS)
    monkeypatch.setattr(citations, "_REWRITE_PATTERNS", every)
    monkeypatch.setattr(citations._rx(), "_rewrites", {})  # compiled afresh from the table tried in full
    tried_all = [_uncached(text) for text in corpus]
    differ = [(text, a, b) for text, a, b in zip(corpus, guarded, tried_all, strict=True) if a != b]
    assert not differ, differ[:3]


def test_a_needle_is_in_every_match_of_its_pattern():
    """Each needle is literally part of whatever its pattern matches in the cited texts (raw, and as each text
    reads before the rewrites: the seed numbers already named), and most patterns do match some text."""
    texts = _corpus()
    texts += [citations._rx().seed_file.sub(lambda m: citations._seed_title(m.group(1)), t) for t in texts]
    matched = 0
    for pattern, _replacement, flags, needle in citations._REWRITE_PATTERNS:
        if needle is None:
            continue
        found = [m.group(0) for t in texts for m in re.finditer(pattern, t, flags) if m.group(0)]
        matched += bool(found)
        assert all(needle in m for m in found), (pattern, needle, [m for m in found if needle not in m][:3])
    assert matched >= 15
