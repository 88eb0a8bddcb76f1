"""StorPlan's model: catalog, projects, capacity and performance engines, calibration, validation, storage; Qt-free."""
