"""Switching findings off: rule selection, per-file ignores, inline comments and the wasplan.io/ignore annotation."""
