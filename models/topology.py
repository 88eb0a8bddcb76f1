"""Graph queries over a scenario's topology: which shelves a controller owns, which hosts reach a system and
over which links, and which links may be made.

Every query runs on lookup tables built once per scenario (``Scenario.index``: id -> node, id -> links) and on
tables derived from them once, on first use (shelf ownership, the reach of each system). :func:`of` returns the
scenario's :class:`Topology`, kept with the scenario's index, so the problems check, the capacity engine and the
performance engine of one evaluation share it and an evaluation costs time linear in nodes and links.
"""


from collections import deque
from dataclasses import dataclass
from functools import cached_property
from typing import cast

from models.catalog import Adapter, Catalog, CatalogError, Controller, LinkType, Switch
from models.catalog import Shelf as ShelfRecord
from models.project.kinds import BACK_END_MEDIA, FRONT_END_MEDIA, NODE_KINDS, kind_of
from models.project.model import (
    PROTOCOL_FAMILY,
    ControllerNode,
    HostNode,
    Link,
    NodeBase,
    Scenario,
    ShelfNode,
    SwitchNode,
    Workload,
)
from models.project.names import node_names


@dataclass(frozen=True)
class SharedShelf:
    """A shelf that two controllers reach (directly or through a shelf chain): ``owner`` counts its drives
    (the first controller in scenario order), ``other`` does not."""

    shelf_id: str
    owner: str
    other: str


@dataclass(frozen=True)
class FrontEnd:
    """The hosts of a workload and the front-end links between them and its target.

    Attributes:
        hosts: the host nodes issuing the I/O, in scenario order.
        host_links: the first link of each host's path (host side), without repeats.
        target_links: the target's links to hosts or switches that carry the I/O.
        paths: for each host, the links from the host to the target (host side first).
    """

    hosts: tuple[HostNode, ...]
    host_links: tuple[Link, ...]
    target_links: tuple[Link, ...]
    paths: tuple[tuple[Link, ...], ...]


