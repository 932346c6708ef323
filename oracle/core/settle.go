package core

// When the run has settled, in time proportional to what changed (the driver's wait between scheduling
// cycles, drive.go). The run has settled when every write has reached the informers (each object's
// resourceVersion in the tracker equals the informer's), every bound pod is confirmed in the scheduler cache
// (k8s.io/kubernetes pkg/scheduler/backend/cache: an assumed pod is confirmed by the informer's update), the
// scheduling queue holds exactly the unbound pods (pkg/scheduler/backend/queue PendingPods plus the pods in
// flight), nothing is in flight but pods waiting at Permit, and all of that is unchanged over two looks.
//
// Only what was written since the last settled state can differ, so the driver keeps:
//   - the keys written since then (every create, update, patch and delete, through the clientset or by the
//     driver itself, recorded after the write is applied), re-checked on every look until the run settles;
//   - the pods of the tracker by key (UID, bound or not), updated from those keys, so the queue check needs
//     no listing of the cluster;
//   - the bound pods not yet seen confirmed in the cache.
// A look thus costs the keys written since the last settled state: the queue is asked, by key, about the pods
// written since then only (queueHoldsWritten), not listed; listing every object from the tracker (a deep copy
// of each), and then the queue's pending pods, on every look made a run of n pods cost n² copies. After
// fullCheckAfter looks without settling, the whole queue is compared (queueHoldsUnbound).

import (
	"crypto/sha256"
	"fmt"
	"os"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	clienttesting "k8s.io/client-go/testing"
)

// objKey names one object of one resource.
type objKey struct {
	gvr       schema.GroupVersionResource
	namespace string
	name      string
}

func (k objKey) cacheKey() string {
	if k.namespace == "" {
		return k.name
	}
	return k.namespace + "/" + k.name
}

// podEntry is what the driver knows of a pod in the tracker.
type podEntry struct {
	uid   types.UID
	bound bool
	pod   *corev1.Pod // as last read from the tracker (the queue looks pods up by key and scheduling group)
}

// tracked is the state the settle check keeps between looks (guarded by Sim.mu where the reactors touch it).
type tracked struct {
	written       map[objKey]bool     // written since they were last taken into `unsettled` (reactors add)
	mutations     int                 // every write recorded, so two looks with a write between them differ
	seenMutations int                 // mutations when the written keys were last taken
	unsettled     map[objKey]bool     // written since the last settled state: compared on every look
	nomination    map[string]bool     // pod keys written since the nominations were last noted
	podsByKey     map[string]podEntry // the tracker's pods
	unbound       map[types.UID]bool  // UIDs of the tracker's unbound pods
	bound         int                 // the tracker's bound pods
	toConfirm     map[string]*corev1.Pod
	removed       map[string]*corev1.Pod // pods deleted since the last settled state, as they last were
}

func newTracked() tracked {
	return tracked{written: map[objKey]bool{}, unsettled: map[objKey]bool{}, nomination: map[string]bool{},
		podsByKey: map[string]podEntry{}, unbound: map[types.UID]bool{}, toConfirm: map[string]*corev1.Pod{},
		removed: map[string]*corev1.Pod{}}
}

// noteWrite records a write that has been applied to the tracker.
func (s *Sim) noteWrite(k objKey) {
	s.mu.Lock()
	s.track.written[k] = true
	s.track.mutations++
	s.mu.Unlock()
}

// writeReactor applies every create, update, patch and delete to the tracker exactly as the fake clientset's
// own reactor does (clienttesting.ObjectReaction on the same tracker) and records the key once the write is
// applied. It sits right before that reactor, after the binding, delete and no-op reactors.
func (s *Sim) writeReactor(action clienttesting.Action) (bool, runtime.Object, error) {
	var k objKey
	switch a := action.(type) {
	case clienttesting.CreateAction:
		if a.GetSubresource() == "" {
			s.stampCreated(a.GetObject())
		}
		k.name = accessorName(a.GetObject())
	case clienttesting.UpdateAction:
		k.name = accessorName(a.GetObject())
	case clienttesting.PatchAction:
		k.name = a.GetName()
	case clienttesting.DeleteAction:
		k.name = a.GetName()
	default:
		return false, nil, nil
	}
	k.gvr, k.namespace = action.GetResource(), action.GetNamespace()
	handled, obj, err := s.apply(stampGroupPatch(action))
	if _, ok := action.(clienttesting.DeleteAction); ok {
		s.noteMove()
	}
	s.noteWrite(k)
	return handled, obj, err
}

