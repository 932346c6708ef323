"""Renderers: they turn results into text, JSON or annotations and compute nothing themselves."""
