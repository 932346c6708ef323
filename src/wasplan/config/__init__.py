"""wasplan's own settings: `.wasplan.yaml`, `[tool.wasplan]` in pyproject.toml, and the command line on top."""
