"""The cluster as the scheduler's cache and snapshot see it: node state as arrays with an undo journal
(`state.py`), pods, PodGroups and their scheduling statuses (`world.py`), CompositePodGroup trees
(`composite.py`) and the per-node counts of placed pods the topology plugins ask for (`podindex.py`).
Upstream: pkg/scheduler/backend/cache and framework's NodeInfo.
"""
