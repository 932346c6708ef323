package core

// The scheduler's fake API server without server-side apply bookkeeping. client-go's fake.NewClientset backs
// its clientset with a field-managed tracker (k8s.io/client-go testing/fixture.go NewFieldManagedObjectTracker):
// every create and update builds a fresh static REST mapper of the whole scheme (its `mapper` func calls
// testrestmapper.TestOnlyStaticRESTMapper each time) and runs the field manager to write managedFields. The
// scheduler never sends an apply patch (nothing under k8s.io/kubernetes pkg/scheduler uses applyconfigurations
// or ApplyPatchType), and nothing the oracle reports reads managedFields, so that work is pure overhead: it was
// a third of the CPU of a SchedulingBasic run (bench: benchmarks/oracle_compare.py, docs/performance.md).
//
// The oracle uses the plain tracker instead (fake.NewSimpleClientset: the same reactors, watches and deep
// copies on one object map) and keeps the one thing of the field-managed tracker's create and update that
// the rest of the driver sees: the object is stored with its apiVersion and kind (what "Stamp GVK" in
// fixture.go's managedFieldObjectTracker does), looked up in a REST mapper built once.

import (
	"sync"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/meta/testrestmapper"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/fake"
	clientscheme "k8s.io/client-go/kubernetes/scheme"
	clienttesting "k8s.io/client-go/testing"
)

// newSchedulerClientset is the clientset the scheduler runs on: the plain tracker. NewSim puts kindReactor
// in front of the reactor that applies writes to it.
func newSchedulerClientset() *fake.Clientset {
	return fake.NewSimpleClientset()
}

var (
	kindMapperOnce sync.Once
	kindMapper     meta.RESTMapper
	kindsMu        sync.Mutex
	kinds          = map[schema.GroupVersionResource]schema.GroupVersionKind{}
)

// kindFor is the kind the resource's objects have, the zero kind when the scheme has none (a subresource's
// own object, such as a Binding, keeps what it has).
func kindFor(gvr schema.GroupVersionResource) schema.GroupVersionKind {
	kindsMu.Lock()
	defer kindsMu.Unlock()
	if gvk, ok := kinds[gvr]; ok {
		return gvk
	}
	kindMapperOnce.Do(func() { kindMapper = testrestmapper.TestOnlyStaticRESTMapper(clientscheme.Scheme) })
	gvk, err := kindMapper.KindFor(gvr)
	if err != nil {
		gvk = schema.GroupVersionKind{}
	}
	kinds[gvr] = gvk
	return gvk
}

// stampKind sets the object's apiVersion and kind from its resource when the scheme knows it.
func stampKind(gvr schema.GroupVersionResource, obj runtime.Object) {
	if gvk := kindFor(gvr); !gvk.Empty() && obj != nil {
		obj.GetObjectKind().SetGroupVersionKind(gvk)
	}
}

// kindReactor sets apiVersion and kind on the object of a create or update of a resource itself (not of a
// subresource such as pods/binding) and lets the action through.
func kindReactor(action clienttesting.Action) (bool, runtime.Object, error) {
	if action.GetSubresource() != "" && action.GetSubresource() != "status" {
		return false, nil, nil
	}
	var obj runtime.Object
	switch a := action.(type) {
	case clienttesting.CreateAction:
		obj = a.GetObject()
	case clienttesting.UpdateAction:
		obj = a.GetObject()
	default:
		return false, nil, nil
	}
	stampKind(action.GetResource(), obj)
	return false, nil, nil
}