class Topology:
    """The graph of one scenario. Build it with :func:`of` (cached with the scenario); do not keep it across
    edits (an edited scenario is a new value with a new topology)."""

    def __init__(self, scenario: Scenario):
        self.scenario = scenario
        index = scenario.index()
        self.by_id: dict[str, NodeBase] = index.by_id
        self._links_by_node: dict[str, list[Link]] = index.links_by_node
        self._reach: dict[str, dict[str, tuple[Link, ...]]] = {}
        self._front_ends: dict[tuple[str, tuple[str, ...]], FrontEnd] = {}

    # ------------------------------------------------------------------------------------------ lookups

    def node(self, node_id: str) -> NodeBase | None:
        """The node with this id, or None."""
        return self.by_id.get(node_id)

    def links_of(self, node_id: str) -> tuple[Link, ...]:
        """The links touching a node, in scenario order."""
        return tuple(self._links_by_node.get(node_id, ()))

    def neighbours(self, node_id: str) -> list[str]:
        """The ids at the other end of the node's links, in link order."""
        return [link.target if link.source == node_id else link.source for link in self._links_by_node.get(node_id, ())]

    @cached_property
    def position(self) -> dict[str, int]:
        """Node id -> its place in the scenario's node list."""
        return {n.id: i for i, n in enumerate(self.scenario.nodes)}

    @cached_property
    def _by_kind(self) -> dict[str, tuple[NodeBase, ...]]:
        groups: dict[str, list[NodeBase]] = {}
        for n in self.scenario.nodes:
            groups.setdefault(n.kind, []).append(n)
        return {k: tuple(v) for k, v in groups.items()}

    def nodes_of_kind(self, *kinds: str) -> tuple[NodeBase, ...]:
        """The nodes of these kinds, in scenario order."""
        if len(kinds) == 1:
            return self._by_kind.get(kinds[0], ())
        wanted = set(kinds)
        return tuple(n for n in self.scenario.nodes if n.kind in wanted)

    @cached_property
    def systems(self) -> tuple[NodeBase, ...]:
        """The storage systems (controllers, HCI clusters, cloud VMs) in scenario order."""
        return tuple(n for n in self.scenario.nodes if NODE_KINDS[n.kind].system)

    # ------------------------------------------------------------------------------------------ shelves

    @cached_property
    def _ownership(self) -> tuple[dict[str, list[ShelfNode]], dict[str, str], tuple[SharedShelf, ...]]:
        """Controller id -> its shelves, shelf id -> owner, and the shelves two controllers reach.

        A controller owns the shelves linked to it and, through shelf-to-shelf links, the shelves daisy-chained
        behind them (breadth first, in link order). A shelf that several controllers reach belongs to the first
        of them in scenario order. O(nodes + links): each shelf is entered once per controller reaching it.
        """
        owned: dict[str, list[ShelfNode]] = {}
        owner: dict[str, str] = {}
        shared: list[SharedShelf] = []
        for ctl in self.nodes_of_kind("controller"):
            owned[ctl.id] = []
            seen = {ctl.id}
            queue = deque([ctl.id])
            while queue:
                current = queue.popleft()
                for other in self.neighbours(current):
                    if other in seen or not isinstance(self.by_id.get(other), ShelfNode):
                        continue
                    seen.add(other)
                    queue.append(other)
                    if other in owner:
                        shared.append(SharedShelf(other, owner[other], ctl.id))
                        continue
                    owner[other] = ctl.id
                    owned[ctl.id].append(cast(ShelfNode, self.by_id[other]))  # a shelf: checked above
        return owned, owner, tuple(shared)

    def shelves_of(self, controller_id: str) -> list[ShelfNode]:
        """The shelves a controller owns (linked to it, or daisy-chained behind one that is), breadth first."""
        return list(self._ownership[0].get(controller_id, ()))

    def controller_of_shelf(self, shelf_id: str) -> ControllerNode | None:
        """The controller that owns a shelf (see :meth:`shelves_of`), or None when no controller reaches it."""
        owner = self._ownership[1].get(shelf_id)
        return self.by_id[owner] if owner is not None else None  # type: ignore[return-value]

    @property
    def shared_shelves(self) -> tuple[SharedShelf, ...]:
        """Shelves that more than one controller reaches, in discovery order."""
        return self._ownership[2]

    def unowned_shelves(self) -> list[ShelfNode]:
        """Shelves no controller reaches, in scenario order."""
        owner = self._ownership[1]
        return [s for s in self.nodes_of_kind("shelf") if s.id not in owner]  # type: ignore[misc]

    # ------------------------------------------------------------------------------------------ front end

    def reach(self, start: str) -> dict[str, tuple[Link, ...]]:
        """Nodes reachable from ``start`` through relaying items (switches): node id -> the links of the path,
        ``start``'s side first (breadth first, so a shortest path in hops; ties go to the earlier link).
        Cached per start."""
        paths = self._reach.get(start)
        if paths is not None:
            return paths
        paths = {start: ()}
        queue = deque([start])
        while queue:
            current = queue.popleft()
            if current != start:
                node = self.by_id.get(current)
                if node is None or not NODE_KINDS[node.kind].relays:
                    continue
            for link in self._links_by_node.get(current, ()):
                other = link.target if link.source == current else link.source
                if other not in paths:
                    paths[other] = paths[current] + (link,)
                    queue.append(other)
        self._reach[start] = paths
        return paths

    def hosts_reaching(self, target_id: str) -> list[HostNode]:
        """The hosts linked to a system directly or through switches, in scenario order."""
        reach = self.reach(target_id)
        position = self.position
        hosts = [n for i in reach if isinstance(n := self.by_id.get(i), HostNode)]
        return sorted(hosts, key=lambda h: position[h.id])

    def front_end(self, target_id: str, host_ids: tuple[str, ...] | list[str] = ()) -> FrontEnd:
        """The hosts of a workload on ``target_id`` (``host_ids``, or every host reaching the target when empty)
        and the links its I/O crosses. Cached per (target, hosts)."""
        key = (target_id, tuple(host_ids))
        cached = self._front_ends.get(key)
        if cached is not None:
            return cached
        reach = self.reach(target_id)
        wanted = set(host_ids)
        hosts = [h for h in self.hosts_reaching(target_id) if not wanted or h.id in wanted]
        host_links: list[Link] = []
        seen_first: set[int] = set()
        on_paths: set[int] = set()
        paths = []
        for host in hosts:
            path = tuple(reversed(reach[host.id]))  # host side first
            paths.append(path)
            on_paths.update(id(link) for link in path)
            if path and id(path[0]) not in seen_first:
                seen_first.add(id(path[0]))
                host_links.append(path[0])
        target_links: list[Link] = []
        for link in self._links_by_node.get(target_id, ()):
            other = link.target if link.source == target_id else link.source
            node = self.by_id.get(other)
            if other in reach and node is not None and node.kind in ("host", "switch"):
                if id(link) in on_paths or not hosts:
                    target_links.append(link)
        result = FrontEnd(tuple(hosts), tuple(host_links), tuple(target_links), tuple(paths))
        self._front_ends[key] = result
        return result

    # ------------------------------------------------------------------------------------------ links

    def link_problem(self, catalog: Catalog, source_id: str, target_id: str, link_type_id: str) -> str | None:
        """Why a link of ``link_type_id`` between two nodes cannot be made, or None when it can.

        Rules: SAS / PCIe links, and a link type some shelf names as its back end (an FC-AL drive loop), join a
        controller to a shelf; FC / Ethernet links join hosts, switches, controllers and cloud VMs, and a
        controller must speak the link's protocol; an HCI cluster links over Ethernet only; a shelf takes only a
        back-end link (its own, whatever the medium, or another of its medium: 12Gb SAS to a 6Gb SAS shelf, never an
        NVMe drive link), and only to a controller or a chained shelf; a switch takes only its own medium and a
        host's adapter only its protocols; two storage systems are never joined by a host link (replication is a
        relationship of its own, ``models.project.replication``). Each kind's media are its row's ``link_media``
        (``models.project.kinds``).
        """
        a, b = self.by_id.get(source_id), self.by_id.get(target_id)
        if a is None or b is None:
            return "both ends of a link must be on the canvas"
        if a.id == b.id:
            return "a link cannot connect an item to itself"
        try:
            link = catalog.get(link_type_id, LinkType)
        except CatalogError as exc:
            return str(exc)
        kinds = {a.kind, b.kind}
        backend = link.medium in BACK_END_MEDIA
        if "shelf" in kinds:
            shelf_links: set[str] = {
                shelf_link for n in (a, b) if n.kind == "shelf"
                if (shelf_link := getattr(catalog.find(n.catalog_id), "backend_link", None)) is not None}
            own = [catalog.find(x) for x in sorted(shelf_links)]
            own_media = {x.medium for x in own if isinstance(x, LinkType)}
            wanted = ", ".join(x.name if isinstance(x, LinkType) else str(x) for x in (
                catalog.find(i) or i for i in sorted(shelf_links))) or "SAS / NVMe"
            if not kinds <= {"shelf", "controller"}:
                other = b if a.kind == "shelf" else a
                return (f"a shelf connects to a controller or a chained shelf over its back-end link ({wanted}), "
                        f"not to a {kind_of(other).label}")
            if kinds == {"shelf"} and len(own_media) > 1:  # an NVMe shelf chained to a SAS shelf
                first, second = (_back_end_words(catalog, n) for n in (a, b))
                return (f"a shelf stack has one back end: {_article(first)} {first} shelf cannot be chained to "
                        f"{_article(second)} {second} shelf; "
                        "cable each to the controller over its own back-end link")
            # its own link, or another of its medium (a SAS shelf takes 12Gb SAS too, never an NVMe drive link)
            if link.id in shelf_links or (backend and (not own_media or link.medium in own_media)):
                return None  # controller to shelf, or shelf to shelf (daisy chain)
            return f"a shelf connects to a controller over its back-end link ({wanted}), not {link.name}"
        if backend or _is_drive_loop(catalog, link):
            return f"{link.name} is a back-end link: it joins a controller to a shelf"
        if kind_of(a).system and kind_of(b).system:  # e.g. an on-premises A70 to a CVO VM over iSCSI
            return (f"a host link joins hosts and switches to a storage system, not a {kind_of(a).label} to a "
                    f"{kind_of(b).label}; to protect one system with the other, draw a replication link "
                    "(SnapMirror) between them")
        for node in (a, b):
            if isinstance(node, ControllerNode):
                record = catalog.find(node.catalog_id)
                if isinstance(record, Controller) and not set(link.protocols) & set(record.protocols):
                    return f"{record.name} does not speak {'/'.join(link.protocols)}"
                if isinstance(record, Controller):
                    too_old = protocol_version_problem(record, node.software or record.default_software, link)
                    if too_old:
                        return too_old
            row = kind_of(node)
            if link.medium not in row.link_media and row.link_rule:
                return row.link_rule
        if kinds == {"host"}:
            return "two hosts do not connect to each other for storage"
        return _front_end_mismatch(catalog, (a, b), link)

    def connect_problem(self, catalog: Catalog, source_id: str, target_id: str, link_type_id: str) -> str | None:
        """Why a new link of ``link_type_id`` between two nodes cannot be drawn into this graph, or None when it can:
        :meth:`link_problem`'s rules of the two ends, then what the link would do to the graph.

        * back end: a shelf and the shelves chained to it belong to one controller (HA pair), which must take every
          one of them (its record's ``shelves``); a shelf already cabled to one controller is not cabled to another;
        * front end: a link that would bring hosts and storage systems together with no protocol in common (an FCP
          host link to a switch whose link to the controller carries NVMe/FC only) and no host a new protocol is
          refused (:meth:`shared_protocols`). A link that serves some host and leaves another without a common
          protocol is drawn; the design check reports that host (:meth:`protocol_mismatches`).
        """
        reason = self.link_problem(catalog, source_id, target_id, link_type_id)
        if reason:
            return reason
        a, b = self.by_id[source_id], self.by_id[target_id]
        if "shelf" in (a.kind, b.kind):
            return self._back_end_connect_problem(catalog, a, b)
        from models.project.factory import next_id

        added = Link(id=next_id(self.scenario, "link"), source=source_id, target=target_id, link_type=link_type_id)
        after = Topology(self.scenario.model_copy(update={"links": [*self.scenario.links, added]}))
        before = self.protocol_pairs(catalog)
        pairs = after.protocol_pairs(catalog)
        if any(shared and len(shared) > len(before.get(pair, ())) for pair, shared in pairs.items()):
            return None  # some host gains a path or a protocol
        stranded = [pair for pair, shared in pairs.items() if not shared and pair not in before]
        if not stranded:
            return None
        host_id, system_id = stranded[0]
        return after.mismatch_words(catalog, host_id, system_id)

    def _back_end_connect_problem(self, catalog: Catalog, a: NodeBase, b: NodeBase) -> str | None:
        """:meth:`connect_problem` of a controller-to-shelf or shelf-to-shelf link (its ends' rules already hold):
        the shelf stack it makes has one controller, which takes every shelf of it."""
        names = node_names(self.scenario.nodes, catalog)
        stack: dict[str, ShelfNode] = {}
        for end in (a, b):
            if isinstance(end, ShelfNode):
                stack.update((s.id, s) for s in self._stack(end.id))
        owners: dict[str, str] = {}  # controller id -> a shelf of the stack it is cabled to
        for shelf_id in stack:
            for other in self.neighbours(shelf_id):
                if isinstance(self.by_id.get(other), ControllerNode):
                    owners.setdefault(other, shelf_id)
        new_owner = next((end for end in (a, b) if isinstance(end, ControllerNode)), None)
        if new_owner is not None:
            others = [c for c in owners if c != new_owner.id]
            if others:
                shelf = owners[others[0]]
                return (f"{names[shelf]} is already cabled to {names[others[0]]}: a shelf, and the shelves chained to "
                        f"it, belong to one controller (HA pair); its drives would count for {names[others[0]]} only")
            owners.setdefault(new_owner.id, "")
        elif len(owners) > 1:
            (first, one), (second, two) = list(owners.items())[:2]
            return (f"{names[one]} is cabled to {names[first]} and {names[two]} to {names[second]}: a shelf stack "
                    "belongs to one controller (HA pair)")
        for controller_id in owners:
            record = catalog.find(self.by_id[controller_id].catalog_id)
            if not isinstance(record, Controller) or not record.shelves:
                continue
            for member in stack.values():
                if member.catalog_id not in record.shelves:
                    found = catalog.find(member.catalog_id)
                    return f"{record.name} does not take {found.name if found else member.catalog_id}"
        return None

    def _stack(self, shelf_id: str) -> list[ShelfNode]:
        """The shelf and the shelves chained to it through shelf-to-shelf links, breadth first."""
        seen = {shelf_id}
        queue = deque([shelf_id])
        out: list[ShelfNode] = []
        while queue:
            current = queue.popleft()
            out.append(cast(ShelfNode, self.by_id[current]))
            for other in self.neighbours(current):
                if other not in seen and isinstance(self.by_id.get(other), ShelfNode):
                    seen.add(other)
                    queue.append(other)
        return out

    # ------------------------------------------------------------------------------------------ protocols

    @cached_property
    def _fabric(self) -> dict[str, int]:
        """Switch id -> its fabric: the switches joined by switch-to-switch links share one (numbered from 0)."""
        fabric: dict[str, int] = {}
        for switch in self.nodes_of_kind("switch"):
            if switch.id in fabric:
                continue
            number = len(set(fabric.values()))
            fabric[switch.id] = number
            stack = [switch.id]
            while stack:
                for other in self.neighbours(stack.pop()):
                    if other not in fabric and isinstance(self.by_id.get(other), SwitchNode):
                        fabric[other] = number
                        stack.append(other)
        return fabric

    def _front_links(self, catalog: Catalog, node_id: str
                     ) -> list[tuple[tuple[str, int | str], LinkType, Link]]:
        """The node's front-end (FC / Ethernet) links' types, each with where it leads (``("fabric", n)`` into a
        switch fabric, ``("link", id)`` straight to the item at its other end) and the link itself."""
        cache = self.__dict__.setdefault("_front_links_of", {})  # node id -> its front links (one catalog: see of())
        hit = cache.get(node_id)
        if hit is not None and hit[0] is catalog:
            return hit[1]
        out: list[tuple[tuple[str, int | str], LinkType, Link]] = []
        for link in self._links_by_node.get(node_id, ()):
            record = catalog.find(link.link_type)
            if not isinstance(record, LinkType) or record.medium not in FRONT_END_MEDIA:
                continue
            other = link.target if link.source == node_id else link.source
            fabric = self._fabric.get(other)
            out.append((("fabric", fabric) if fabric is not None else ("link", link.id), record, link))
        cache[node_id] = (catalog, out)
        return out

    def _sides(self, catalog: Catalog, host_id: str, target_id: str
               ) -> tuple[dict[str, None], dict[str, None], dict[str, None]]:
        """(the protocols both sides carry, the host side's, the target side's), each in link order, over the host
        links and target links that meet in one switch fabric or are one link."""
        host = self._front_links(catalog, host_id)
        target = self._front_links(catalog, target_id)
        shared: dict[str, None] = {}
        host_side: dict[str, None] = {}
        target_side: dict[str, None] = {}
        for key, record, _ in target:
            for host_key, host_record, _ in host:
                if host_key != key:
                    continue
                target_side.update(dict.fromkeys(record.protocols))
                host_side.update(dict.fromkeys(host_record.protocols))
                shared.update(dict.fromkeys(p for p in record.protocols if p in host_record.protocols))
        return shared, host_side, target_side

    def shared_protocols(self, catalog: Catalog, host_id: str, target_id: str) -> tuple[str, ...]:
        """The protocols a host's I/O can use to a storage system, in the target links' order: those a host link
        and a target link carry both, where the two meet in one switch fabric (or are one link). The protocol is
        the initiator's and the target's, end to end: a switch-to-switch link carries every protocol of its medium
        (an FC inter-switch link carries FCP and NVMe/FC alike), so it does not narrow them."""
        return tuple(self._sides(catalog, host_id, target_id)[0])

    def served_front_end(self, catalog: Catalog, target_id: str, host_ids: tuple[str, ...] | list[str],
                         protocol: str) -> FrontEnd:
        """The part of :meth:`front_end` that carries a workload's I/O over ``protocol``: its hosts that share the
        protocol with the target (:meth:`shared_protocols`; the others are left out, :meth:`left_out_hosts`), as
        ``host_links`` every link of those hosts that carries the protocol and meets a target link carrying it in
        one switch fabric (or is that link), as ``target_links`` every such target link, and the hosts' paths. A
        host's link into another fabric, to another system or of another protocol carries none of this I/O, nor
        does a target link of another protocol into the same fabric; a host linked into two fabrics reaches the
        target's links in both. With no host reaching the target (the storage alone): the target's links of
        :meth:`front_end` that carry the protocol. Cached per (target, hosts, protocol) for one catalog."""
        cache = self.__dict__.setdefault("_served", {})
        key = (target_id, tuple(host_ids), protocol)
        hit = cache.get(key)
        if hit is not None and hit[0] is catalog:
            return hit[1]
        fe = self.front_end(target_id, host_ids)
        carrying = [(where, link) for where, record, link in self._front_links(catalog, target_id)
                    if protocol in record.protocols]
        if not fe.hosts:
            ours = {id(link) for _, link in carrying}
            served = FrontEnd((), (), tuple(link for link in fe.target_links if id(link) in ours), ())
        else:
            at = {where for where, _ in carrying}
            hosts: list[HostNode] = []
            paths: list[tuple[Link, ...]] = []
            host_links: list[Link] = []
            met: set[tuple[str, int | str]] = set()
            for host, path in zip(fe.hosts, fe.paths, strict=True):
                links = [(where, link) for where, record, link in self._front_links(catalog, host.id)
                         if protocol in record.protocols and where in at]
                if not links:
                    continue
                hosts.append(host)
                paths.append(path)
                host_links += [link for _, link in links]
                met.update(where for where, _ in links)
            served = FrontEnd(tuple(hosts), tuple(host_links),
                              tuple(link for where, link in carrying if where in met), tuple(paths))
        cache[key] = (catalog, served)
        return served

    def left_out_hosts(self, catalog: Catalog, workload: Workload) -> list[tuple[str, tuple[str, ...] | None]]:
        """The hosts a workload names (every host reaching its target, when it names none) that its figures leave
        out, in scenario order, each with why: None when it does not reach the target through links and switches,
        else the protocols it shares with the target (:meth:`shared_protocols`; none of them the workload's
        protocol, :func:`protocol_of`, :meth:`served_front_end`). Empty when the scenario has no host, the target is
        not a controller or cloud VM, or no host is served at all (then the workload has no path,
        :meth:`io_path_problem`)."""
        target = self.by_id.get(workload.target)
        if target is None or target.kind not in ("controller", "cloud_vm") or not self.nodes_of_kind("host"):
            return []
        fe = self.front_end(target.id, workload.hosts)
        unreached = [h for h in dict.fromkeys(workload.hosts)
                     if isinstance(self.by_id.get(h), HostNode) and h not in {x.id for x in fe.hosts}]
        if not fe.hosts or (not unreached and len(fe.hosts) == 1):
            return []  # no host served, or the one host reaching it is served (or the workload has no path)
        protocol = protocol_of(self.scenario, catalog, workload)
        if protocol is None:
            return []
        served = self.served_front_end(catalog, target.id, workload.hosts, protocol)
        if not served.hosts:
            return []
        kept = {h.id for h in served.hosts}
        out: list[tuple[str, tuple[str, ...] | None]] = [(h, None) for h in unreached]
        out += [(h.id, self.shared_protocols(catalog, h.id, target.id)) for h in fe.hosts if h.id not in kept]
        position = self.position
        return sorted(out, key=lambda item: position[item[0]])

    def protocol_pairs(self, catalog: Catalog) -> dict[tuple[str, str], tuple[str, ...]]:
        """(host id, system id) -> :meth:`shared_protocols`, for every host that reaches a controller or a cloud VM
        (the storage systems hosts reach over a front-end protocol), by system then host in scenario order."""
        # a host reaches a system exactly when a host link and a system link meet in one switch fabric (or are one
        # link): grouped by where each link leads, so the pairs cost their number, not a search per system
        hosts_at: dict[tuple[str, int | str], list[tuple[str, LinkType]]] = {}
        for host in self.nodes_of_kind("host"):
            for key, record, _ in self._front_links(catalog, host.id):
                hosts_at.setdefault(key, []).append((host.id, record))
        found: dict[tuple[str, str], dict[str, None]] = {}
        for system in self.nodes_of_kind("controller", "cloud_vm"):
            for key, record, _ in self._front_links(catalog, system.id):
                for host_id, host_record in hosts_at.get(key, ()):
                    found.setdefault((host_id, system.id), {}).update(
                        dict.fromkeys(p for p in record.protocols if p in host_record.protocols))
        position = self.position
        return {pair: tuple(found[pair]) for pair in sorted(found, key=lambda p: (position[p[1]], position[p[0]]))}

    def protocol_mismatches(self, catalog: Catalog) -> list[tuple[str, str]]:
        """(host id, system id) of each host that reaches a controller or cloud VM with no protocol in common
        (:meth:`protocol_pairs`), in scenario order."""
        return [pair for pair, shared in self.protocol_pairs(catalog).items() if not shared]

    def mismatch_words(self, catalog: Catalog, host_id: str, system_id: str) -> str:
        """The sentence of a host that reaches a system with no protocol in common: both ends by name and what each
        side carries ("DL380 Gen11 reaches AFF A400 HA pair over FCP, the controller's links carry NVMe/FC: ...")."""
        names = node_names(self.scenario.nodes, catalog)
        _, host_side, target_side = self._sides(catalog, host_id, system_id)
        what = "cloud VM" if self.by_id[system_id].kind == "cloud_vm" else "controller"
        theirs, ours = "/".join(host_side) or "no protocol", "/".join(target_side) or "no protocol"
        return (f"{names[host_id]} reaches {names[system_id]} over {theirs}, but the {what}'s links carry {ours}: "
                f"{_article(theirs)} {theirs} initiator cannot use {_article(ours)} {ours} target; use one protocol "
                "end to end")

    def io_path_problem(self, catalog: Catalog, workload: Workload) -> str | None:
        """Why a workload's I/O has no path to its target, or None when it has one (or need not have one).

        A scenario with hosts carries its I/O from them: when none of the workload's hosts (every host, when it
        names none) reaches its target, or none shares a protocol with it, the workload cannot be served, and its
        performance is not evaluated. A scenario without hosts is the storage alone (its figures at the target's
        ports), and an HCI cluster's or a managed service's workloads run on or reach it without drawn hosts.
        """
        target = self.by_id.get(workload.target)
        if target is None or target.kind not in ("controller", "cloud_vm") or not self.nodes_of_kind("host"):
            return None
        fe = self.front_end(target.id, workload.hosts)
        if fe.hosts and any(self.shared_protocols(catalog, host.id, target.id) for host in fe.hosts):
            return None
        names = node_names(self.scenario.nodes, catalog)  # the reason only: names cost a pass over the nodes
        if not fe.hosts:
            whose = ("none of its hosts (" + ", ".join(names.get(h, h) for h in workload.hosts) + ")"
                     if workload.hosts else "no host")
            return f"{whose} reaches {names[target.id]}: its I/O has no path"
        whose = "its host shares" if len(fe.hosts) == 1 else "none of its hosts shares"
        return f"{whose} no protocol with {names[target.id]}: its I/O has no path"


