"""`storplan COMMAND --help` and README's command list say what the command line does (revhelp56 #6, #10, #11):
no internal file names or the word "seed" in the help a user reads, a help text for every project argument and every
-o; README lists every command and every option the parser has (import-prices, evaluate --unit, export-xlsx /
export-csv --scenario, size --prices were missing), no option the parser lacks, the sizer's deployments and the JSON
outline's top-level "tco" key that `evaluate --json` prints."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import pytest

from app import cli

README = Path(__file__).resolve().parents[1] / "README.md"
INTERNAL = re.compile(r"\bseeds?\b|published\.toml|resources/|\.py\b|research note", re.IGNORECASE)
"""Words and paths of the code base, not of the product."""


def _subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = cli.build_parser()
    (action,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(action.choices)


def _command_block() -> str:
    text = README.read_text(encoding="utf-8")
    return text.split("## Command line", 1)[1].split("```", 2)[1]


def _entries() -> dict[str, str]:
    """README's command list: command -> its entry (its line and the indented lines under it)."""
    entries: dict[str, str] = {}
    current = None
    for line in _command_block().splitlines():
        match = re.match(r"storplan ([a-z][\w-]*)", line)
        if match and match.group(1) in cli.COMMANDS:
            current = match.group(1)
            entries[current] = entries.get(current, "") + line + "\n"
        elif line.startswith("storplan"):
            current = None
        elif current is not None:
            entries[current] += line + "\n"
    return entries


@pytest.mark.parametrize("command", cli.COMMANDS)
def test_help_names_nothing_internal_and_describes_every_argument(command):
    sub = _subparsers()[command]
    text = sub.format_help()
    assert not INTERNAL.search(text), (command, INTERNAL.search(text))
    for action in sub._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        if not action.option_strings or "-o" in action.option_strings:  # a positional, or the file written
            assert action.help, (command, action.dest)


def test_project_arguments_and_outputs_say_what_they_are():
    subs = _subparsers()
    for command in ("evaluate", "curve", "report", "export-xlsx", "export-csv", "size", "import-prices"):
        (path,) = [a for a in subs[command]._actions if a.dest == "path"]
        assert path.help == "project file (.toml or .storplan) or example name", command
    for command in ("import", "export", "report", "export-xlsx", "export-csv", "import-prices", "import-env"):
        (output,) = [a for a in subs[command]._actions if "-o" in a.option_strings]
        assert "write" in output.help, command
    (write,) = [a for a in subs["calibrate"]._actions if a.dest == "write"]
    assert "the published cases" in write.help


def test_readme_lists_every_command_and_option_and_no_other():
    subs = _subparsers()
    entries = _entries()
    assert set(entries) == set(cli.COMMANDS)  # import-prices had no line
    for command, entry in entries.items():
        listed = set(re.findall(r"(?<![\w-])(--?[a-z][\w-]*)", entry))
        options = {s for a in subs[command]._actions for s in a.option_strings} - {"-h", "--help"}
        for option in options:
            long = [s for s in options if s.startswith("--")]
            same = {s for a in subs[command]._actions if option in a.option_strings for s in a.option_strings}
            assert same & listed, (command, option, long)  # -o / --output: either spelling
        for option in listed:
            if option in {"-o", "-v"} or option.startswith("--"):
                assert option in options or option in _other_commands_options(subs, command, entry), \
                    (command, option)


def _other_commands_options(subs, command, entry) -> set[str]:
    """Options of a command the entry quotes (calibrate --csv in import-env's text, storplan size in another)."""
    quoted = set(re.findall(r"storplan ([a-z][\w-]*)", entry)) - {command}
    return {s for name in quoted if name in subs for a in subs[name]._actions for s in a.option_strings}


def test_readme_words_for_the_user():
    text = README.read_text(encoding="utf-8")
    assert not re.search(r"\bseeds?\b", text, re.IGNORECASE)
    size = _entries()["size"]
    for words in ("arrays", "vSAN clusters", "Cloud Volumes ONTAP", "managed", "--prices"):
        assert words in size, words
    assert "on-premises arrays;" not in size
    assert '"profile" (calibrated, derived,\n                 hardware relation only or assumed)' in text
    assert "specstorage" not in text.lower() or "Azure NetApp Files large-volume ramp" in text
    assert text.startswith("# StorPlan\n\n```\nuv run storplan ")
    assert "\nuv run pytest " in text.split("```")[1]


def test_the_json_outline_names_every_top_level_key(capsys):
    """Every top-level key `storplan evaluate --json` prints (here: the default example, and one with replication
    and a capacity tier) is in README's outline."""
    outline = README.read_text(encoding="utf-8").split("`storplan evaluate --json` prints:", 1)[1].split("```")[1]
    keys: set[str] = set()
    for example in ("aff-a70-ns224-oracle-nvmetcp", "aff8080-sqlserver-tpce"):
        assert cli.main(["evaluate", example, "--json"]) == 0
        keys |= set(json.loads(capsys.readouterr().out))
    assert "tco" in keys
    for key in keys:
        assert re.search(rf'^\s*"{key}"|[{{,]\s*"{key}"', outline, re.MULTILINE), key
