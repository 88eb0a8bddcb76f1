"""TOML projects: size and nesting limits give a clean ProjectFormatError naming the file, never a RecursionError."""

from __future__ import annotations

from pathlib import Path

import pytest

from models.project import ProjectFormatError, load, loads, textformat


@pytest.mark.parametrize(
    "text",
    [
        "foo = " + "[" * 1000 + "]" * 1000,  # the reproducer: RecursionError in tomllib
        "foo = " + "[" * 300 + "]" * 300,  # parses, but deeper than any project
        "foo = " + "{a = " * 100 + "1" + "}" * 100,  # inline tables
        ".".join(f"k{i}" for i in range(200)) + " = 1",  # dotted keys nest without a bracket
        "[" + ".".join(f"t{i}" for i in range(200)) + "]\nx = 1",
    ],
    ids=["arrays-1000", "arrays-300", "inline-tables", "dotted-keys", "table-header"],
)
def test_deep_nesting_is_refused_in_words(text: str, tmp_path: Path):
    path = tmp_path / "deep.toml"
    path.write_text(text + "\n", encoding="utf-8")
    with pytest.raises(ProjectFormatError) as info:
        load(path)
    assert str(info.value).startswith(f"{path}: ")
    assert "nested too deeply" in str(info.value) and "32" in str(info.value)


def test_nesting_a_project_needs_is_accepted():
    assert textformat._nesting_depth({"a": [{"b": {"c": [1]}}]}, 32) == 5
    project = loads("[project]\nname = 'ok'\n")
    assert project.info.name == "ok"


def test_oversized_file_is_refused_before_parsing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(textformat, "MAX_TOML_BYTES", 1000)
    path = tmp_path / "big.toml"
    path.write_text("[project]\nname = 'x'\ndescription = '" + "a" * 2000 + "'\n", encoding="utf-8")
    with pytest.raises(ProjectFormatError, match="too large for a project"):
        load(path)
    with pytest.raises(ProjectFormatError, match="too large for a project"):
        loads(path.read_text(encoding="utf-8"), "text")
