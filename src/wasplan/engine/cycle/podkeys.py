"""Keys under which pods get the same verdicts, each built from the plugin registry (registry.py) so a new plugin's
fields are in them: what makes two pods interchangeable for the engine is each plugin's to say.

* `registry.shape_key(pod)`: the fields the static plugins read (static.py caches their verdicts under it).
* `signature(pod)`: everything the node choice reads, for gang batching (upstream's
  pkg/scheduler/framework/runtime/signature.go: each plugin contributes its part): the static shape, the requests
  (and their non-zero form that scoring reads), each dynamic plugin's `signature` and the nominated node (the
  fast path that takes it without scoring). Batching runs only where no dynamic plugin runs, so labels and the
  namespace never matter there. A pod that a plugin without a `signature` runs for has none (None): as upstream's
  SignPod, a plugin that cannot sign a pod keeps it out of batching (registry.batchable).
* `shape_key(pod, labels_matter)`: the same verdicts on a state that other pods of the group change (explain's
  trial placements and the exact check's shapes): the static shape, the requests, each dynamic plugin's part,
  and the labels and namespace where some pod counts other pods by label (registry.counts_pods); a pod that a
  plugin without a signature runs for is a shape of its own (registry.shaped_alone).
"""

from __future__ import annotations

from wasplan.cluster.model import Pod
from wasplan.engine.profile import registry


def signature(pod: Pod) -> tuple | None:
    """Everything the node choice reads from a pod (module docstring); None when the pod is not signable."""
    if not registry.batchable(pod):
        return None
    return (registry.shape_key(pod), pod.requests, pod.non_zero_requests, registry.signature(pod),
            pod.nominated_node_name)


def shape_key(pod: Pod, labels_matter: bool = False) -> tuple:
    """Pods with equal keys get equal verdicts on the same state (a gang's identical members). Labels only
    matter where some pod counts other pods by label (registry.counts_pods: spread, inter-pod affinity)."""
    labels = tuple(sorted(pod.labels.items())) if labels_matter or registry.counts_pods(pod) else ()
    key = (registry.shape_key(pod), tuple(sorted(pod.requests.items())), registry.signature(pod), labels,
           pod.namespace)
    return (*key, pod.key) if registry.shaped_alone(pod) else key
