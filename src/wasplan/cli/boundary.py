"""The one exception boundary every command runs inside (DESIGN.md §4: exit codes decided in one place).

`main()` hands the Typer app to `guarded()`, which is the only place that turns what escapes a command into
an exit code:

* a usage error (bad flag) is one line naming the command and where its help is, exit 2 (Typer's framed box
  is for help pages, not for a line a user has to read in a CI log);
* a closed stdout (`wasplan plan ... | head -1`) ends quietly with exit 2 ("an output it cannot write"), never
  1 (findings) and never a traceback; stdout is pointed at /dev/null so the interpreter's final flush is quiet;
* any other failure to write (a full device) is one line on stderr, exit 2;
* a stream that cannot encode a character (`PYTHONIOENCODING=ascii`, `LC_ALL=C` in a CI log) writes it as a
  backslash escape (`\\xe9`) instead of failing half-way through the output: stdout and stderr are switched to
  Python's `backslashreplace` error handler before the command runs;
* anything unexpected is one line "internal error: ... (run with --debug for the traceback)", exit 2;
  `--debug` anywhere on the command line prints the traceback too.

With `-o json` a failure still leaves exactly one JSON document on stdout (`kind: Failure`), so a consumer
that parses stdout never gets an empty stream. Commands record their output format with `set_output()`, and
report failures they recognise (unreadable inputs, bad options) through `emit_failure()`.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import sys
import traceback
from typing import Any, Callable, Sequence

from wasplan.exitcodes import ExitCode

DEBUG_FLAG = "--debug"
FAILURE_API_VERSION = "wasplan.io/v1alpha1"


class _Session:
    """What the running command asked for: whether stdout must carry JSON, and whether to show tracebacks."""

    def __init__(self) -> None:
        self.json = False
        self.debug = False
        self.command = ""
        self.emitted = False  # a failure document was already printed


session = _Session()


def set_output(command: str, fmt: str) -> None:
    """Called by each command first thing (through `check_formats`): a fresh start for this run's output."""
    session.command = command
    session.json = fmt == "json"
    session.emitted = False


def failure_document(message: str, diagnostics: Sequence[Any] = (), code: ExitCode = ExitCode.TOOL_ERROR) -> dict:
    return {
        "apiVersion": FAILURE_API_VERSION, "kind": "Failure", "command": session.command or None,
        "exitCode": int(code), "message": message, "diagnostics": [d.to_dict() for d in diagnostics],
    }


def emit_failure(message: str, diagnostics: Sequence[Any] = (), code: ExitCode = ExitCode.TOOL_ERROR) -> None:
    """With -o json, print the one JSON document describing why the command could not do its job."""
    if session.json and not session.emitted:
        session.emitted = True
        sys.stdout.write(json.dumps(failure_document(message, diagnostics, code), indent=2) + "\n")


def _json_from_argv(args: Sequence[str]) -> bool:
    """Before a command has recorded its format (a failure while parsing options), read it from argv."""
    for i, arg in enumerate(args):
        if arg in ("-o", "--output") and i + 1 < len(args):
            return args[i + 1] == "json"
        if arg in ("-ojson", "--output=json"):
            return True
    return False


def split_debug(args: Sequence[str]) -> tuple[list[str], bool]:
    """Remove `--debug` (before a `--` end-of-options marker) from the arguments."""
    out, debug, options_done = [], False, False
    for arg in args:
        if arg == "--":
            options_done = True
        if arg == DEBUG_FLAG and not options_done:
            debug = True
            continue
        out.append(arg)
    return out, debug


def _stderr(line: str) -> None:
    with contextlib.suppress(OSError):  # stderr is gone too: the exit code is all that is left
        sys.stderr.write(line + "\n")
        sys.stderr.flush()


def _silence_stdout() -> None:
    """After EPIPE: point fd 1 at /dev/null so nothing (the interpreter's last flush included) writes there."""
    # Not a real file (a test runner's buffer): nothing will flush into a closed pipe, so there is nothing to redirect.
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - lives until the process ends