NVME_TCP_MIN_ONTAP = (9, 10, 1)
"""ONTAP serves NVMe/TCP from 9.10.1 (docs.netapp.com/us-en/ontap/san-admin/configure-nvme-lif-task.html and
ontap/nvme/support-limitations.html: 'Beginning with ONTAP 9.10.1, NVMe/TCP is supported')."""


def _version(text: str) -> tuple[int, ...]:
    """ONTAP's version text as numbers ('9.10.1' -> (9, 10, 1), '9.14' -> (9, 14)); () when it holds none."""
    parts = []
    for piece in text.replace("P", ".").split("."):
        digits = "".join(ch for ch in piece if ch.isdigit())
        if not digits:
            break
        parts.append(int(digits))
    return tuple(parts)


def protocol_version_problem(record: Controller, software: str, link: LinkType) -> str | None:
    """Why a controller ``record`` on ``software`` (a version text) cannot take a link of type ``link``, else None:
    ONTAP before 9.10.1 does not serve NVMe/TCP (:data:`NVME_TCP_MIN_ONTAP`)."""
    if record.family != "ONTAP" or link.protocols != ["NVMe/TCP"]:
        return None
    version = _version(software)
    if version and version < NVME_TCP_MIN_ONTAP:
        return f"{record.name} on ONTAP {software} does not serve NVMe/TCP (from ONTAP 9.10.1)"
    return None


