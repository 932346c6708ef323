"""What the visual reports of a plan show (`plan -o html`, `-o markdown`, `--report`), assembled from the Plan,
the cluster after the plan and, with `--baseline`, the plan diff: the report layer renders a PlanView and
computes nothing itself (DESIGN.md §2).

* Topology: nodes are grouped by the topology keys the plan's groups and pods use (PodGroup and
  CompositePodGroup `schedulingConstraints.topology` keys, the placement domains the plan chose, pods' topology
  spread keys) and the well-known `topology.kubernetes.io/region` and `/zone` labels, coarsest first (fewest
  distinct values), at most three levels; `kubernetes.io/hostname` is a node, not a group of nodes.
* Fullness: per node, the requests NodeResourcesFit counts against allocatable after the plan
  (`FinalCluster.usage`, the engine's own arrays), accelerators (extended resources) first, then DRA devices per
  driver (the devices of ResourceSlices published for the node, and how many of them the plan's claims hold),
  then cpu and memory. `fullness` is the first accelerator's share, else the larger of cpu's and memory's.
* Colour: each PodGroup, each workload outside PodGroups (a Job, JobSet, ... by its top-level owner) and the
  pods outside both get a numbered entity; a node takes the entity with the most pods the plan binds on it, or
  "running before the plan" when only the snapshot's pods run there. The number travels with the colour, so no
  meaning is carried by colour alone.
* Selections: every PodGroup, CompositePodGroup, owner of the owner chain (Job, JobSet, ...) and namespace,
  each with the nodes of its placed (or nominated) pods.
* Pending: the PodGroups left unscheduled with their message, then every pending or gated pod grouped by its
  PodGroup, else its top-level owner, else itself, and within that by status and kube-scheduler's message, with
  counts and the `wasplan explain` command that answers why (targets as explain/target.py takes them).
"""

from wasplan.planview.build import RUNNING, build_view
from wasplan.planview.model import (Area, Block, ClaimRow, Entity, GroupRow, Invocation, Meter, NodeClaims, NodeView,
                                    PendingEntry, PlanView, PreemptionView, Reason, Selection)
from wasplan.planview.topology import natural, topology_keys

__all__ = ["RUNNING", "Area", "Block", "ClaimRow", "Entity", "GroupRow", "Invocation", "Meter", "NodeClaims", "NodeView", "PendingEntry",
           "PlanView", "PreemptionView", "Reason", "Selection", "build_view", "natural", "topology_keys"]
