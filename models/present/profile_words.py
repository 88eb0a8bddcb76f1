"""The words for the kinds of performance profile (calibrated, derived, hardware relation only, assumed): one set
of words every view reads, re-exported by ``models.present.verdicts`` (the verdicts, the catalog browser's legend,
the report's and the CLI's profile row in ``models.present.uncertainty``, the status bar's and the Performance tab's
tooltips). Qt-free and import-light: a module of its own so ``models.present.uncertainty`` reads it without an
import cycle with the verdicts."""

from __future__ import annotations

__all__ = ["ASSUMED_UNMEASURED_WORDS", "PROFILE_KIND_MEANINGS", "UNFITTED_RELATION_UNMEASURED", "UNMEASURED_WORDS",
           "profile_kind_phrase", "profile_kinds_legend"]

PROFILE_KIND_MEANINGS: dict[str, str] = {
    "calibrated": "fitted to published benchmarks of this system",
    "derived": "derived from a related system's measurements",
    "hardware relation only": "estimated from its family's calibrated systems",
    "assumed": "from StorPlan's default parameters, not fitted to any published measurement",
}
"""What each performance profile kind (``models.present.summary.PROFILE_KIND_WORDS``) means, in a customer's words:
the one set of words the verdicts (:data:`UNMEASURED_WORDS`: a figure not measured on this system), the catalog
browser's evidence legend and ``storplan catalog controller --evidence``
(``models.present.catalog_browser.EVIDENCE_LEGEND``) say it in."""


def profile_kind_phrase(kind: str) -> str:
    """A profile kind named with what it means (:data:`PROFILE_KIND_MEANINGS`): "calibrated (fitted to published
    benchmarks of this system)"; a meaning that begins with the kind's name stands alone ("derived from a related
    system's measurements"). The words every description of the kinds is built from (the report's and the CLI's
    profile row, the status bar's and the Performance tab's tooltips: :func:`profile_kinds_legend`)."""
    meaning = PROFILE_KIND_MEANINGS[kind]
    return meaning if meaning.startswith(kind) else f"{kind} ({meaning})"


def profile_kinds_legend() -> str:
    """Every profile kind and its meaning, one sentence: "calibrated (fitted ...), derived from ..., ... or
    assumed (...)" (:func:`profile_kind_phrase`), with the two paths no controller profile governs
    (``models.present.summary.NO_PROFILE_WORDS``) last."""
    from models.present.summary import NO_PROFILE_WORDS

    parts = [profile_kind_phrase(kind) for kind in PROFILE_KIND_MEANINGS]
    parts += [f"{NO_PROFILE_WORDS['vSAN']} (a vSAN cluster)", f"{NO_PROFILE_WORDS['service']} (a managed service)"]
    return ", ".join(parts[:-1]) + " or " + parts[-1]


UNMEASURED_WORDS: dict[str, str] = {kind: words for kind, words in PROFILE_KIND_MEANINGS.items()
                                    if kind != "calibrated"}
ASSUMED_UNMEASURED_WORDS: dict[str, str] = {
    "default": UNMEASURED_WORDS["assumed"],
    "catalogued": "from its catalogued profile, whose values are assumed, none fitted to a published measurement",
    "project": "from the project file's own profile, not fitted to any published measurement",
}
"""``UNMEASURED_WORDS``' "assumed" by where the profile's numbers come from (``models.performance.profiles.
assumed_origin``): StorPlan's default parameters only where no profile applies; a catalogued profile none of
whose fields a measurement fitted (the EF550's SANtricity profile) or the project file's own is not them."""
UNFITTED_RELATION_UNMEASURED = "estimated from its family's catalogued software costs, none fitted to a measurement"
"""``UNMEASURED_WORDS``' "hardware relation only" when no profile of the family is fitted (the E-Series)."""
"""How a figure not fitted to this system's own measurements was obtained (a profile kind -> words); a path no
profile governs reads in the words of ``models.present.summary.NO_PROFILE_WORDS`` instead."""