def _is_drive_loop(catalog: Catalog, link: LinkType) -> bool:
    """True for a link type that some shelf names as its back end (a 4Gb FC-AL drive loop is FC, yet joins
    only an array to its shelves). The shelves' back-end link ids are gathered once per catalog (kept beside its
    records of each kind, ``Catalog.of_kind``: a catalog never changes after it is built), not searched for every
    link of every evaluation."""
    links = catalog.__dict__.get("_drive_loop_links")
    if links is None:
        links = catalog.__dict__["_drive_loop_links"] = frozenset(
            backend for shelf in catalog.of_kind(ShelfRecord)
            if (backend := getattr(shelf, "backend_link", None)) is not None)
    return link.id in links


BACK_END_WORDS = {"PCIe": "NVMe", "SAS": "SAS", "FC": "FC-AL"}
"""How a shelf's back-end medium (its ``backend_link``'s ``LinkType.medium``) reads in a sentence."""


def _article(word: str) -> str:
    """"an" before a word read with a vowel sound ("an NVMe", "an FCP", "an iSCSI"), else "a" ("a SAS")."""
    return "an" if word[:1] in "AEFHILMNORSXaeiou" and not word.startswith("SAS") else "a"


def _back_end_words(catalog: Catalog, node: NodeBase) -> str:
    """A shelf's back end in a word: "NVMe" (PCIe), "SAS", "FC-AL"."""
    link = catalog.find(getattr(catalog.find(node.catalog_id), "backend_link", None) or "")
    medium = link.medium if isinstance(link, LinkType) else ""
    return BACK_END_WORDS.get(medium, medium)


