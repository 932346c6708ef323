"""The width and colour decisions every console of the CLI takes from cli/terminal.py."""

from __future__ import annotations

import io

from wasplan.cli import terminal


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_columns_sets_the_width_also_when_piped(monkeypatch):
    monkeypatch.setenv("COLUMNS", "132")
    assert terminal.width() == 132
    monkeypatch.setenv("COLUMNS", "12")
    assert terminal.width() == terminal.MIN_WIDTH


def test_piped_without_columns_is_80_wide(monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    for name in ("stdout", "stderr", "stdin"):
        monkeypatch.setattr(f"sys.{name}", io.StringIO())
    assert terminal.width() == 80


def test_colour_follows_the_terminal_then_force_color_then_no_color(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    terminal.set_no_color(False)
    assert terminal.color(_Tty()) and not terminal.color(io.StringIO())
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert terminal.color(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not terminal.color(_Tty())
    monkeypatch.delenv("NO_COLOR")
    terminal.set_no_color(True)
    try:
        assert not terminal.color(_Tty())
    finally:
        terminal.set_no_color(False)
