"""Importers of a customer's measured environment (RVTools, Live Optics, ONTAP counters, Azure Migrate): one
reader module per source, each a pure function from a file to an :class:`~models.importers.inventory.Inventory`,
and the step from an inventory to workloads and requirements.

Readers are found by name in :data:`models.importers.registry.READERS` (imported on use, so that the command line
and the GUI load only the reader they need)."""

from models.importers.inventory import (
    Datastore,
    Disk,
    ImportFlag,
    Inventory,
    InventoryError,
    Machine,
    PerfFigures,
    PerfSample,
    Volume,
)

__all__ = ["Datastore", "Disk", "ImportFlag", "Inventory", "InventoryError", "Machine", "PerfFigures", "PerfSample",
           "Volume"]
