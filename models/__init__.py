"""StorPlan's model: catalog, projects, capacity and performance engines, calibration, validation, storage; Qt-free."""

from models.pydantic_plugins import skip_plugin_scan

skip_plugin_scan()  # before any model class is built (models.pydantic_plugins)
