"""From the simulator's final world to the Plan (DESIGN.md §4): pods, groups and the cluster after the plan
(`outcome.py`), CompositePodGroups (`treeoutcome.py`) and ResourceClaims (`claimoutcome.py`).
"""
