"""File (NAS) workloads: NFSv3, NFSv4.1 and SMB3 operations on a block path's stations.

A NAS workload's IOPS count every file operation (NFS ops/s, as SPEC SFS reports them); its operation mix
(``Workload.nas.op_mix``) says which share moves data (``read``, ``write``: the workload's block size each) and
which are metadata (``getattr``, ``lookup``, ``access``, ... and the modifying ``setattr``, ``create``,
``remove``, ``commit``). The path is built as for a block workload of the same block size (reads and writes), then
:func:`apply_op_mix` turns it into a path of file operations:

* "read-type" operations are the reads plus the read-only metadata operations, "write-type" the writes plus the
  modifying metadata operations; the path's read fraction becomes the read-type share.
* CPU stations: a metadata operation costs :data:`METADATA_CPU_RATIO` x the CPU of a data operation of its type
  (no data copy or checksum); every operation costs :data:`PROTOCOL_CPU_FACTOR` x the profile's (block
  protocol) CPU.
* Data stations (drives, ports, links, back end, NVRAM mirroring): data operations use them, so their demands
  scale by the data share of their type; a metadata operation adds only what its cache misses cost (one metadata
  block read from the drives, or a Flash Cache hit: :mod:`models.performance.cache`, passed in by the path
  builder), and a modifying operation's NVRAM log record of a few hundred bytes is neglected.
* Delays (fabric, software path, fixed latency, HA mirror round trip) and WAFL affinities (kind "affinity"):
  every operation pays them.

Sources: the operation names and the SPEC SFS 2008 NFSv3 mix used by the bundled NFS example come from NetApp's
public comparison of SPEC SFS 3.0 and SPEC SFS 2008 workloads (M. Eisler, "More on SPEC SFS 2008", NetApp blog,
April 2008: LOOKUP 24%, READ 18%, WRITE 10%, GETATTR 26%, READLINK 1%, READDIR 1%, CREATE 1%, REMOVE 1%,
FSSTAT 1%, SETATTR 4%, READDIRPLUS 2%, ACCESS 11%). The per-operation CPU ratios are assumptions, said so below.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from models.project.model import (
    NAS_METADATA_READ_OPS,
    NAS_METADATA_WRITE_OPS,
    NAS_READ_OPS,
    NAS_WRITE_OPS,
    NasWorkload,
)

if TYPE_CHECKING:
    from models.performance.paths import StationSpec
    from models.performance.stations import StationId

METADATA_CPU_RATIO = 0.5
"""assumed: controller CPU of one metadata operation over that of an 8 KiB data operation of the same type.
NetApp publishes no per-operation CPU cost (not in the ONTAP NFS / SMB best-practice reports TR-4067 and TR-4543
nor in SPEC SFS disclosures, which give only ops/s and response time); a metadata operation skips the data copy
and checksum, which is taken here as half the work."""

PROTOCOL_CPU_FACTOR = {"NFSv3": 1.0, "NFSv4.1": 1.15, "SMB3": 1.2}
"""assumed: CPU of a file operation relative to the block-protocol profile the controller is calibrated with.
NFSv3 is stateless and taken as costing what an iSCSI / FCP I/O does; NFSv4.1 adds sessions, compound
operations and state (locks, delegations) and SMB3 sessions, credits and durable handles, taken as 15% and 20%
more. No public per-protocol CPU figure exists for ONTAP; the profile used is 'derived' for every NAS workload."""



def _respec(spec: StationSpec, **changes: float) -> StationSpec:
    """``dataclasses.replace(spec, **changes)`` of a station (a frozen dataclass with no ``__post_init__``): the same
    fields, filled in directly (``replace`` cost more than the rest of turning a path into file operations)."""
    new = object.__new__(type(spec))
    fields = new.__dict__
    fields.update(spec.__dict__)
    fields.update(changes)
    return new


def read_type_share(nas: NasWorkload) -> float:
    """Share (0..1) of operations that are reads or read-only metadata: the path's read fraction."""
    return nas.share(NAS_READ_OPS + NAS_METADATA_READ_OPS)


def apply_op_mix(stations: Sequence[StationSpec], nas: NasWorkload,
                 metadata: Mapping[StationId, float] | None = None,
                 metadata_visits: Mapping[StationId, float] | None = None) -> tuple[list[StationSpec], str]:
    """The block path's stations turned into a file-operation path (module docstring), and a note in words.

    Args:
        stations: the ``StationSpec`` records of the same workload built as a block workload; nas: its protocol
        and operation mix; metadata: demand of one metadata operation at a station, seconds, by station identity
        (the read cache's misses and Flash Cache hits, :mod:`models.performance.cache`): a read-only metadata
        operation adds it to the station's read demand, a modifying one to its write demand (it waits for the
        block to be read before it changes it). None or empty: metadata operations use no data station.
        metadata_visits: at a station on a branch (``StationSpec.branch``, e.g. the drives), the share of
        metadata operations that visit it, by station identity: the station's read / write visit shares become
        those of the read-type / write-type operations (the data operations' scaled by their share, plus these).

    Returns:
        (stations, note): new ``StationSpec`` records (the input is not changed) and a sentence for the notes.
    """
    f_r, f_w = nas.share(NAS_READ_OPS), nas.share(NAS_WRITE_OPS)
    f_mr, f_mw = nas.share(NAS_METADATA_READ_OPS), nas.share(NAS_METADATA_WRITE_OPS)
    read_type, write_type = f_r + f_mr, f_w + f_mw
    data_r = f_r / read_type if read_type > 0 else 0.0
    data_w = f_w / write_type if write_type > 0 else 0.0
    cpu_r = (f_r + f_mr * METADATA_CPU_RATIO) / read_type if read_type > 0 else 0.0
    cpu_w = (f_w + f_mw * METADATA_CPU_RATIO) / write_type if write_type > 0 else 0.0
    factor = PROTOCOL_CPU_FACTOR[nas.protocol]
    out = []
    for spec in stations:
        if spec.delay or spec.kind == "affinity":  # every operation pays these (metadata included)
            out.append(spec)
        elif spec.kind == "cpu":
            out.append(_respec(spec, read_s=spec.read_s * cpu_r * factor, write_s=spec.write_s * cpu_w * factor,
                               write_async_s=spec.write_async_s * data_w))
        else:
            extra = metadata.get(spec.ident, 0.0) if metadata else 0.0
            meta_r = extra * f_mr / read_type if read_type > 0 else 0.0
            meta_w = extra * f_mw / write_type if write_type > 0 else 0.0
            changes = dict(read_s=spec.read_s * data_r + meta_r, write_s=spec.write_s * data_w + meta_w,
                           write_async_s=spec.write_async_s * data_w)
            if spec.branch:  # the share of each operation type that visits it
                visit = metadata_visits.get(spec.ident, 0.0) if metadata_visits else 0.0
                meta_rv = visit * f_mr / read_type if read_type > 0 else 0.0
                meta_wv = visit * f_mw / write_type if write_type > 0 else 0.0
                changes.update(read_visit=spec.read_visit * data_r + meta_rv,
                               write_visit=spec.write_visit * data_w + meta_wv)
            out.append(_respec(spec, **changes))
    note = (f"{nas.protocol} operation mix: {f_r:.0%} reads, {f_w:.0%} writes, {f_mr + f_mw:.0%} metadata "
            f"operations (CPU {METADATA_CPU_RATIO:g} x a data operation's, assumed; {nas.protocol} CPU "
            f"{PROTOCOL_CPU_FACTOR[nas.protocol]:g} x the block profile's, assumed); IOPS count every operation")
    return out, note
