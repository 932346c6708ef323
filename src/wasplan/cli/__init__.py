"""Typer commands: each module is a thin shell (options -> pipeline -> report -> exit code)."""
