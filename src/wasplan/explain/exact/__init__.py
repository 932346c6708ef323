"""The exact feasibility check of `wasplan explain` (check.py runs it; the other modules are its parts):
shapes.py (pods and the engine's per-node verdicts), capacity.py (the columns: resources and, through
devices.py and devicecolumns.py, DRA devices and counters), classes.py (symmetry: node classes and per-node
patterns), solver.py (the integer program, CP-SAT) with grouprules.py (rules over the group's placed pods: a
shared claim's node, shared devices, anti-affinity and affinity per domain), witness.py (the assignment replayed
through the engine), bounds.py (bounds a person can check), changes.py and devicechanges.py (verified changes
that let the scheduler find it), question.py (one question on the engine's state), tree.py and tree_solver.py
(a CompositePodGroup tree as a whole), moves.py (running pods movable, fewest evictions), result.py (the records
the report renders, the proof and its bounds among them).
"""