// stampCreated does for an object the scheduler creates (the DynamicResources plugin's claim for
// extended resources backed by a DeviceClass, extendeddynamicresources.go) what the API server's create does
// and the fake does not: the name from generateName, a UID. The claim for extended resources is named as
// wasplan names it, GeneratedClaimName(namespace, "Pod", <pod>, "extended-resources"): upstream's
// "<pod>-extended-resources-" and five characters of the server's alphabet, derived from the pod instead of
// drawn at random. Any other generateName gets five such characters derived from namespace and
// generateName. UIDs are 00000000-0000-4000-9000-<12-digit count>, apart from the input's.
func (s *Sim) stampCreated(obj runtime.Object) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return
	}
	if m.GetName() == "" && m.GetGenerateName() != "" {
		name := ""
		if ref := metav1.GetControllerOf(m); ref != nil && ref.Kind == "Pod" &&
			m.GetAnnotations()[extendedClaimAnnotation] == "true" {
			name = GeneratedClaimName(m.GetNamespace(), "Pod", ref.Name, extendedClaimEntry)
		} else {
			sum := sha256.Sum256([]byte(m.GetNamespace() + "/" + m.GetGenerateName()))
			suffix := make([]byte, 5)
			for i := range suffix {
				suffix[i] = nameAlphabet[int(sum[i])%len(nameAlphabet)]
			}
			name = m.GetGenerateName() + string(suffix)
		}
		m.SetName(name)
	}
	if m.GetUID() == "" {
		s.mu.Lock()
		s.created++
		n := s.created
		s.mu.Unlock()
		m.SetUID(types.UID(fmt.Sprintf("00000000-0000-4000-9000-%012d", n)))
	}
	if created := m.GetCreationTimestamp(); created.IsZero() {
		m.SetCreationTimestamp(metav1.NewTime(BaseTime))
	}
}

const (
	extendedClaimAnnotation = "resource.kubernetes.io/extended-resource-claim"
	extendedClaimEntry      = "extended-resources"
	extendedClaimInMemName  = "<extended-resources>" // dynamicresources specialClaimInMemName
)

func accessorName(obj runtime.Object) string {
	m, err := meta.Accessor(obj)
	if err != nil {
		return ""
	}
	return m.GetName()
}

// refresh takes the keys written since the last call into the unsettled set and updates the pods the
// driver knows from the tracker.
func (s *Sim) refresh() {
	s.mu.Lock()
	written := s.track.written
	s.track.written = map[objKey]bool{}
	s.track.seenMutations = s.track.mutations
	s.mu.Unlock()
	t := &s.track
	for k := range written {
		t.unsettled[k] = true
		if k.gvr != podsGVR {
			continue
		}
		key := k.cacheKey()
		t.nomination[key] = true
		old, known := t.podsByKey[key]
		if known {
			delete(t.unbound, old.uid)
			if old.bound {
				t.bound--
			}
			delete(t.podsByKey, key)
			delete(t.toConfirm, key)
		}
		obj, err := s.client.Tracker().Get(podsGVR, k.namespace, k.name)
		if err != nil {
			if known {
				t.removed[key] = old.pod
			}
			continue
		}
		pod := obj.(*corev1.Pod)
		e := podEntry{uid: pod.UID, bound: pod.Spec.NodeName != "", pod: pod}
		t.podsByKey[key] = e
		if e.bound {
			t.bound++
			t.toConfirm[key] = pod
		} else {
			t.unbound[e.uid] = true
		}
	}
}

// storedVersion is the object's resourceVersion in the tracker, "" when it is not there.
func (s *Sim) storedVersion(k objKey) string {
	obj, err := s.client.Tracker().Get(k.gvr, k.namespace, k.name)
	if err != nil {
		return ""
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return ""
	}
	return m.GetResourceVersion()
}

