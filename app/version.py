"""StorPlan's version, as a constant: ``storplan --version``, the About box and the report read it without scanning
the installed packages' metadata (``importlib.metadata`` costs tens of milliseconds at every start).

It equals ``[project] version`` in pyproject.toml; ``tests/test_version.py`` keeps the two equal (bump both).
"""

__version__ = "0.1.0"