def _on_os_error(exc: OSError) -> int:
    """A file or stream the command could not use; EPIPE (the reader went away) is not worth a word."""
    if exc.errno == errno.EPIPE:
        _silence_stdout()
        return int(ExitCode.TOOL_ERROR)
    where = exc.filename if exc.filename else "<stdout>"
    message = f"{where}: {exc.strerror or exc}"
    _stderr(f"wasplan: error: {message}")
    _emit_last(message)
    return int(ExitCode.TOOL_ERROR)


def _emit_last(message: str) -> None:
    """The failure document on the way out; if stdout fails too, it is silenced rather than raising again."""
    try:
        emit_failure(message)
        sys.stdout.flush()
    except OSError:
        _silence_stdout()


def _on_internal_error(exc: BaseException) -> int:
    summary = f"{type(exc).__name__}: {exc}".splitlines()[0][:300] if str(exc) else type(exc).__name__
    if session.debug:
        traceback.print_exc(file=sys.stderr)
    _stderr(f"wasplan: internal error: {summary} (run with --debug for the traceback)")
    _emit_last(f"internal error: {summary}")
    return int(ExitCode.TOOL_ERROR)


def _usage_error(exc: Any) -> int:
    if type(exc).__name__ == "NoArgsIsHelpError":  # `wasplan` alone: the help (rich's error printer skips it)
        exc.show()
        return int(exc.exit_code)
    _stderr(usage_line(exc))
    emit_failure(exc.format_message(), code=ExitCode.TOOL_ERROR)
    return int(exc.exit_code)


def usage_line(exc: Any) -> str:
    """`wasplan config: error: No such option: --bogus (see `wasplan config -h`)`: one line, whatever the error."""
    ctx = getattr(exc, "ctx", None)
    where = ctx.command_path if ctx is not None else "wasplan"
    message = " ".join(exc.format_message().split()).rstrip(".")
    return f"{where}: error: {message} (see `{where} -h`)"


def _closed_streams() -> bool:
    """A closed stderr becomes /dev/null; a closed stdout means no output can be written at all (True)."""
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - lives until the process ends
    if sys.stdout is None:
        sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - takes fd 1, so nothing else can
        _stderr("wasplan: error: stdout is closed; nothing can be written")
        return True
    return False


def _escape_unencodable() -> None:
    """Have stdout and stderr escape what their encoding cannot hold: a name in a C-locale CI log prints as
    `train\\xe9` rather than ending the run in a UnicodeEncodeError. A stream that cannot be reconfigured (a test
    runner's buffer, which holds any character) is left alone."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, ValueError, OSError):
            stream.reconfigure(errors="backslashreplace")


def guarded(app: Callable[..., Any], args: Sequence[str], prog_name: str = "wasplan") -> int:
    """Run `app` on `args` and return the exit code; nothing escapes but the code."""
    from typer import exceptions as typer_exc
    from typer._click import exceptions as click_exc

    args, session.debug = split_debug(args)
    session.json, session.emitted, session.command = _json_from_argv(args), False, ""
    if _closed_streams():
        return int(ExitCode.TOOL_ERROR)
    _escape_unencodable()
    try:
        code = app(args=list(args), prog_name=prog_name, standalone_mode=False)
        sys.stdout.flush()
        return int(code or 0)
    except typer_exc.Exit as exc:  # raised outside a command's invoke (eager --version)
        return int(exc.exit_code)
    except click_exc.ClickException as exc:
        return _usage_error(exc)
    except typer_exc.Abort:
        _stderr("Aborted!")
        return 130
    except OSError as exc:
        return _on_os_error(exc)
    except SystemExit as exc:
        if isinstance(exc.__context__, BrokenPipeError):  # rich's Console ends a broken pipe with exit 1
            _silence_stdout()
            return int(ExitCode.TOOL_ERROR)
        raise
    except Exception as exc:  # noqa: BLE001 - this is the boundary
        return _on_internal_error(exc)
