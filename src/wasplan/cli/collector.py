"""The cyclic garbage collector is paused for a command's whole run.

A command is one short process that builds large, long-lived structures (tens of thousands of documents, node
arrays, plans) and drops them only at exit. CPython's cyclic collector runs every 700 new container objects and
re-walks the growing heap while they are built: about 70 % of `wasplan validate` on 20,000 documents
(12 s -> 5.1 s with it paused), a fifth of `wasplan plan` and 40 % of `wasplan explain` on 35,000 running
pods (6.6 s -> 4.0 s). wasplan's data frees by reference counting; the few reference cycles (tracebacks,
closures, the engine's throw-away re-runs) live until exit: peak memory measured the same for plan's
100,000-pod case (276 MiB) and 13 % higher for that explain (321 -> 362 MiB). Library callers (tests, other
tools) keep the collector as they set it; only the CLI entry pauses it.

Most of what a run built ends up reachable only through such cycles: at the end of a 10,000-pod plan about
350,000 objects (its documents and their YAML nodes, its pods and the engine's records of them) are garbage
that only the collector could free. CPython's finalization collects once more before the process ends, even
with collection disabled: a walk of every one of them, about 0.2 s of that plan, to return memory that the
operating system takes back anyway. `at_exit` moves every object out of the collector's view first
(gc.freeze), so that walk finds nothing; atexit handlers, buffered output and files still close as usual.
"""

from __future__ import annotations

import gc


def pause() -> None:
    """Stop automatic collection for the rest of the process (an explicit gc.collect() still works)."""
    gc.disable()


def at_exit() -> None:
    """The command is done: leave its objects to the operating system rather than to a last collection."""
    gc.freeze()
