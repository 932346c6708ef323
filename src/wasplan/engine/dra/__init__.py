"""Dynamic Resource Allocation for the engine: upstream's structured allocator (incubating variant) as a library,
and the engine's side of claims.

The claims' side: the plan's ResourceClaims as the scheduler's claim cache sees them (`claimstore.py`), the claims
a pod stands for and the ResourceClaim controller acting for it (`draclaims.py`) and DRA-backed extended
resources (`extendedclaim.py`). The allocator modules below hold no engine
state; the DynamicResources plugin drives them. Upstream followed:
`k8s.io/dynamic-resource-allocation` `structured/internal/incubating/*` at v0.36.0 (commit c44687d1), with the
1.37 behaviours from master (3d036712) behind `Features` flags. Semantics in `../shared/reference/dra.md` §4-§5.

API
---
* `Allocator(slices, classes, ledger=None, features=Features(), cel=None)` - one per set of slices and classes:
  it indexes slices and caches pools per node, so build a new one (passing the same `ledger` and `cel`) when
  slices or classes arrive during a plan.
  `allocate(node, claims) -> NodeAllocation | None`: devices for every claim (in the order given: the pod's claims,
  the extended-resource claim last) on `node` (anything with `.name` and `.labels`, e.g. `cluster.model.Node`).
  `None` = "cannot allocate all claims". Raises `AllocationError` (Filter Error: CEL compile/runtime errors, a
  missing class, `All` on an incomplete/invalid pool, > 32 devices) or `NodeUnschedulable` ("invalid resource pools
  were encountered": this node fails, others may fit).
* `NodeAllocation.allocations[i]` is the `cluster.devices.Allocation` for `claims[i]` (results in pick order,
  config, `node_selector`: `None` = every node); `NodeAllocation.subrequests[i]` maps each firstAvailable request
  to the subrequest index used; `NodeAllocation.score` is Score's raw value (sum of 8 - index).
* `InUseLedger` - devices in use: `add(results)` on Reserve (and for claims already allocated in the snapshot),
  `remove(results)` on Unreserve / deallocation; exact inverses. Admin-access results block nothing.
* `Features` - the DRA feature flags; `Features.from_gates(gates.on, caps)` derives them from
  the gates and the release's named allocator capabilities (`Capabilities.dra_*`, api/releases.py).
* `SelectorCache` - (expression, device) -> result for the plan; share one between Allocators if needed.
* `apply_taint_rules(slices, rules)` (`taints.py`) - the slices as the scheduler sees them with DeviceTaintRules
  (DRADeviceTaintRules) applied; build the Allocator from these.
* `extended_resource_classes(classes)` (`extended.py`) - extended resource name -> backing DeviceClass
  (explicit `extendedResourceName`, newest wins, and the implicit `deviceclass.resource.kubernetes.io/<class>`).
* `Precheck(allocator, nodes)` (`precheck.py`) - `check(claims) -> PrecheckResult(exact, reason, feasible,
  invalid, subrequests, score)`: per node index, numpy over all (node, reachable device) rows, for slices without
  per-device node selection or counters and claims of plain ExactCount requests (firstAvailable included: the
  subrequest index per node and Score's raw value per node come with it). When
  `exact` is true, `feasible[i]` equals `allocate(nodes[i], claims) is not None` (and `invalid[i]` says the search
  would raise `NodeUnschedulable`); run `allocate` only on the chosen node to get the devices. When false, run the
  search per node. It reads the ledger's change log on every check; rebuild it when nodes or the Allocator change.
* `cluster.dra_objects.dra_object(record)` - the API object of a record, for `--emit-snapshot`.
"""

from wasplan.engine.dra.allocator import INVALID_POOLS, Allocator, NodeAllocation
from wasplan.engine.dra.celcache import SelectorCache
from wasplan.engine.dra.errors import AllocationError, NodeUnschedulable
from wasplan.engine.dra.extended import extended_resource_classes
from wasplan.engine.dra.features import Features
from wasplan.engine.dra.ledger import InUseLedger
from wasplan.engine.dra.precheck import Precheck, PrecheckResult
from wasplan.engine.dra.taints import apply_taint_rules

__all__ = ["INVALID_POOLS", "AllocationError", "Allocator", "Features", "InUseLedger", "NodeAllocation",
           "NodeUnschedulable", "Precheck", "PrecheckResult", "SelectorCache", "apply_taint_rules",
           "extended_resource_classes"]
