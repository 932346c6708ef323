"""Validation: JSON Schema checks (wasplan's own schemas and upstream's for core kinds), the server-side rules a
schema cannot express, feature gates, and the cross-object lint."""