// seenVersion is the object's resourceVersion as the informer of its resource has it, "" when the informer
// does not have it.
func (s *Sim) seenVersion(k objKey) (string, error) {
	inf, err := s.factory.ForResource(k.gvr)
	if err != nil {
		return "", err
	}
	if !inf.Informer().HasSynced() {
		s.factory.Start(s.ctx.Done())
		return "", fmt.Errorf("informer for %s not synced yet", k.gvr.Resource)
	}
	obj, exists, err := inf.Informer().GetIndexer().GetByKey(k.cacheKey())
	if err != nil || !exists {
		return "", err
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return "", nil
	}
	return m.GetResourceVersion(), nil
}

// fingerprint is the state the driver waits to become stable, and whether it is consistent.
func (s *Sim) fingerprint(full bool) (string, bool) {
	s.refresh()
	t := &s.track
	ok := true
	problem := ""
	for k := range t.unsettled {
		if _, known := s.gvrs[k.gvr]; !known {
			continue
		}
		seen, err := s.seenVersion(k)
		if err != nil {
			ok, problem = false, err.Error()
			continue
		}
		stored := s.storedVersion(k)
		if seen != stored {
			ok = false
		} else if !s.handled(k, stored) {
			ok = false
			if os.Getenv("ORACLE_DEBUG") != "" {
				fmt.Fprintf(os.Stderr, "settle: %s %s seen by the informer, not yet by the scheduler\n", s.gvrs[k.gvr], k.cacheKey())
			}
		}
	}
	waiting := s.waitingAtPermit()
	inFlight := map[types.UID]bool{}
	for _, p := range s.sched.SchedulingQueue.InFlightPods() {
		inFlight[p.UID] = true
		if !s.knownPod(p) {
			ok = false
		}
	}
	if len(inFlight) > waiting {
		ok = false
	}
	// every bound pod must be confirmed in the cache (no longer only assumed); a pod once confirmed stays so
	// until it is written again
	for key, p := range t.toConfirm {
		if assumed, err := s.sched.Cache.IsAssumedPod(p); err == nil && assumed {
			ok = false
		} else {
			delete(t.toConfirm, key)
		}
	}
	if n, err := s.sched.Cache.PodCount(); err == nil && n != t.bound+waiting {
		ok = false
	}
	var queued int
	var agrees bool
	if full {
		queued, agrees = s.queueHoldsUnbound(inFlight)
	} else {
		queued, agrees = s.queueHoldsWritten(inFlight)
	}
	ok = ok && agrees
	return fmt.Sprintf("w=%d pods=%d bound=%d queued=%d inflight=%d full=%v %s", t.seenMutations, len(t.podsByKey),
		t.bound, queued, len(inFlight), full, problem), ok
}

// queueHoldsWritten: the queue has handled the events of every pod written since the last settled state: an
// unbound pod is pending or in flight, a bound or deleted one is neither. Pods not written since then were
// where they belong at the last settled state and no event has moved them in or out of the queue, so this is
// the check of queueHoldsUnbound at the cost of the writes instead of the whole queue (listing the queue on
// every look made a run of n pods cost n² copies). It returns how many of those pods are queued.
func (s *Sim) queueHoldsWritten(inFlight map[types.UID]bool) (int, bool) {
	t := &s.track
	queued, ok := 0, true
	for k := range t.unsettled {
		if k.gvr != podsGVR {
			continue
		}
		key := k.cacheKey()
		e, present := t.podsByKey[key]
		if !present {
			if gone := t.removed[key]; gone != nil && (inFlight[gone.UID] || s.a.Queued(s.sched, gone)) {
				ok = false
			}
			continue
		}
		in := inFlight[e.uid] || s.a.Queued(s.sched, e.pod)
		if in {
			queued++
		}
		if in == e.bound {
			ok = false
		}
	}
	return queued, ok
}

// queueHoldsUnbound: the queue holds exactly the tracker's unbound pods (pending or in flight), checked over
// the whole queue. settle falls back to it when a run does not settle on the cheaper check.
func (s *Sim) queueHoldsUnbound(inFlight map[types.UID]bool) (int, bool) {
	t := &s.track
	ok := true
	pending, _ := s.sched.SchedulingQueue.PendingPods()
	queuedUnbound := 0
	for _, p := range pending {
		if !t.unbound[p.UID] {
			ok = false
		} else if !inFlight[p.UID] {
			queuedUnbound++
		}
	}
	for uid := range inFlight {
		if t.unbound[uid] {
			queuedUnbound++
		}
	}
	return len(pending) + len(inFlight), ok && queuedUnbound == len(t.unbound)
}