def _front_end_mismatch(catalog: Catalog, ends: tuple[NodeBase, ...], link: LinkType) -> str | None:
    """Why a front-end link cannot join these ends: a switch takes only its own medium (an FC switch no 10GbE),
    a host's adapter only its protocols (an FC HBA no iSCSI); None when it can."""
    for node in ends:
        record = catalog.find(node.catalog_id)
        if isinstance(record, Switch) and record.medium != link.medium:
            return f"{record.name} is an {record.medium} switch; it does not take {link.name}"
        if isinstance(node, HostNode) and node.adapter:
            adapter = catalog.find(node.adapter)
            if isinstance(adapter, Adapter) and not set(adapter.protocols) & set(link.protocols):
                return (f"the host's {adapter.name} speaks {'/'.join(adapter.protocols)}, "
                        f"not {'/'.join(link.protocols)}")
    return None


def of(scenario: Scenario) -> Topology:
    """The scenario's topology, built on first use and kept with the scenario's index (so every engine of one
    evaluation shares it; an edited scenario gets a new one)."""
    derived = scenario.index().derived
    topology = derived.get("topology")
    if topology is None:
        topology = derived["topology"] = Topology(scenario)
    return topology


def connect_problem(scenario: Scenario, catalog: Catalog, source_id: str, target_id: str, link_type_id: str
                    ) -> str | None:
    """Why a new link of ``link_type_id`` between two nodes of ``scenario`` cannot be drawn, or None when it can
    (see :meth:`Topology.connect_problem`: the ends' rules and what the link does to the graph)."""
    return of(scenario).connect_problem(catalog, source_id, target_id, link_type_id)


