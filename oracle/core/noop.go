package core

// A write that changes nothing: the API server answers it with the stored object and no new
// resourceVersion, so no watch event follows (k8s.io/apiserver pkg/registry/generic/registry: GuaranteedUpdate
// skips unchanged objects). The fake tracker would store it anyway and emit a Modified event, which the
// scheduler treats as a cluster change that may help queued pods: a pod group whose every failed attempt
// re-writes the same status would then be retried forever. This reactor answers such patches and updates
// itself and lets every real update through to the tracker.
//
// A patch that changes the object is stored here with the next resourceVersion, as the API server stores it
// (versions.go): the fake tracker's own patch keeps the stored version, and the scheduler's event handlers
// drop an update whose version did not change (eventhandlers.go updatePodGroup compares ResourceVersion), so
// the scheduler never saw its own PodGroup condition. updatePodGroupCondition (schedule_one_podgroup.go)
// keeps a PodGroupInitiallyScheduled=True from regressing on a later cycle for the members left over, by
// reading the PodGroup of the cache's snapshot; without the new version that read found no condition and the
// later cycle's failure overwrote True with False.

import (
	"encoding/json"
	"reflect"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
)

// comparable is the object as JSON without the fields every write changes.
func comparable(obj runtime.Object) (map[string]interface{}, error) {
	data, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	var m map[string]interface{}
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	if md, ok := m["metadata"].(map[string]interface{}); ok {
		delete(md, "resourceVersion")
		delete(md, "managedFields")
		delete(md, "generation")
	}
	delete(m, "apiVersion")
	delete(m, "kind")
	return m, nil
}

func (s *Sim) noopReactor(action clienttesting.Action) (bool, runtime.Object, error) {
	var ns, name string
	switch a := action.(type) {
	case clienttesting.PatchAction:
		ns, name = a.GetNamespace(), a.GetName()
	case clienttesting.UpdateAction:
		m, err := meta.Accessor(a.GetObject())
		if err != nil {
			return false, nil, nil
		}
		ns, name = m.GetNamespace(), m.GetName()
	default:
		return false, nil, nil
	}
	old, err := s.client.Tracker().Get(action.GetResource(), ns, name)
	if err != nil {
		s.mu.Lock()
		s.writes++
		s.mu.Unlock()
		return false, nil, nil
	}
	var next runtime.Object
	switch a := action.(type) {
	case clienttesting.PatchAction:
		original, err := json.Marshal(old)
		if err != nil {
			return false, nil, nil
		}
		var patched []byte
		switch a.GetPatchType() {
		case types.StrategicMergePatchType:
			typed, err := legacyscheme.Scheme.New(old.GetObjectKind().GroupVersionKind())
			if err != nil {
				return false, nil, nil
			}
			patched, err = strategicpatch.StrategicMergePatch(original, a.GetPatch(), typed)
			if err != nil {
				return false, nil, nil
			}
		case types.MergePatchType:
			patched, err = jsonpatch.MergePatch(original, a.GetPatch())
			if err != nil {
				return false, nil, nil
			}
		default:
			return false, nil, nil
		}
		out, ok := reflect.New(reflect.TypeOf(old).Elem()).Interface().(runtime.Object)
		if !ok || json.Unmarshal(patched, out) != nil {
			return false, nil, nil
		}
		next = out
	case clienttesting.UpdateAction:
		next = a.GetObject()
	}
	before, err1 := comparable(old)
	after, err2 := comparable(next)
	if err1 != nil || err2 != nil || !reflect.DeepEqual(before, after) {
		s.mu.Lock()
		s.writes++
		s.mu.Unlock()
		if a, ok := action.(clienttesting.PatchAction); ok && err1 == nil && err2 == nil {
			return s.writePatched(a, next)
		}
		return false, nil, nil
	}
	return true, old, nil
}

// writePatched stores a patch that changes the object as the API server does, with the next resourceVersion
// (versions.go): the fake's own patch keeps the stored version, and the scheduler's pod informer handler
// drops an update whose old and new versions are equal (k8s.io/kubernetes pkg/scheduler/eventhandlers.go
// updatePodInSchedulingQueue), so a queued pod never learned the status.nominatedNodeName its preemption
// wrote, and its retry skipped the nominated node (schedule_one.go findNodesThatFitPod, evaluateNominatedNode).
// The patched object goes to the tracker as an update of the same (sub)resource, through writeReactor.
func (s *Sim) writePatched(a clienttesting.PatchAction, next runtime.Object) (bool, runtime.Object, error) {
	stampVersion(next)
	return s.writeReactor(clienttesting.NewUpdateSubresourceAction(a.GetResource(), a.GetSubresource(),
		a.GetNamespace(), next))
}
