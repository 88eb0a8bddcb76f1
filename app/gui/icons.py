"""Icons, built in one place (qtawesome fonts: crisp at any DPI, tinted for light and dark palettes)."""

from __future__ import annotations

from functools import lru_cache

from PySide6.QtGui import QIcon

from models.project.kinds import NODE_KINDS

KIND_ICONS = {
    "host": "mdi6.server",
    "adapter": "mdi6.expansion-card",
    "switch": "mdi6.lan",
    "controller": "mdi6.database",
    "shelf": "mdi6.nas",
    "drive": "mdi6.harddisk",
    "hci_node": "mdi6.server-network",
    "hci_cluster": "mdi6.server-network",
    "cloud_vm": "mdi6.cloud-outline",
    "cloud_disk": "mdi6.cloud",
    "licence": "mdi6.key",
    "link": "mdi6.vector-line",
    **{kind: row.icon for kind, row in NODE_KINDS.items()},  # node kinds: the kind table's icons
}

KIND_LABELS = {
    "host": "Hosts",
    "adapter": "Adapters (HBA / NIC)",
    "switch": "Switches",
    "controller": "Controllers",
    "shelf": "Shelves",
    "drive": "Drives",
    "hci_node": "HCI hosts",
    "cloud_vm": "Cloud VMs",
    "cloud_disk": "Cloud disks",
    "licence": "Licences",
    "link": "Links",
}

KIND_COLORS = {
    "host": "#3b82c4",
    "switch": "#7a5cc2",
    "controller": "#d9822b",
    "shelf": "#4f9d69",
    "hci_cluster": "#2a9d8f",
    "cloud_vm": "#5b8def",
}


DISABLED_ALPHA = 0.35
"""Opacity of an icon's disabled state: derived from its own colour rather than the palette's Disabled Text,
which many dark palettes leave equal to the normal text (a disabled Undo would look enabled)."""


@lru_cache(maxsize=None)
def icon(name: str, color: str | None = None) -> QIcon:
    """A named qtawesome icon (``mdi6.*``), tinted ``color`` or the palette's text colour; its disabled state is
    the same colour at :data:`DISABLED_ALPHA` opacity."""
    import qtawesome as qta
    from PySide6.QtGui import QColor, QPalette
    from PySide6.QtWidgets import QApplication

    if color:
        base = QColor(color)
    elif QApplication.instance() is not None:
        base = QApplication.instance().palette().color(QPalette.ColorGroup.Active, QPalette.ColorRole.Text)
    else:
        base = QColor("#505050")
    disabled = QColor(base)
    disabled.setAlphaF(DISABLED_ALPHA)
    return qta.icon(name, color=base, color_disabled=disabled)


def kind_icon(kind: str, color: str | None = None) -> QIcon:
    """The icon of a catalog or node kind."""
    return icon(KIND_ICONS.get(kind, "mdi6.cube-outline"), color)