def link_problem(scenario: Scenario, catalog: Catalog, source_id: str, target_id: str, link_type_id: str) -> str | None:
    """Why a link of ``link_type_id`` between two nodes of ``scenario`` cannot be made, or None when it can
    (see :meth:`Topology.link_problem`)."""
    return of(scenario).link_problem(catalog, source_id, target_id, link_type_id)


def shelves_of(scenario: Scenario, controller_id: str) -> list[ShelfNode]:
    """The shelves a controller owns, chained shelves included (see :meth:`Topology.shelves_of`)."""
    return of(scenario).shelves_of(controller_id)


def controller_of_shelf(scenario: Scenario, shelf_id: str) -> ControllerNode | None:
    """The controller that owns a shelf, or None (see :meth:`Topology.controller_of_shelf`)."""
    return of(scenario).controller_of_shelf(shelf_id)


def front_end(scenario: Scenario, target_id: str, host_ids: tuple[str, ...] | list[str] = ()) -> FrontEnd:
    """The hosts and front-end links of I/O to ``target_id`` (see :meth:`Topology.front_end`)."""
    return of(scenario).front_end(target_id, host_ids)


__all__ = ["SWITCHLESS_PAIR_SOURCE", "FrontEnd", "SharedShelf", "SlowerSwitch", "SwitchFootprint", "Topology",
           "connect_problem", "runs_at_words", "slower_switch", "switch_model",
           "controller_of_shelf",
           "front_end", "front_end_switch_note", "front_end_switches", "link_problem", "of", "shelves_of"]


