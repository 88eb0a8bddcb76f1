"""vSAN (HCI) physical capacity: capacity devices, dedupe & compression metadata, FTT policy, slack space.

Rules (vSAN documentation, public_facts.md "VMware vSAN"; seed 002 is the check):
raw = hosts x disk groups x capacity devices x marketed size (cache devices are not capacity);
right-sized = the same with the catalog's right-sized (formatted) size; dedupe & compression metadata ~5% of raw
(catalog ``dedupe_metadata_pct`` when given) when the cluster deduplicates (:func:`applied_reductions`: OSA
all-flash; vSAN 8 ESA compresses only and keeps no such metadata); FTT policy: usable = remaining / factor (RAID1
FTT=n: n+1 copies on 2n+1 hosts; RAID5 3+1 x4/3 on >= 4 all-flash hosts; RAID6 4+2 x1.5 on >= 6); slack space
30% (project, else catalog, else 30%).
A stretched cluster (``models.capacity.stretched``) mirrors every object to both data sites and lays its policy out
inside each site: the policy's minimum hosts and ESA's adaptive RAID-5 count one site's hosts, the site mirroring
halves what is left after the reserves (a host rebuild reserve of one host per site), and the datastore lines give
each site's raw and usable capacity.
From vSAN 7.0 U1 (ESA by default, :func:`reserve_mode`) reserved capacity replaces slack space: an operations
reserve (assumed 10%) and a host rebuild reserve of one host's capacity are taken before the policy. ESA (vSAN 8+)
has one storage pool per host and no cache tier, its adaptive RAID-5 is 2+1 on 3-5 hosts and 4+1 on 6 or more,
and its log-structured file system adds ~13.1% to data and replicas (Broadcom KB 394410). OSA's cache devices
(hybrid or all-flash) are never capacity.
"""

from __future__ import annotations

from models.capacity import rules
from models.capacity.layout import RaidLayout, hci_layout
from models.capacity.physical import Physical, fmt, plural
from models.capacity.results import Aggregate, CapacityStep, frozen_inputs
from models.capacity.step_sources import marketed_source, right_sized_source
from models.capacity.stretched import (
    SITE_COPIES,
    site_capacities,
    site_hosts,
    stretched_docs,
    stretched_problems,
)
from models.catalog import Drive, HciNode
from models.project import HciClusterNode


def reserve_mode(node: HciClusterNode) -> str:
    """The free-capacity rule a cluster follows: "slack" (keep 25-30% free, vSAN before 7.0 U1) or "reserved"
    (operations reserve + host rebuild reserve, vSAN 7.0 U1 and later: :data:`rules.VSAN_RESERVE_DOCS`).
    ``capacity_reserve`` "auto" is reserved for ESA (vSAN 8 and later) and slack for OSA or when the project gives
    a slack space percentage."""
    if node.capacity_reserve != "auto":
        return node.capacity_reserve
    return "reserved" if node.architecture == "esa" and node.slack_space_pct is None else "slack"


def applied_reductions(node: HciClusterNode, host: HciNode) -> tuple[bool, bool]:
    """(compression, deduplication) a cluster applies: none with the project's deduplication and compression off;
    with it on, those the host record lists in ``data_reductions`` (an OSA all-flash disk group both; vSAN 8 ESA
    compression only, :data:`rules.VSAN_ESA_REDUCTION_DOCS`). The one rule of the capacity engine, the sizer's
    candidates (evaluated by it) and the dedupe metadata step."""
    if not node.dedupe_compression:
        return False, False
    return "compression" in host.data_reductions, "deduplication" in host.data_reductions


