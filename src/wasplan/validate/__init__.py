"""Validation beyond reading: schema checks, server-side rules, feature gates, unknown-field hints, lint."""