// handled: the scheduler's event handlers have taken the object at version `stored` ("" deleted) into its own
// state, where it keeps one: nodes in its cache, and (adapter GroupVersion) PodGroups and CompositePodGroups.
// The informer's store is updated before its handlers run, each handler registration on its own goroutine,
// so an object seen by the informer may not yet be known to the scheduler: a gang's pods that arrive while
// their PodGroup's add event is still undelivered wait in the queue's incompletePodGroupPods, which
// PendingPods counts as queued, and a run that ended there left them never attempted (Gated, no message),
// about one run in six of scenarios/racks-and-trees on a loaded machine. Pods are the queue check's.
func (s *Sim) handled(k objKey, stored string) bool {
	kind := s.gvrs[k.gvr]
	if kind == "Node" {
		held := ""
		if ni, err := s.sched.Cache.GetNode(k.name); err == nil && ni != nil && ni.Node() != nil {
			held = ni.Node().ResourceVersion
		}
		return held == stored
	}
	held, tracked := s.a.GroupVersion(s.sched, kind, k.namespace, k.name)
	return !tracked || held == stored
}

func (s *Sim) knownPod(p *corev1.Pod) bool {
	e, ok := s.track.podsByKey[p.Namespace+"/"+p.Name]
	return ok && e.uid == p.UID
}

// settled forgets the keys checked so far: they agree with the informers.
func (s *Sim) settled() {
	s.track.unsettled = map[objKey]bool{}
	s.track.removed = map[string]*corev1.Pod{}
	s.forgetActions()
}

// forgetActions drops the fake clientset's record of every action so far (testing.Fake.Invokes keeps a deep
// copy of each, which nothing reads but the ORACLE_DEBUG summary of `oracle plan`): a run of n pods otherwise
// holds all its writes in memory, and the garbage collector scans them on every cycle.
func (s *Sim) forgetActions() {
	if os.Getenv("ORACLE_DEBUG") == "" {
		s.client.ClearActions()
	}
}

// unboundPods is the number of unbound pods in the tracker.
func (s *Sim) unboundPods() int {
	s.refresh()
	return len(s.track.unbound)
}

// podCount is the number of pods in the tracker.
func (s *Sim) podCount() int {
	s.refresh()
	return len(s.track.podsByKey)
}

// noteNominations remembers, for pods still unbound, the node the scheduler nominated them to (only pods
// written since the last call can have a new one).
func (s *Sim) noteNominations() {
	s.refresh()
	keys := s.track.nomination
	s.track.nomination = map[string]bool{}
	found := map[string]string{}
	for key := range keys {
		if e, ok := s.track.podsByKey[key]; !ok || e.bound {
			continue
		}
		ns, name := splitKey(key)
		obj, err := s.client.Tracker().Get(podsGVR, ns, name)
		if err != nil {
			continue
		}
		if p := obj.(*corev1.Pod); p.Spec.NodeName == "" && p.Status.NominatedNodeName != "" {
			found[key] = p.Status.NominatedNodeName
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for key, node := range found {
		s.nominated[key] = node
	}
}

func splitKey(key string) (string, string) {
	for i := 0; i < len(key); i++ {
		if key[i] == '/' {
			return key[:i], key[i+1:]
		}
	}
	return "", key
}

// fullCheckAfter is how many looks settle takes with the check of the written pods only before it checks the
// whole queue (queueHoldsUnbound): a guard, should the queue hold a written pod where its GetPod does not look.
const fullCheckAfter = 24

// settle waits until the fingerprint is consistent and unchanged over two looks; each look yields to the
// informer and binding goroutines first. No fixed sleep decides anything: the wait ends on the condition.
func (s *Sim) settle() error {
	deadline := time.Now().Add(settleTimeout)
	prev := ""
	stable := 0
	for look, wait := 0, 100*time.Microsecond; ; look++ {
		fp, ok := s.fingerprint(look >= fullCheckAfter)
		if ok && fp == prev {
			stable++
			if stable >= 2 {
				s.settled()
				return nil
			}
		} else {
			stable = 0
		}
		prev = fp
		if time.Now().After(deadline) {
			return fmt.Errorf("watchdog: the scheduler did not settle within %v (%s)", settleTimeout, fp)
		}
		time.Sleep(wait)
		if wait < 5*time.Millisecond {
			wait *= 2
		}
	}
}
