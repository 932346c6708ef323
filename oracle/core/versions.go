package core

// Resource versions, as the API server gives them: every write that reaches storage gets the next number of
// one counter (etcd's revision). The fake tracker never sets metadata.resourceVersion, and the scheduler's
// assume caches (k8s.io/kubernetes pkg/scheduler/util/assumecache: `add` and `Assume` parse it as an integer
// and drop an object whose version is not newer) then never learn what the informers report: DynamicResources
// forgot every allocation once PreBind had written it (dynamicresources.go bindClaim, AssumeClaimAfterAPICall
// failing with `error parsing ResourceVersion ""`), so one device went to many claims.
//
// Stamped here: creates and updates through the client (a reactor in front of the tracker's), the objects the
// driver creates or updates on the tracker itself (inputs, bindings, the claim controller's changes), and a
// patch through the client that changes the object (noop.go writePatched: the fake's own patch would keep the
// stored version); stampGroupPatch does the same for a PodGroup status patch that reaches the tracker as a
// patch (noopReactor could not apply it itself).
//
// A PodGroup status patch that kept its version never reached the scheduler: its PodGroup handler drops an
// update whose resourceVersion equals the old one (pkg/scheduler/eventhandlers.go updatePodGroup), so the
// cache kept the group without the condition the scheduler had written, and the next cycle of the group,
// for a member left over, wrote False over the True it could not see (schedule_one_podgroup.go
// updatePodGroupCondition keeps a True condition only when the group it holds shows one).
//
// An update that names a resourceVersion other than the stored one is refused with 409 Conflict, as the API
// server's optimistic concurrency does (conflictReactor). Without it the last writer won: members of a PodGroup
// sharing one ResourceClaim bind concurrently, each PreBind appends its pod to the claim's reservedFor from the
// copy it holds (dynamicresources.go bindClaim, which retries on a conflict with a fresh Get), and all but some
// reservations were lost (issue 30: upstream's integration case gang-5-pods-mincount-2 ended with four or one
// pods in reservedFor instead of five).

import (
	"encoding/json"
	"fmt"
	"strconv"
	"sync/atomic"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	clienttesting "k8s.io/client-go/testing"
)

var lastVersion atomic.Int64

// stampVersion gives obj the next resourceVersion.
func stampVersion(obj runtime.Object) {
	if m, err := meta.Accessor(obj); err == nil {
		m.SetResourceVersion(strconv.FormatInt(lastVersion.Add(1), 10))
	}
}

// conflictReactor answers an update whose object carries a resourceVersion that is not the stored object's with
// 409 Conflict (the fake client's lock is held through the whole reaction chain, so the check and the write
// that follows are one step).
func (s *Sim) conflictReactor(action clienttesting.Action) (bool, runtime.Object, error) {
	a, ok := action.(clienttesting.UpdateAction)
	if !ok {
		return false, nil, nil
	}
	m, err := meta.Accessor(a.GetObject())
	if err != nil || m.GetResourceVersion() == "" {
		return false, nil, nil
	}
	stored, err := s.client.Tracker().Get(action.GetResource(), action.GetNamespace(), m.GetName())
	if err != nil {
		return false, nil, nil
	}
	sm, err := meta.Accessor(stored)
	if err != nil || sm.GetResourceVersion() == m.GetResourceVersion() {
		return false, nil, nil
	}
	return true, nil, apierrors.NewConflict(action.GetResource().GroupResource(), m.GetName(),
		fmt.Errorf("the object has been modified; please apply your changes to the latest version and try again"))
}

// versionReactor stamps the object of a create or update on its way to the tracker and lets it through.
func versionReactor(action clienttesting.Action) (bool, runtime.Object, error) {
	switch a := action.(type) {
	case clienttesting.CreateAction:
		stampVersion(a.GetObject())
	case clienttesting.UpdateAction:
		stampVersion(a.GetObject())
	}
	return false, nil, nil
}

// stampGroupPatch returns a PodGroup patch (merge or strategic merge) that also sets the next resourceVersion,
// as the API server gives every write that changes the object (noopReactor has answered those that change
// nothing); any other action is returned as it is.
func stampGroupPatch(action clienttesting.Action) clienttesting.Action {
	a, ok := action.(clienttesting.PatchActionImpl)
	if !ok || a.GetResource().Resource != "podgroups" {
		return action
	}
	if a.GetPatchType() != types.MergePatchType && a.GetPatchType() != types.StrategicMergePatchType {
		return action
	}
	var patch map[string]interface{}
	if err := json.Unmarshal(a.GetPatch(), &patch); err != nil || patch == nil {
		return action
	}
	md, _ := patch["metadata"].(map[string]interface{})
	if md == nil {
		md = map[string]interface{}{}
	}
	md["resourceVersion"] = strconv.FormatInt(lastVersion.Add(1), 10)
	patch["metadata"] = md
	data, err := json.Marshal(patch)
	if err != nil {
		return action
	}
	a.Patch = data
	return a
}
