"""`wasplan explain`: why a PodGroup or pod does not fit, and the smallest verified change that makes it fit.

run.py is the orchestrator (`explain_units`); evidence.py and probe.py measure each unit on the engine's final
state, suggest_*.py compute suggestions, each verified by re-running the engine on changed inputs (rerun.py), and
exact/ asks whether any assignment fits at all. The package itself imports nothing, so importing one of its
modules does not load the rest.
"""
