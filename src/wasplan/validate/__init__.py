"""Validation: JSON Schema checks (wasplan's own schemas and upstream's for core kinds), later the
server-side rules a schema cannot express and the cross-object lint."""