def protocol_of(scenario: Scenario, catalog: Catalog, workload: Workload) -> str | None:
    """The front-end protocol of a workload: the first protocol of the link type joining its hosts' path to the
    target that its hosts' links carry too (:meth:`Topology.shared_protocols`: an FCP host behind a switch never
    gets a controller link's NVMe/FC), the most common one, by ports, when several differ; for a file workload
    (``Workload.nas``) its link protocol (NFS or SMB) where a front-end link type carries it; "vSAN" for an HCI
    cluster; None when nothing links, or when no host shares a protocol with the target
    (:meth:`Topology.io_path_problem` says so).
    """
    target = scenario.node(workload.target)
    if target is not None and target.kind == "hci_cluster":
        return "vSAN"
    topo = of(scenario)
    fe = topo.front_end(workload.target, workload.hosts)
    allowed: set[str] | None = None  # no host reaches the target: the target's links alone
    if fe.hosts:
        allowed = {p for host in fe.hosts for p in topo.shared_protocols(catalog, host.id, workload.target)}
    family = PROTOCOL_FAMILY[workload.nas.protocol] if workload.nas is not None else None
    counts = _protocol_counts(catalog, fe.target_links or fe.host_links, allowed, family)
    if not counts and allowed:  # the hosts' paths cross a link of another protocol: the target's other links
        reach = topo.reach(workload.target)
        others = [link for link in topo.links_of(workload.target)
                  if (link.target if link.source == workload.target else link.source) in reach]
        counts = _protocol_counts(catalog, others, allowed, family)
    if not counts:
        return None
    return max(counts, key=lambda k: counts[k])


def _protocol_counts(catalog: Catalog, links: tuple[Link, ...] | list[Link], allowed: set[str] | None,
                     family: str | None) -> dict[str, int]:
    """Ports per protocol over front-end ``links``: a file workload's ``family`` (NFS, SMB) where a link carries it,
    else each link's first protocol among ``allowed`` (None: any), in link order (:func:`protocol_of`)."""
    counts: dict[str, int] = {}
    for link in links:
        record = catalog.find(link.link_type)
        if not isinstance(record, LinkType):
            continue
        protocols = [p for p in record.protocols if allowed is None or p in allowed]
        if family in protocols:
            counts[family] = counts.get(family, 0) + link.ports
        elif protocols and record.medium in FRONT_END_MEDIA:
            counts[protocols[0]] = counts.get(protocols[0], 0) + link.ports
    return counts

SWITCHLESS_PAIR_SOURCE = ("NetApp, 'Components and part numbers for NVIDIA SN2100 switches' "
                          "(docs.netapp.com/us-en/ontap-systems-switches/switch-nvidia-sn2100/"
                          "components-sn2100-cluster.html): 'If you want to build ONTAP clusters with more than two "
                          "nodes, you need two supported cluster network switches'")
"""Why a single HA pair counts no cluster switch: a two-node cluster needs none (NetApp's switch pages)."""


