"""The read cache of a controller: which reads its memory (and a Flash Cache / PAM module behind it) serves, and
which go to the drives, for data reads and for the metadata a file operation needs.

The model (every function here is pure; :mod:`models.performance.paths` builds the stations from it):

* **Working set.** A workload's data working set is ``Workload.working_set_bytes``, which the user sets; when it
  is not set, the whole data set (``dataset_bytes``) is the default, the conservative choice (every byte of the
  data set as likely to be read). A workload with neither has no cache hits (:func:`lru_hit_ratio`).
* **Hit ratio of an LRU cache** (:func:`lru_hit_ratio`): ``min(1, cache / working set)`` for uniform random reads
  over the working set (Mattson, Gecsei, Slutz & Traiger 1970, "Evaluation techniques for storage hierarchies",
  IBM Systems Journal 9(2): the stack-distance argument, which for uniform references over W blocks gives a hit
  ratio of C / W to an LRU cache of C blocks); for sequential reads that loop over the working set, 1 when it fits
  and 0 when it does not ("sequential flooding" of LRU); mixed by the random share.
  The random form does not depend on the replacement policy, which ONTAP does not publish: with every block of the
  working set equally likely to be read next, a policy that cannot see the future holds C of the W blocks and
  hits any one of them with probability C / W (a symmetry argument). The access is taken as uniform because
  synthetic random tests draw uniform offsets by default ("By default, fio will use a completely uniform random
  distribution when asked to perform random IO", fio HOWTO, ``random_distribution``), and because a controller's
  cache is a second-level cache whose hottest blocks the hosts' own caches already hold (Y. Zhou, J. F. Philbin &
  K. Li, "The Multi-Queue Replacement Algorithm for Second Level Buffer Caches", USENIX Annual Technical
  Conference 2001, §3). A Zipf-like skew (L. Breslau et al., "Web Caching and Zipf-like Distributions: Evidence
  and Implications", IEEE INFOCOM 1999: hit ratio about (C / W) ^ (1 - theta)) would raise the hit ratio of a
  cache smaller than the working set; it is not used: no public skew figure for the bundled workloads was found,
  and the uniform form is exact for the synthetic ones. So a platform with less memory than the working set reads
  more from its drives than one that holds all of it (the AFF A70's 256 GB per HA pair against the AFF A800's
  1,280 GB, NetApp key specifications), at light load too.
* **Memory, then Flash Cache.** Flash Cache (and its predecessor PAM) is a victim cache of the controller's
  buffer cache: a block evicted from memory is kept in the module, and a read looks in memory, then in the
  module, then on the drives (NetApp TR-3832, S. Shapiro, "Flash Cache Best Practice Guide", November 2013, §2.1-
  2.4 "Data ONTAP disk read operation", "Clearing space in system memory", "Retaining active data in Flash Cache",
  "Reading data from Flash Cache"). Memory and module hold different blocks, so together they act as one LRU
  cache of their summed size; the module's share of the hits is the total's less memory's.
* **Flash Cache holds what was read, not what was written** (:func:`read_cache_split`, ``read_share``). The module
  is filled by reads ("The Flash Cache module is slowly populated with data when data read requests are served",
  NetApp Data ONTAP documentation, "How Flash Cache works", library.netapp.com/ecmdocs/ECMP12454815; a NetApp
  engineer's comparison lists Flash Cache's cached data as "Reads" against Flash Pool's "Reads, random
  overwrites", bitpushr.wordpress.com, "Differences between NetApp Flash Cache and Flash Pool", July 2013). WAFL
  writes a changed block to a new place (Hitz, Lau & Malcolm 1994, write anywhere), so an overwrite leaves the
  module's copy stale; the new block is in memory until memory evicts it, then it is on the drives only until the
  next read brings it in. With reads and writes uniform over the same working set (the assumption above), a read
  finds its block in the module only if the block's last access was a read: probability ``read_share``, the data
  operations' read share. So the module's share of the data hits is scaled by the read share (a 75/25 OLTP mix
  loses a quarter of them; a read-only workload none); memory's hits are not (a written block is in memory).
* **Metadata first.** A file operation (NFS GETATTR, LOOKUP, ACCESS, READDIR, SETATTR, CREATE, REMOVE ...) needs
  the file's inode and directory blocks, WAFL metadata. ONTAP caches WAFL metadata ahead of user data: Flash Cache
  caches metadata in every mode, user data only in its normal mode ("By default, Flash Cache will cache reads of
  WAFL metadata and user data ... WAFL metadata will always be cached for every volume", M. Woods, NetApp
  Community, "Setting Priority of Service with Flash Cache", citing TR-3832 §3; the buffer cache evicts the lowest
  priority blocks first). So the metadata working set takes the cache first, and data reads get what is left
  (:func:`read_cache_split`). A metadata operation whose block is in neither memory nor the module reads one
  :data:`METADATA_BLOCK_BYTES` block from the drives (a random read); a modifying one waits for that read before
  it changes the block (its write is logged to NVRAM and written at the next consistency point with the rest).
* **Several workloads on one system share its cache** (:func:`cache_share`): the uniform assumption above taken
  over the system, every byte of every workload's working set (data and metadata) equally likely to be read next,
  so a workload holds the share of the cache its working sets are of all of theirs (the stack-distance argument
  over the union of the working sets), and each workload's hits are its own working set against its share. One
  workload alone has the whole cache (the single-workload form unchanged); working sets that together fit the cache
  are all held. Per-workload read rates do not enter (an LRU cache favours the workload that reads each of its
  blocks more often, e.g. H. Che, Y. Tung & Z. Wang, "Hierarchical Web caching systems: modeling, design and
  experimental results", IEEE JSAC 20(7), 2002, the characteristic-time approximation): the rates of a system's
  workloads are not known until the load is chosen, and the even split is the conservative middle of the two
  extremes for a workload that reads faster than the others.
* **Metadata working set** (:func:`metadata_working_set`): :data:`METADATA_SHARE_OF_WORKING_SET` of the data
  working set for a file workload, 0 for a block workload (a LUN's metadata is a few blocks per LUN).

Units: bytes for sizes; ratios 0..1.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from models.project.model import Workload

METADATA_BLOCK_BYTES = 4096
"""Bytes of one metadata block a metadata operation reads on a miss: WAFL's 4 KiB block (D. Hitz, J. Lau &
M. Malcolm, "File System Design for an NFS File Server Appliance", USENIX Winter 1994, §3: 4 KB blocks; inodes
are kept in the inode file, directories are files of 4 KB blocks)."""

METADATA_SHARE_OF_WORKING_SET = 0.01
"""assumed: the metadata working set of a file workload (inodes, directory blocks and indirect blocks of the files
it touches) as a share of its data working set, 1%. Derivation, not a published figure: WAFL's indirect blocks
hold 1,024 block pointers of 4 bytes in a 4 KB block (Hitz et al. 1994), 0.1% of a large file's data; a small
file's inode and directory entry (a few hundred bytes) are about 1% of a 32 KB file. No public NetApp figure of
the metadata share was found (searched TR-3832 and the stored pages)."""


def lru_hit_ratio(cache_bytes: float, working_set_bytes: float, random_fraction: float = 1.0) -> float:
    """Read hit ratio (0..1) of an LRU cache of ``cache_bytes`` over ``working_set_bytes`` (module docstring):
    ``min(1, cache / working set)`` for the random share of reads, 1 or 0 (fits / does not fit) for the sequential
    share. 0 when the working set is 0 (unknown) or the cache is empty or negative."""
    if working_set_bytes <= 0 or cache_bytes <= 0:
        return 0.0
    rand = min(1.0, cache_bytes / working_set_bytes)
    seq = 1.0 if working_set_bytes <= cache_bytes else 0.0
    return random_fraction * rand + (1.0 - random_fraction) * seq


def data_working_set(workload: Workload) -> float:
    """A workload's data working set, bytes: ``working_set_bytes`` when the user set it, else the whole
    ``dataset_bytes`` (the stated default; 0 when neither is given)."""
    return float(workload.working_set_bytes if workload.working_set_bytes is not None else workload.dataset_bytes)


def metadata_working_set(workload: Workload) -> float:
    """A workload's metadata working set, bytes: :data:`METADATA_SHARE_OF_WORKING_SET` x its data working set for
    a file (NAS) workload, 0 for a block workload."""
    if workload.nas is None:
        return 0.0
    return METADATA_SHARE_OF_WORKING_SET * data_working_set(workload)


def _cached_bytes(workload: Workload) -> float:
    """A workload's data and metadata working sets together, bytes (what it asks its system's cache to hold)."""
    return data_working_set(workload) + metadata_working_set(workload)


_LAST_TOTALS: tuple[object, dict[str, float], dict[str, tuple[str, float]]] | None = None
"""The last workload list :func:`cache_share` summed (held by identity: a scenario's paths are built one workload
at a time from the same list, so the sums are taken once per list, not once per workload): the list, the working
sets per target, and per workload id its target and working sets."""


def _totals(workloads: Iterable[Workload]) -> tuple[dict[str, float], dict[str, tuple[str, float]]]:
    """Per target the summed working sets of ``workloads`` with I/O to evaluate, and per such workload id its target
    and working sets (remembered for the last list)."""
    global _LAST_TOTALS
    last = _LAST_TOTALS
    if last is not None and last[0] is workloads:
        return last[1], last[2]
    by_target: dict[str, float] = {}
    each: dict[str, tuple[str, float]] = {}
    for w in workloads:
        if w.performance_enabled:
            size = _cached_bytes(w)
            by_target[w.target] = by_target.get(w.target, 0.0) + size
            each[w.id] = (w.target, size)
    _LAST_TOTALS = (workloads, by_target, each)
    return by_target, each


def cache_share(workload: Workload, workloads: Iterable[Workload]) -> float:
    """The share (0..1] of its system's read cache ``workload`` holds among ``workloads`` (every workload of the
    scenario; those with I/O to evaluate and the same ``target`` share it): its data and metadata working sets
    over the sum of theirs (module docstring, "Several workloads on one system share its cache"). 1 when it is the
    only one, or when no workload has a working set (nothing to divide)."""
    own = _cached_bytes(workload)
    by_target, each = _totals(workloads)
    listed = each.get(workload.id)
    total = by_target.get(workload.target, 0.0) - (listed[1] if listed and listed[0] == workload.target else 0.0)
    total = max(total, 0.0) + own
    return own / total if total > 0 and own > 0 else 1.0


@dataclass(frozen=True)
class CacheSplit:
    """Hit ratios (0..1) of one workload's reads in a controller's read cache.

    Attributes:
        metadata_memory: metadata reads served from memory. metadata_total: from memory or Flash Cache (the rest
            read one block from the drives). data_memory: data reads served from memory. data_total: from memory
            or Flash Cache (the rest go to the drives). metadata_bytes: the metadata working set, bytes.
    """

    metadata_memory: float
    metadata_total: float
    data_memory: float
    data_total: float
    metadata_bytes: float

    @property
    def metadata_miss(self) -> float:
        """Share of metadata operations that read a block from the drives."""
        return 1.0 - self.metadata_total

    @property
    def metadata_flash(self) -> float:
        """Share of metadata operations served by Flash Cache."""
        return self.metadata_total - self.metadata_memory


def read_cache_split(memory_bytes: float, flash_bytes: float, data_ws_bytes: float, metadata_ws_bytes: float,
                     random_fraction: float = 1.0, read_share: float = 1.0) -> CacheSplit:
    """The hit ratios of metadata and data reads (module docstring: metadata first, memory then Flash Cache).

    Args:
        memory_bytes: the controller memory working as read cache (the HA pair's, or the cluster's), bytes.
        flash_bytes: Flash Cache / PAM behind it, bytes (0 without). data_ws_bytes: the data working set, bytes.
        metadata_ws_bytes: the metadata working set, bytes (0 for a block workload). random_fraction: 0..1, the
        data reads' random share (metadata reads are random). read_share: 0..1, the data operations' read share
        (reads / (reads + writes)): the module's data hits are scaled by it (module docstring, "Flash Cache holds
        what was read"); 1 (a read-only workload) leaves them whole.

    Returns:
        A :class:`CacheSplit`. With no metadata (``metadata_ws_bytes`` 0) every metadata read hits and the data
        ratios are :func:`lru_hit_ratio` of memory and of memory + Flash Cache.
    """
    total = memory_bytes + flash_bytes
    if metadata_ws_bytes <= 0:  # no metadata to read (a block workload, or a file workload of unknown size)
        meta_memory = meta_total = 1.0
    else:
        meta_memory = lru_hit_ratio(memory_bytes, metadata_ws_bytes)
        meta_total = lru_hit_ratio(total, metadata_ws_bytes)
    data_memory = lru_hit_ratio(max(memory_bytes - metadata_ws_bytes, 0.0), data_ws_bytes, random_fraction)
    data_total = lru_hit_ratio(max(total - metadata_ws_bytes, 0.0), data_ws_bytes, random_fraction)
    if flash_bytes > 0:  # overwritten blocks are stale in the module until read again
        data_total = data_memory + (data_total - data_memory) * min(max(read_share, 0.0), 1.0)
    return CacheSplit(meta_memory, meta_total, data_memory, data_total, metadata_ws_bytes)
