"""Renderers: they turn results into text, JSON, YAML, JUnit, SARIF or annotations and compute nothing."""
