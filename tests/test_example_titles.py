"""The examples menu's titles come from each file's ``[project]`` table alone (fast at start-up), and are the names
a whole-file parse gives."""

from __future__ import annotations

import tomllib

import models.resources
from models.resources import example_titles, examples_dir


def test_every_bundled_example_s_title_is_its_whole_file_s_project_name():
    titles = dict((path, title) for title, path in example_titles())
    files = sorted(examples_dir().glob("*.toml"))
    assert len(titles) == len(files) >= 20
    for path in files:
        assert titles[path] == tomllib.loads(path.read_text(encoding="utf-8"))["project"]["name"].strip()


def test_tables_the_fast_path_cannot_read_alone_fall_back_to_the_whole_file(tmp_path, monkeypatch):
    monkeypatch.setattr(models.resources, "examples_dir", lambda: tmp_path)
    (tmp_path / "a-dotted.toml").write_text('project.name = "Dotted"\n', encoding="utf-8")
    (tmp_path / "b-multiline.toml").write_text(
        '[project]\ndescription = """first\n[not a table]\n"""\nname = "After a bracket line"\n', encoding="utf-8")
    (tmp_path / "c-inline.toml").write_text('project = { name = "Inline" }\n', encoding="utf-8")
    (tmp_path / "d-broken.toml").write_text('[project]\nname = "Broken\n', encoding="utf-8")
    (tmp_path / "e-plain.toml").write_text('[project] # the info\nname = "Plain"\n[[scenario]]\nname = "x"\n',
                                           encoding="utf-8")
    assert [title for title, _ in example_titles()] == ["Dotted", "After a bracket line", "Inline", "d broken",
                                                         "Plain"]