def hci_capacity(node: HciClusterNode, host: HciNode, capacity: Drive, cache: Drive | None, where: str,
                 layout: RaidLayout | None = None) -> Physical:
    """The physical side (raw -> usable, bytes) of a vSAN cluster of ``host`` nodes with ``capacity`` drives.

    ``cache`` is the cache-tier drive (only named in a note; cache is not capacity), ``where`` names the node in
    problems. Rules and sources in the module docstring (vSAN documentation; seed 002 checks them). Limits broken
    (disk groups, devices per group, hosts for the policy, erasure coding or dedupe on hybrid) do not raise: they
    are returned in ``Physical.problems``. ``layout``: the cluster's RAID layout (``layout.hci_layout``, as
    ``raid_layouts`` builds it; None: built here), whose stripe (data + parity) / data is the policy's factor.
    """
    if layout is None:
        layout = hci_layout(node, capacity)
    stripe = layout.groups[0]
    factor = stripe.stripe_factor
    problems: list[str] = []
    notes: list[str] = []
    local_hosts = site_hosts(node)
    policy = rules.vsan_policy_rule(node.policy, node.architecture, local_hosts)
    problems.extend(stretched_problems(node, where))
    esa = node.architecture == "esa"
    devices = node.hosts * node.disk_groups_per_host * node.capacity_drives_per_group
    if esa and devices > node.hosts * host.max_disk_groups * host.max_capacity_per_group:
        problems.append(f"{where}: {devices // node.hosts} storage-pool devices per host exceed {host.name}'s "
                        f"{host.max_disk_groups * host.max_capacity_per_group}.")
    if esa and not host.all_flash:
        problems.append(f"{where}: vSAN ESA needs all-flash (NVMe) hosts; {host.name} is hybrid.")
    if not esa and node.disk_groups_per_host > host.max_disk_groups:
        problems.append(f"{where}: {node.disk_groups_per_host} disk groups per host exceed {host.name}'s "
                        f"{host.max_disk_groups}.")
    if not esa and node.capacity_drives_per_group > host.max_capacity_per_group:
        problems.append(f"{where}: {node.capacity_drives_per_group} capacity devices per disk group exceed "
                        f"{host.name}'s {host.max_capacity_per_group}.")
    if local_hosts < policy.min_hosts:
        adaptive = esa and node.policy == "ftt1-raid5"  # the 2+1 scheme applied, with its own source
        problems.append(f"{where}: {policy.name} needs at least {policy.min_hosts} hosts"
                        + (f" at each site; each data site has {local_hosts}" if node.stretched
                           else f"; the cluster has {node.hosts}")
                        + (f" ({rules.VSAN_ESA_RAID5_HOSTS_DOCS})." if adaptive else f" ({rules.VSAN_DOCS})."))
    if policy.erasure_coding and not host.all_flash:
        problems.append(f"{where}: erasure coding (RAID5/6) is all-flash only; {host.name} is hybrid "
                        f"({rules.VSAN_DOCS}).")
    if node.dedupe_compression and not host.all_flash:
        problems.append(f"{where}: deduplication and compression are all-flash only ({rules.VSAN_DOCS}).")
    compress, dedupe = applied_reductions(node, host)
    if node.dedupe_compression and host.all_flash and not (compress and dedupe):
        left = " and ".join(t for t, on in (("compression", compress), ("deduplication", dedupe)) if not on)
        kept = "compression only" if compress else "no data reduction"
        why = (rules.VSAN_ESA_REDUCTION_DOCS if host.architecture == "esa" else
               (host.provenance["data_reductions"].source if "data_reductions" in host.provenance
                else f"catalog {host.name}"))
        problems.append(f"{where}: deduplication and compression are on, but its hosts run {host.platform}, which "
                        f"applies {kept}: {left} is not counted in the effective capacity ({why}).")

    raw = float(devices * capacity.marketed_bytes)
    right_sized = float(devices * capacity.right_sized_bytes)
    steps = [
        CapacityStep("Raw (marketed)", raw, raw, marketed_source([capacity]),
                     # ESA has no disk groups: one storage pool per host, its devices counted per host
                     (f"{plural(node.hosts, 'host')} x {devices // max(node.hosts, 1)} storage-pool devices "
                      if esa else
                      f"{plural(node.hosts, 'host')} x {plural(node.disk_groups_per_host, 'disk group')} x "
                      f"{node.capacity_drives_per_group} ")
                     + f"x {capacity.marketed_bytes / 1e9:,.0f} GB", frozen_inputs({"capacity devices": str(devices)})),
        CapacityStep("Right-sized", raw, right_sized, right_sized_source([capacity]),
                     f"{devices} x {fmt(capacity.right_sized_bytes)}",
                     frozen_inputs({capacity.name: fmt(capacity.right_sized_bytes)})),
    ]
    if esa:
        notes.append("vSAN ESA: one storage pool per host, every device is capacity (no cache tier); the devices per "
                     "host are counted as the design's disk groups x devices per group.")
    if node.policy == "ftt0":
        problems.append(f"{where}: FTT=0 keeps one copy: a failed device or host loses its data.")
    if cache is not None and not esa:
        cache_count = node.hosts * node.disk_groups_per_host
        notes.append(f"Cache tier: {cache_count} x {cache.marketed_bytes / 1e9:,.0f} GB {cache.name} "
                     f"({fmt(cache_count * cache.right_sized_bytes)}), not counted as capacity ({rules.VSAN_DOCS}).")
    level = right_sized
    if dedupe:  # OSA deduplication's hash map and metadata; vSAN 8 ESA keeps none (its LFS overhead is its own step)
        pct = host.dedupe_metadata_pct or rules.VSAN_DEDUPE_METADATA_PCT
        src = (f"catalog {host.name}: dedupe & compression metadata" if host.dedupe_metadata_pct
               else f"{rules.VSAN_DOCS}: about 5% of raw")
        overhead = raw * pct / 100.0
        steps.append(CapacityStep("Dedupe & compression metadata", level, level - overhead, src,
                                  f"{pct:g}% x raw {fmt(raw)}", frozen_inputs({"overhead": f"{pct:g}% of raw"})))
        level -= overhead
    mode = reserve_mode(node)
    if mode == "reserved":
        pct = rules.VSAN_OPERATIONS_RESERVE_PCT if node.operations_reserve_pct is None else node.operations_reserve_pct
        why = "assumed 10% (rules.VSAN_OPERATIONS_RESERVE_PCT)" if node.operations_reserve_pct is None else "project"
        ops = level * pct / 100.0
        steps.append(CapacityStep("Operations reserve", level, level - ops, f"{rules.VSAN_RESERVE_DOCS}; {why}",
                                  f"{pct:g}% x {fmt(level)}", frozen_inputs({"operations reserve": f"{pct:g}%"})))
        spare_hosts = SITE_COPIES if node.stretched else 1  # stretched: one host's capacity at each site
        host_share = level * spare_hosts / node.hosts
        level -= ops
        if node.host_rebuild_reserve:
            if local_hosts < 3:
                notes.append("Host rebuild reserve: a 2-node cluster cannot use reserved capacity (vSAN "
                             "documentation); size its free capacity by hand.")
            else:
                steps.append(CapacityStep("Host rebuild reserve", level, level - host_share, rules.VSAN_RESERVE_DOCS
                                          + ("; assumed one host per data site" if node.stretched else ""),
                                          f"{plural(spare_hosts, 'host')} of {node.hosts}: {fmt(host_share)}",
                                          frozen_inputs({"hosts": str(node.hosts)})))
                level -= host_share
    if node.stretched:
        mirrored = level / SITE_COPIES
        docs = stretched_docs(policy.name, factor)
        steps.append(CapacityStep("Site mirroring (dual site)", level, mirrored, docs,
                                  f"{fmt(level)} / {SITE_COPIES} (a full copy at each data site)",
                                  frozen_inputs({"data sites": str(SITE_COPIES),
                                                 "hosts per site": str(local_hosts)})))
        level = mirrored
        notes.append(f"Stretched cluster: {local_hosts} + {local_hosts} hosts at two data sites and a witness host at "
                     "a third site (witness components only, no VM data); each site holds a full copy protected by "
                     f"{policy.name} inside the site ({docs}).")
    after = level / factor
    steps.append(CapacityStep(policy.name, level, after, rules.VSAN_ESA_DOCS if esa and policy.erasure_coding
                              else rules.VSAN_DOCS,
                              f"{fmt(level)} / {factor:.3g} (raw bytes written per data byte)",
                              frozen_inputs({"policy": node.policy, "factor": f"{factor:.3f}",
                                             "min hosts": str(policy.min_hosts)})))
    level = after
    if esa:
        lfs = level / (1 + rules.VSAN_ESA_LFS_OVERHEAD)
        steps.append(CapacityStep("ESA log-structured file system overhead", level, lfs, rules.VSAN_ESA_LFS_SOURCE,
                                  f"{fmt(level)} / {1 + rules.VSAN_ESA_LFS_OVERHEAD:.3f}",
                                  frozen_inputs({
                                      "overhead": f"{rules.VSAN_ESA_LFS_OVERHEAD:.1%} of data and replicas"})))
        level = lfs
    if mode == "reserved":
        usable = level
    else:
        if node.slack_space_pct is not None:
            slack_pct, src = node.slack_space_pct, "slack space as the design sets it"
        elif host.slack_space_pct:
            slack_pct, src = host.slack_space_pct, f"catalog {host.name}: slack space ({host.cited('slack_space_pct')})"
        else:
            slack_pct, src = rules.VSAN_SLACK_PCT, f"{rules.VSAN_DOCS}: keep 25-30% free"
        slack = level * slack_pct / 100.0
        steps.append(CapacityStep("Slack space", level, level - slack, src, f"{slack_pct:g}% x {fmt(level)}",
                                  frozen_inputs({"slack": f"{slack_pct:g}%"})))
        usable = level - slack
    if node.stretched:
        lines = [f"site {site.site}: {site.hosts} hosts, raw {fmt(site.raw_bytes)}, holds a full copy: "
                 f"{fmt(site.usable_bytes)} usable" for site in site_capacities(node, raw, usable)]
        lines.append(f"both sites: raw {fmt(raw)}, {fmt(usable)} usable for VM data (each byte stored at both "
                     f"sites, {policy.name} inside each); witness host at a third site: no data capacity")
    elif esa:
        lines = [f"datastore: {node.hosts} hosts x one storage pool of "
                 f"{node.disk_groups_per_host * node.capacity_drives_per_group}"
                  f" x {capacity.name}, {policy.name}: {fmt(usable)} usable"]
    else:
        groups = plural(node.disk_groups_per_host, "disk group")
        lines = [f"datastore: {plural(node.hosts, 'host')} x {groups} x (1 cache + "
                  f"{node.capacity_drives_per_group} x {capacity.name}), {policy.name}: {fmt(usable)} usable"]
    aggregate = Aggregate(0, "vsanDatastore", capacity.id, node.policy, (stripe.members,), stripe.parity,
                          float(capacity.right_sized_bytes), after, usable)
    return Physical(steps, raw, right_sized, usable, [aggregate], lines, notes, problems)
