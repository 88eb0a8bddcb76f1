"""Whose figure a workload's "node N IOPS bound" is, in words (REVIEW44 #6): the station is a rate cap on a
controller's block operations (``models.performance.hardware_relation.iops_ceiling``: its own published "up to" figure,
or its family's published rate per core times its own cores), split over the nodes, so "node 1 IOPS bound" alone reads
as a per-node figure of the system's own. The path builder notes the cap as "<system>: at most <N> block operations per
second, <whose bound it is>" (``models.performance.paths``); this module turns that note into the words the summary
sentences, the CLI and the report print beside the bottleneck."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from models.formatting import CAP_NOTE, derived_bound_words, fmt_iops, station_words

if TYPE_CHECKING:
    from models.performance.results import WorkloadPerformance

__all__ = ["SLO_CAPPED", "bottleneck_words", "derived_bound_words", "iops_bound_words", "knee_words",
           "saturation_bound_words", "slo_capped_words", "station_words", "whose_words"]

_CAP_NOTE = CAP_NOTE


_OWN_FIGURE = re.compile(r"^the (?P<system>.+?)'s bound from (?P<vendor>\w+)'s published 'up to' figure")
"""A record's own published figure, as ``models.performance.hardware_relation`` words it."""
_RANKED = re.compile(r", which the (?P<below>.+?) is not above \((?P<vendor>\w+) ranks the .+? above it: "
                     r"(?P<kind>[^)]+)\)")
"""One step of a vendor's ordering under a published figure (the system ranked above is the one the words before it
name, so it is said once)."""


def whose_words(whose: str) -> str:
    """A cap's "whose bound it is" words (``models.performance.hardware_relation``) said once and naturally:
    ``the NetApp AFF A90 HA pair's bound from NetApp's published 'up to' figure, which the NetApp AFF A70 HA pair is
    not above (NetApp ranks the NetApp AFF A90 HA pair above it: vendor upgrade path)`` reads ``NetApp's published
    'up to' figure for the AFF A90 HA pair, which NetApp ranks above the AFF A70 HA pair (vendor upgrade path)``
    (the vendor named once, before its products)."""
    text = _OWN_FIGURE.sub(lambda m: f"{m['vendor']}'s published 'up to' figure for the {m['system']}", whose)
    text = _RANKED.sub(lambda m: f", which {m['vendor']} ranks above the {m['below']} ({m['kind']})", text)
    for vendor in dict.fromkeys(re.findall(r"(\w+)'s published", text)):
        text = re.sub(rf"\bthe {vendor} (?=\S)", "the ", text)  # "the NetApp AFF A90" after "NetApp's ..."
    return text


def _cap(wp: WorkloadPerformance) -> tuple[float, str, str] | None:
    """(the cap in IOPS, "per HA pair" or "for the <system>", whose words) of ``wp``'s IOPS bound bottleneck, None
    when its bottleneck is no IOPS bound station or its path notes no cap."""
    station = next((s for s in wp.stations if s.name == wp.bottleneck), None)
    if station is None or station.ident.role != "iops_bound":
        return None
    found = [m for m in (_CAP_NOTE.match(note) for note in wp.notes) if m is not None]
    if not found:
        return None
    cap = found[-1]
    system = cap["system"]
    where = "per HA pair" if system.endswith("HA pair") else f"for the {system}"
    return float(cap["iops"].replace(",", "")), where, whose_words(cap["whose"])


def iops_bound_words(wp: WorkloadPerformance) -> str:
    """``bound at 2.40M IOPS per HA pair: NetApp's published 'up to' figure for the AFF A90 HA pair, which ...``
    when ``wp``'s (a ``WorkloadPerformance``) bottleneck is an IOPS bound station (role "iops_bound") and its path
    notes the cap; the cap is for the whole system the note names ("per HA pair" for an HA pair, else "for the
    <system>"), not per node. "" otherwise."""
    found = _cap(wp)
    if found is None:
        return ""
    iops, where, whose = found
    return f"bound at {fmt_iops(iops)} IOPS {where}: {whose}"


def saturation_bound_words(wp: WorkloadPerformance) -> str:
    """What to say after "it limits the design to <saturation> IOPS at saturation, ": the cap once, without its
    figure again when it is the saturation printed (``the per-HA-pair bound of NetApp's published 'up to' figure
    for ...``), else :func:`iops_bound_words`; "" without an IOPS bound bottleneck."""
    found = _cap(wp)
    if found is None:
        return ""
    iops, where, whose = found
    if fmt_iops(iops) != fmt_iops(wp.saturation_iops):
        return iops_bound_words(wp)
    per = "the per-HA-pair bound" if where == "per HA pair" else f"the bound {where}"
    return f"{per} of {whose}"


SLO_CAPPED = "capped by the published IOPS bound"
"""Said beside a max IOPS at the SLO that equals saturation because a published IOPS bound caps both (r2 review #8:
"saturation 2.40M, max IOPS at SLO 2.40M" read as a contradiction of "saturation: the bottleneck 100% busy")."""


def slo_capped_words(wp: WorkloadPerformance) -> str:
    """:data:`SLO_CAPPED` when ``wp``'s (a ``WorkloadPerformance``) bottleneck is an IOPS bound whose path notes
    the cap (:func:`iops_bound_words`) and its max IOPS at the SLO reads as its saturation (the latency stays
    within the SLO up to the cap), else "". A cap scaled from another platform's figure says so: ``capped by the
    IOPS bound estimated from the AFF A90 HA pair's published figure (assumed core counts)``
    (:func:`derived_bound_words`), never "published" for a figure this platform has none of."""
    found = _cap(wp)
    if found is None or wp.max_iops_at_slo is None or wp.saturation_iops is None:
        return ""
    if fmt_iops(wp.max_iops_at_slo) != fmt_iops(wp.saturation_iops):
        return ""
    derived = derived_bound_words(found[2])
    return f"capped by the IOPS {derived}" if derived else SLO_CAPPED


def bottleneck_words(wp: WorkloadPerformance) -> str:
    """``wp``'s bottleneck as every output names it (:func:`station_words`); "" without one."""
    return station_words(wp.bottleneck, wp) if wp.bottleneck else ""


def knee_words(wp: WorkloadPerformance) -> str:
    """``wp``'s curve-shape note (``knee_note``) with its bottleneck named as :func:`bottleneck_words` names it;
    "" without a note."""
    note = wp.knee_note or ""
    return note.replace(wp.bottleneck, bottleneck_words(wp)) if wp.bottleneck and note else note
