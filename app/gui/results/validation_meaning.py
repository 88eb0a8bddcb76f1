"""One plain line under the Validation tab's headline: what the checks mean for the design shown (REVIEW43 #10: the
red headline "2 in-sample checks fail; 5 prediction summaries miss their target" was the first thing a customer
read, with nothing saying whether this design's own figures are fitted or predicted).

For each platform of the design (each workload's controller, cloud VM or cluster), how its performance figures
were obtained (``WorkloadPerformance.profile_basis``, the words of ``models.present.PROFILE_KIND_WORDS``):
fitted to its own published measurements (its checks are in-sample: they show the fit, not a prediction), carried
over from a related system's fit, or not fitted at all (both predictions, whose accuracy the out-of-sample and
never-fitted lines measure).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from models.evaluate import Evaluation

FITTED = "calibrated"
CARRIED = "derived"
POOLED = "hardware relation only"


def _catalog_name(catalog_id: str) -> str:
    from models.catalog import bundled_catalog

    record = bundled_catalog().find(catalog_id) if catalog_id else None
    return record.name if record is not None else "a related system"


def _platform_phrase(kind: str, sibling: str, name_of: Callable[[str], str]) -> str:
    if kind == FITTED:
        return "fitted to its own published measurements, so its checks are in-sample (they show the fit)"
    if kind == CARRIED:
        return f"predicted from the {name_of(sibling)}'s fit to published measurements"
    if kind == POOLED:
        return ("predicted from ONTAP software costs fitted to published measurements of other platforms or"
                " protocols, on its own hardware")
    return "predicted, with nothing fitted to it"


VSAN_OWN = ("its vSAN software latency was fitted by hand to its own published measurement (VMware's vSAN 6.2 "
            "all-flash SQL Server results), so those checks are in-sample (they show the fit)")
VSAN_CARRIED = ("predicted: its vSAN software latency was fitted by hand to VMware's published vSAN 6.2 all-flash "
                "results and carried over to this cluster, with nothing fitted to a measurement of this cluster")


def vsan_phrase(notes: tuple[str, ...] | list[str]) -> tuple[str, bool] | None:
    """The line's words for a vSAN cluster from its workload's notes (the engine's
    ``models.performance.paths.vsan_latency_basis`` note, the one place that knows): (:data:`VSAN_OWN`, False) for
    the cluster VMware measured, (:data:`VSAN_CARRIED`, True: a prediction) for any other; None without the note."""
    from models.performance.paths import VSAN_LATENCY_CARRIED, VSAN_LATENCY_NOTE

    for note in notes:
        if note.startswith(VSAN_LATENCY_NOTE):
            return (VSAN_CARRIED, True) if VSAN_LATENCY_CARRIED in note else (VSAN_OWN, False)
    return None


def design_meaning(evaluation: Evaluation | None, name_of: Callable[[str], str] = _catalog_name) -> str:
    """The line for ``evaluation`` (a ``models.evaluate.Evaluation``; None or without performance results: "").

    Each platform once, in workload order: named by its system's label where the design has one system, else by
    the workload that runs on it; platforms whose path has no fitted or default figures of their own (a managed
    service's published limits) are left out. ``name_of`` turns a catalog id into its model name.

    Returns e.g. "For this design: AFF A90 HA pair: predicted from the NetApp AFF A800 HA pair's fit to published
    measurements. The prediction lines below show how far predictions miss." ("" when nothing to
    say).
    """
    performance = evaluation.performance if evaluation is not None else None
    workloads = performance.workloads if performance is not None else ()
    capacity = evaluation.capacity if evaluation is not None else None
    systems = capacity.systems if capacity is not None else ()
    single = systems[0].system_label if len(systems) == 1 else ""
    parts: dict[str, str] = {}
    predicted = False
    for workload in workloads:
        basis = workload.profile_basis
        kind = workload.profile or (basis.kind if basis is not None else "")
        if not kind:
            continue
        vsan = vsan_phrase(workload.notes) if workload.protocol == "vSAN" else None
        predicted = predicted or (kind != FITTED if vsan is None else vsan[1])
        phrase = vsan[0] if vsan is not None else _platform_phrase(kind, basis.sibling if basis is not None else "",
                                                                  name_of)
        key = single or workload.name
        if parts.get(key, phrase) != phrase:  # one system, workloads on different footings: name each
            key = f"{single} ({workload.name})"
        parts.setdefault(key, phrase)
    if not parts:
        return ""
    text = "For this design: " + "; ".join(f"{name}: {phrase}" for name, phrase in parts.items()) + "."
    if predicted:
        text += " The prediction lines below show how far predictions miss."
    return text
