"""Chart exports (PNG, SVG) go through the one atomic writer (models.atomic): the mode follows the umask, a
symlink at a temporary name is not followed, a failed export leaves the old file and no temporary file."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

import pyqtgraph as pg
import pytest

from app.gui.results._common import export_plot
from models import atomic


@pytest.fixture
def plot(qtbot):
    widget = pg.PlotWidget()
    widget.resize(400, 300)
    widget.plot([0, 1, 2, 3], [0, 1, 4, 9])
    qtbot.addWidget(widget)
    return widget


def _export(plot, path: Path, mask: int) -> None:
    old = os.umask(mask)
    try:
        export_plot(plot, path, "StorPlan test chart")
    finally:
        os.umask(old)


@pytest.mark.parametrize("suffix, magic", [(".png", b"\x89PNG\r\n\x1a\n"), (".svg", b"<svg")])
@pytest.mark.parametrize("mask, expected", [(0o022, 0o644), (0o077, 0o600)])
def test_chart_export_mode_follows_the_umask(plot, tmp_path: Path, suffix: str, magic: bytes, mask: int,
                                            expected: int):
    path = tmp_path / f"chart{suffix}"
    _export(plot, path, mask)
    data = path.read_bytes()
    assert (data.startswith(magic) if suffix == ".png" else magic in data[:2000])
    assert stat.S_IMODE(path.stat().st_mode) == expected
    assert [p.name for p in tmp_path.iterdir()] == [path.name]


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_chart_export_failure_leaves_the_old_file(plot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  suffix: str):
    path = tmp_path / f"chart{suffix}"
    path.write_bytes(b"old chart")

    def full(_fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(atomic, "_fsync_fd", full)
    with pytest.raises(OSError, match="No space"):
        export_plot(plot, path, "StorPlan test chart")
    assert path.read_bytes() == b"old chart"
    assert [p.name for p in tmp_path.iterdir()] == [path.name]


def test_chart_export_does_not_follow_a_planted_symlink(plot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    victim = tmp_path / "victim"
    victim.write_text("precious")
    names = iter(["a" * 16, "b" * 16])
    monkeypatch.setattr(atomic.secrets, "token_hex", lambda _n: next(names))
    planted = tmp_path / f".chart.svg.{'a' * 16}.tmp"
    planted.symlink_to(victim)
    export_plot(plot, tmp_path / "chart.svg", "StorPlan test chart")
    assert victim.read_text() == "precious" and planted.is_symlink()
    assert b"<svg" in (tmp_path / "chart.svg").read_bytes()[:2000]
