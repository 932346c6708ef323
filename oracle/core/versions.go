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
// stored version).

import (
	"strconv"
	"sync/atomic"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	clienttesting "k8s.io/client-go/testing"
)

var lastVersion atomic.Int64

// stampVersion gives obj the next resourceVersion.
func stampVersion(obj runtime.Object) {
	if m, err := meta.Accessor(obj); err == nil {
		m.SetResourceVersion(strconv.FormatInt(lastVersion.Add(1), 10))
	}
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
