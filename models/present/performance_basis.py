"""A controller's performance basis in one line of words, for a tooltip: which kind of profile each protocol it
serves runs on (calibrated, derived, hardware relation only, assumed) with its evidence in a few words, computed
from ``models.performance.evidence.platform_evidence`` (the rows of ``storplan catalog controller --evidence`` and
the catalog browser's details), so the screen says what the engine uses and cannot go stale as the catalog notes
did."""

from __future__ import annotations

from models.catalog import Catalog, Controller
from models.performance.evidence import EvidenceRow, platform_evidence
from models.performance.hardware_relation import HARDWARE_RELATION

PREFIX = "Performance: "
"""How the line starts."""


def first_clause(text: str) -> str:
    """``text`` up to its first ", " or ";" outside parentheses, with its parenthesised parts dropped and spaces
    tidied ("pooled E-Series software costs (assumed, none fitted) on 16 cores per node, parallelism x 1.5 (...)"
    -> "pooled E-Series software costs on 16 cores per node"). Unbalanced parentheses are tolerated."""
    out: list[str] = []
    depth = 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
            continue
        if ch == ")":
            depth = max(depth - 1, 0)
            continue
        if depth:
            continue
        if ch == ";" or (ch == "," and text[i + 1:i + 2] == " "):
            break
        out.append(ch)
    return " ".join("".join(out).split())


def _gloss(row: EvidenceRow) -> str:
    """The evidence of one row in a few words: the hardware relation's cores, "fitted to published measurements"
    for a calibrated profile, "ratio claim" for a sibling's profile scaled by a published ratio, the fitted profile
    of another protocol or release otherwise, and a stated assumption for an assumed profile."""
    if row.profile == HARDWARE_RELATION:
        return first_clause(row.evidence.removeprefix(f"{HARDWARE_RELATION}: "))
    if row.profile == "calibrated":
        return first_clause(row.evidence)
    if row.profile == "assumed":
        return "a stated assumption, no public figure"
    if row.kind == "ratio claim":
        return row.kind
    return "the fitted profile of another protocol or release"


def basis_line(rows: list[EvidenceRow]) -> str:
    """One line from evidence ``rows`` (one per protocol): "Performance: <profile kind> (<evidence in a few
    words>)", groups of protocols with the same basis joined by "; " and named ("for FCP, NVMe/FC") when there is
    more than one group. "" when ``rows`` is empty (a controller serving none of the listed protocols)."""
    groups: dict[tuple[str, str], list[str]] = {}
    for row in rows:
        groups.setdefault((row.profile, _gloss(row)), []).append(row.protocol)
    if not groups:
        return ""
    if len(groups) == 1:
        (profile, gloss), = groups
        return f"{PREFIX}{profile} ({gloss})"
    return PREFIX + "; ".join(f"{profile} ({gloss}) for {', '.join(protocols)}"
                              for (profile, gloss), protocols in groups.items())


def performance_basis(record: Controller, catalog: Catalog) -> str:
    """The performance basis line (:func:`basis_line`) of controller ``record`` on its default software, its
    profiles looked up in ``catalog`` (siblings of ``profile_from``, the pooled relation)."""
    return basis_line(platform_evidence(record, catalog))