@dataclass(frozen=True)
class SwitchFootprint:
    """The switches a sizer candidate counts in its footprint (:func:`front_end_switches`; each switch by the
    rule of ``models.present.bom.part_footprints``: its record's ``rack_units`` and ``typical_power_w``).

    Attributes:
        names: the switches' names, in scenario order; rack_units: their summed height (a switch with no height in
        the catalog counts 0 and makes ``power_w`` None); power_w: their summed typical power, W, None when any
        switch's height or power is not in the catalog (an unknown figure never satisfies a limit).
    """

    names: tuple[str, ...] = ()
    rack_units: int = 0
    power_w: float | None = 0.0

    def added_to(self, rack_units: int, power_w: float | None) -> tuple[int, float | None]:
        """(rack units, typical W) of a design whose own are ``rack_units`` and ``power_w`` (None: unknown) with
        these switches added; the power stays None when either is unknown."""
        if power_w is None or self.power_w is None:
            return rack_units + self.rack_units, None
        return rack_units + self.rack_units, power_w + self.power_w


def front_end_switches(base: Scenario, catalog: Catalog) -> SwitchFootprint:
    """The switches every sizer array candidate counts: the base scenario's switches, its hosts' front-end network
    (the candidate's hosts keep it; the sizer draws them linked to the array directly). They are counted with every
    array candidate whatever its protocol, so the ranking by rack units and power compares the storage alone: a
    candidate over another medium would use switches of that medium instead, which the project does not draw, and
    counting the drawn ones for one medium only would favour the other. A switch node whose record is not in the
    catalog counts an unknown height and power.

    No cluster switch is counted: the sizer proposes one HA pair, a two-node cluster, which needs none
    (:data:`SWITCHLESS_PAIR_SOURCE`). A project whose hosts are not switched (no switch node) counts none.

    Args:
        base: the scenario the sizer starts from; catalog: its catalog.

    Returns:
        the switches' :class:`SwitchFootprint` (empty when there are none).
    """
    names = node_names(base.nodes, catalog)
    picked: list[str] = []
    ru, power, known = 0, 0.0, True
    for node in base.nodes:
        if not isinstance(node, SwitchNode):
            continue
        rec = catalog.find(node.catalog_id)
        picked.append(names[node.id])
        height = rec.rack_units if isinstance(rec, Switch) else None
        watts = rec.typical_power_w if isinstance(rec, Switch) else None
        ru += height or 0
        if height is None or watts is None:
            known = False
        else:
            power += watts
    return SwitchFootprint(tuple(picked), ru, power if known else None)


def front_end_switch_note(base: Scenario, catalog: Catalog) -> str:
    """The sizer's note on the switches its array designs count (:func:`front_end_switches`), "" when the base
    scenario has none: which switches they are, their rack units and power, and that a single HA pair needs no
    cluster switch."""
    found = front_end_switches(base, catalog)
    if not found.names:
        return ""
    power = "unknown power" if found.power_w is None else f"{found.power_w:,.0f} W"
    return (f"an array design's rack units and power include the project's switches, its hosts' front-end network "
            f"({', '.join(found.names)}: {found.rack_units} U, {power}), with every array design whatever its "
            "protocol (one over another medium would use switches of that medium instead); one ONTAP HA pair is a "
            "two-node cluster and needs no cluster switch, nor does an E-Series array")


@dataclass(frozen=True)
class SlowerSwitch:
    """A link whose type is faster than a switch it is cabled to: the link runs at the switch's speed (FC and
    Ethernet ports auto-negotiate to the highest speed both ends run; a 64Gb FC port on a 32Gb switch runs at
    32Gb). The performance engine runs the link at ``gbps`` (``models.performance.paths._negotiated_mbps``).

    Attributes:
        gbps: the speed the link runs at (the slowest such switch's port speed), Gb/s; payload_mbps: its payload
        per port at that speed, MB/s (the link type's payload scaled by ``gbps`` / its speed); switch_id: that
        switch's node id; record: its catalog record.
    """

    gbps: float
    payload_mbps: float
    switch_id: str
    record: Switch


def slower_switch(scenario: Scenario, catalog: Catalog, link: Link) -> SlowerSwitch | None:
    """The switch end of ``link`` whose ports are slower than the link's type (the slowest when both ends are such
    switches), or None when the link runs at its type's speed (or its type or switch is not in the catalog)."""
    lt = catalog.find(link.link_type)
    if not isinstance(lt, LinkType):
        return None
    found: SlowerSwitch | None = None
    for end in (link.source, link.target):
        node = scenario.node(end)
        if node is None or node.kind != "switch":
            continue
        sw = catalog.find(node.catalog_id)
        if isinstance(sw, Switch) and 0 < sw.speed_gbps < lt.speed_gbps and (found is None
                                                                           or sw.speed_gbps < found.gbps):
            found = SlowerSwitch(sw.speed_gbps, lt.payload_mbps * sw.speed_gbps / lt.speed_gbps, node.id, sw)
    return found


def runs_at_words(slower: SlowerSwitch) -> str:
    """How a link held back by a slower switch runs, in words: ``runs at 32Gb (3,200 MB/s) on the Brocade G630``
    (the switch named by its record's vendor and model, the first words of its name)."""
    return f"runs at {slower.gbps:g}Gb ({slower.payload_mbps:,.0f} MB/s) on the {switch_model(slower.record)}"


def switch_model(record: Switch) -> str:
    """A switch's vendor and model, the words of its record's name before its speed: ``Brocade G630`` of
    ``Brocade G630 32Gb FC switch (128 ports)``."""
    words = []
    for word in record.name.split():
        if word[:1].isdigit() and ("Gb" in word or "GbE" in word):
            break
        words.append(word)
    return " ".join(words) or record.name
