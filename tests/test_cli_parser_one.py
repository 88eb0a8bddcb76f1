"""A command line whose first argument is a command is parsed by that command's parser alone
(``app.cli.build_parser(command)``): the same parser as in the whole one, so the same arguments, defaults, handler,
help and errors; every other command line (``--help``, ``--version``) gets the whole parser."""

from __future__ import annotations

import argparse

import pytest

from app import cli

SAMPLES = {
    "evaluate": ["evaluate", "x.toml", "--json", "--scenario", "B", "--unit", "TiB"],
    "examples": ["examples"],
    "catalog": ["catalog", "drive", "--sources"],
    "validate": ["validate", "-v"],
    "curve": ["curve", "x.toml", "--workload", "w", "--csv"],
    "import": ["import", "x.toml", "-o", "y.storplan"],
    "export": ["export", "y.storplan", "-o", "x.toml"],
    "report": ["report", "x.toml", "-o", "r.pdf", "--paper", "A4"],
    "calibrate": ["calibrate", "--csv", "lab.csv", "--project", "p.toml"],
    "export-xlsx": ["export-xlsx", "x.toml", "-o", "x.xlsx"],
    "export-csv": ["export-csv", "x.toml", "-o", "out"],
    "size": ["size", "x.toml", "--json", "--top", "3"],
    "import-prices": ["import-prices", "x.toml", "p.csv", "-o", "y.toml"],
    "import-env": ["import-env", "a.xlsx", "b.csv", "-o", "p.storplan", "--group-by", "tag", "--interval", "5"],
}


def _subparser(parser: argparse.ArgumentParser, command: str) -> argparse.ArgumentParser:
    (action,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return action.choices[command]


def _parsed(parser: argparse.ArgumentParser, argv: list[str]) -> dict:
    parsed = vars(parser.parse_args(argv))
    func = parsed.pop("func")
    return {**parsed, "func": (func.__qualname__, func.__defaults__)}


def test_every_command_has_a_sample():
    assert set(SAMPLES) == set(cli.COMMANDS)


@pytest.mark.parametrize("command", cli.COMMANDS)
def test_the_parser_of_one_command_parses_and_helps_as_the_whole_one(command):
    whole, one = cli.build_parser(), cli.build_parser(command)
    assert _parsed(one, SAMPLES[command]) == _parsed(whole, SAMPLES[command])
    assert _subparser(one, command).format_help() == _subparser(whole, command).format_help()
    assert _subparser(one, command).format_usage() == _subparser(whole, command).format_usage()
    assert list(_subparser(one, command)._option_string_actions) == list(
        _subparser(whole, command)._option_string_actions)


@pytest.mark.parametrize("command", ["evaluate", "size", "import-env"])
def test_a_bad_command_line_is_refused_in_the_same_words(command, capsys):
    messages = []
    for parser in (cli.build_parser(), cli.build_parser(command)):
        with pytest.raises(SystemExit) as exit_:
            parser.parse_args([*SAMPLES[command], "--no-such-option"])
        messages.append((exit_.value.code, capsys.readouterr().err))
    assert messages[0] == messages[1] and messages[0][0] == 2 and "--no-such-option" in messages[0][1]


def test_main_builds_only_the_command_s_parser_and_the_whole_one_for_help(monkeypatch, capsys):
    monkeypatch.setattr(cli, "_parsers", {})
    assert cli.main(["examples"]) == 0
    assert list(cli._parsers) == ["examples"]
    (action,) = [a for a in cli._parsers["examples"]._actions if isinstance(a, argparse._SubParsersAction)]
    assert list(action.choices) == ["examples"]
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    assert "evaluate" in capsys.readouterr().out and None in cli._parsers
    (action,) = [a for a in cli._parsers[None]._actions if isinstance(a, argparse._SubParsersAction)]
    assert set(action.choices) == set(cli.COMMANDS)
