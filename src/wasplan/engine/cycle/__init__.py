"""The scheduling cycles: dispatch (`cycles.py`), the per-pod algorithm (`framework.py`: PreFilter, Filter,
Score, select host; nominated pods in `nominated.py`, the last filter run node by node in `latefilter.py`), the
memos it keeps (per pod-shape verdicts `static.py`, verdict keys `podkeys.py`, resource scores `rescache.py`),
why a pod found no node (`diagnosis.py`, recorded by `recorder.py`), the PodGroup cycles of 1.36 and 1.37
(`groupcycle.py`, `gangbatch.py`), topology-aware placement (`placement.py`, `search.py`, `domains.py`) and the
CompositePodGroup cycle (`compositecycle.py`). Upstream: pkg/scheduler/schedule_one.go,
schedule_one_podgroup.go and framework/runtime/framework.go.

It owns no cluster state: every cycle reads and changes it through `engine/cache`, and asks the plugins through
the record in `engine/profile/registry.py`.
"""
