"""Hardware catalog: validated records, each number with its source."""

from .catalog import Catalog, bundled_catalog, entries_from_toml_text, load_user_catalog
from .loader import CatalogError, parse_entries
from .schema import (
    ENTRY_TYPES,
    Adapter,
    CloudDisk,
    CloudVm,
    Controller,
    Drive,
    Entry,
    HciNode,
    Host,
    Licence,
    LinkType,
    PerfProfile,
    RaidGroupRule,
    Shelf,
    Sourced,
    Switch,
    is_assumption,
)

__all__ = [
    "Adapter",
    "Catalog",
    "CatalogError",
    "CloudDisk",
    "CloudVm",
    "Controller",
    "Drive",
    "ENTRY_TYPES",
    "Entry",
    "HciNode",
    "Host",
    "Licence",
    "LinkType",
    "PerfProfile",
    "RaidGroupRule",
    "Shelf",
    "Sourced",
    "Switch",
    "bundled_catalog",
    "entries_from_toml_text",
    "is_assumption",
    "load_user_catalog",
    "parse_entries",
]
