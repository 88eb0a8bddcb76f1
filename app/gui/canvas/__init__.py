"""The topology canvas: a scene mirroring the active scenario, its items, the view and interaction modes."""
