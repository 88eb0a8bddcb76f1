"""Shared test setup: user files go to a temporary StorPlan home, never the developer's own."""

import pytest


@pytest.fixture(autouse=True)
def _storplan_home(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("STORPLAN_HOME", str(tmp_path_factory.mktemp("storplan-home")))
