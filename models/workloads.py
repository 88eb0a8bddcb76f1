"""Workload presets (resources/workloads/presets.toml): validated templates for new workloads."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from models.project.model import Workload
from models.resources import workloads_dir


class PresetError(ValueError):
    """The presets file is malformed; the message names the file, the preset and the field."""


@dataclass(frozen=True)
class Preset:
    """A workload template: the fields of a :class:`Workload` (without id / target) and their sources."""

    id: str
    name: str
    fields: dict[str, Any]
    sources: dict[str, str]

    def make(self, workload_id: str, target: str, **overrides: Any) -> Workload:
        """A new workload from this preset.

        Raises:
            pydantic.ValidationError: an override is invalid.
        """
        data = {"id": workload_id, "name": self.name, "preset": self.id, "target": target, **self.fields}
        data.update(overrides)
        return Workload.model_validate(data)


def load_presets(path: Path | None = None) -> dict[str, Preset]:
    """Read and validate presets (default: the bundled file).

    Raises:
        PresetError: unreadable or invalid TOML, a preset that does not make a valid workload, or a number
            without a source.
    """
    path = path or workloads_dir() / "presets.toml"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise PresetError(f"{path}: {exc}") from exc
    presets: dict[str, Preset] = {}
    for index, item in enumerate(data.get("preset", []), start=1):
        item = dict(item)
        preset_id = item.pop("id", None) or f"#{index}"
        name = item.pop("name", preset_id)
        sources = item.pop("sources", {})
        missing = [k for k, v in item.items()
                   if isinstance(v, (int, float, dict)) and not isinstance(v, bool) and k not in sources]
        if missing:
            raise PresetError(f"{path}: preset '{preset_id}': numbers without a source: {', '.join(missing)}")
        preset = Preset(preset_id, name, item, sources)
        try:
            preset.make("check", "check")
        except ValidationError as exc:
            first = exc.errors()[0]
            raise PresetError(
                f"{path}: preset '{preset_id}': field '{'.'.join(map(str, first['loc']))}': {first['msg']}"
            ) from exc
        presets[preset_id] = preset
    return presets


@lru_cache(maxsize=1)
def bundled_presets() -> dict[str, Preset]:
    """The bundled presets, loaded once."""
    return load_presets()
