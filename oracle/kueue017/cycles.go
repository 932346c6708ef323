package main

// Kueue's admission run in-process, with no API server: a controller-runtime fake client with Kueue's
// indexes (indexer.Setup), the scheduling cache (schdcache.New), the queue manager
// (qcache.NewManagerForUnitTestsWithRequeuer, whose requeuer moves inadmissible workloads back
// synchronously) and the scheduler (scheduler.New), all sharing one preemption-expectations store, wired as
// KDIR/pkg/scheduler/scheduler_test.go (TestSchedule) wires them. LocalQueues go through the LocalQueue
// reconciler's Create handler (pkg/controller/core/localqueue_controller.go), which honours stopPolicy.
//
// The cycle is Kueue's own (*Scheduler).schedule (linkname.go). Between cycles this file stands in for the
// controllers that react to the scheduler's writes in a real cluster, each step following the upstream code
// it replaces:
//   - eviction: the job reconciler clears the admission of an evicted workload (pkg/controller/jobframework/
//     reconciler.go, "handle eviction": Requeued condition, QuotaReserved=False "Pending" with the eviction's
//     message) and the workload reconciler's Update handler frees its quota and requeues it
//     (pkg/controller/core/workload_controller.go, QuotaReserved -> Pending). The fake client turns Kueue's
//     server-side apply into a merge patch that cannot remove status.admission, so the status is replaced
//     whole;
//   - admission checks: an AdmissionCheck controller would mark the checks of a workload holding quota; by
//     default they are assumed Ready (the workload becomes Admitted), with --admission-checks=pending they
//     stay Pending (the workload stays QuotaReserved);
//   - inadmissible workloads: the workload reconciler's checks for a missing or stopped LocalQueue and a
//     missing or inactive ClusterQueue (workload_controller.go, Reconcile), run once before the first cycle,
//     after it has evicted the admitted workloads of queues with stopPolicy HoldAndDrain.
// The run ends when no active ClusterQueue has a workload in its heap, or when the workloads' conditions and
// admissions stopped changing for as many cycles as there are queued workloads (a StrictFIFO head that
// cannot fit stays at the head forever).

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	testingclock "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/controller-runtime/pkg/event"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	qcache "sigs.k8s.io/kueue/pkg/cache/queue"
	schdcache "sigs.k8s.io/kueue/pkg/cache/scheduler"
	"sigs.k8s.io/kueue/pkg/controller/core"
	"sigs.k8s.io/kueue/pkg/controller/core/indexer"
	"sigs.k8s.io/kueue/pkg/controller/jobs/pod"
	"sigs.k8s.io/kueue/pkg/scheduler"
	preemptexpectations "sigs.k8s.io/kueue/pkg/scheduler/preemption/expectations"
	"sigs.k8s.io/kueue/pkg/scheduler/preemption/fairsharing"
	"sigs.k8s.io/kueue/pkg/util/admissioncheck"
	qutil "sigs.k8s.io/kueue/pkg/util/queue"
	"sigs.k8s.io/kueue/pkg/util/routine"
	utiltesting "sigs.k8s.io/kueue/pkg/util/testing"
	"sigs.k8s.io/kueue/pkg/workload"
)

type options struct {
	checksPending bool // leave admission checks Pending instead of assuming them Ready
	maxCycles     int
}

type harness struct {
	ctx         context.Context
	log         logr.Logger
	opts        options
	cl          client.Client
	cache       *schdcache.Cache
	qm          *qcache.Manager
	requeue     func(context.Context) int
	sched       *scheduler.Scheduler
	clock       *testingclock.FakeClock
	pending     sync.WaitGroup
	cqs         map[string]*kueue.ClusterQueue
	owners      map[types.NamespacedName]*ownerRef
	uids        map[types.UID]string        // workload UID -> namespace/name, for preemptedBy
	reserved    map[workload.Reference]bool // workloads holding quota, already taken out of the queue manager
	cycles      int
	busy        time.Duration // time spent inside Kueue's cycles
	fairSharing bool          // the Configuration enables fair sharing
	recorder    *utiltesting.EventRecorder
	events      []eventOut // Kueue's events, cycle by cycle
	seen        int        // events of recorder already in events
}

// newHarness builds the client and Kueue's components from the decoded world.
func newHarness(ctx context.Context, scheme *runtime.Scheme, w *world, opts options) (*harness, error) {
	h := &harness{ctx: ctx, log: logr.Discard(), opts: opts, cqs: map[string]*kueue.ClusterQueue{},
		owners: map[types.NamespacedName]*ownerRef{}, uids: map[types.UID]string{},
		reserved: map[workload.Reference]bool{}}

	seq := 0
	names := namer{}
	namespaces := map[string]*corev1.Namespace{}
	var objs []client.Object
	for _, o := range w.core {
		nameCore(o, names)
		if ns, ok := o.(*corev1.Namespace); ok {
			namespaces[ns.Name] = ns
			continue
		}
		if o.GetObjectKind().GroupVersionKind().Kind == "Node" {
			markReady(o.(*corev1.Node))
		}
		objs = append(objs, o)
	}
	for _, o := range w.flavors {
		objs = append(objs, o)
	}
	for _, o := range w.topologies {
		objs = append(objs, o)
	}
	for _, o := range w.checks {
		if !opts.checksPending {
			markActive(o)
		}
		objs = append(objs, o)
	}
	for _, o := range w.cohorts {
		objs = append(objs, o)
	}
	for _, o := range w.lqs {
		if o.Namespace == "" {
			o.Namespace = "default"
		}
		objs = append(objs, o)
	}

	// Workloads from Jobs and JobSets need the priority classes, so they are built on a client holding those.
	pb := fake.NewClientBuilder().WithScheme(scheme).WithObjects(objs...).
		WithIndex(&corev1.Pod{}, pod.PodGroupNameCacheKey, pod.IndexPodGroupName)
	if err := indexer.Setup(ctx, utiltesting.AsIndexer(pb)); err != nil {
		return nil, err
	}
	pre, err := build(pb)
	if err != nil {
		return nil, err
	}
	var workloads []*kueue.Workload
	for _, o := range w.workloads {
		stamp(o, "Workload", seq, names)
		seq++
		workloads = append(workloads, o)
	}
	pods := &podBuilder{ctx: ctx, cl: pre, core: w.core, groups: map[types.NamespacedName][]*corev1.Pod{},
		created: map[types.NamespacedName]time.Time{}}
	keep := func(got []built) {
		for _, b := range got {
			h.owners[types.NamespacedName{Namespace: b.wl.Namespace, Name: b.wl.Name}] = b.owner
			workloads = append(workloads, b.wl)
		}
	}
	owned := ownedByWorkloads(workloads)
	for _, o := range w.owners {
		stamp(o, o.GetObjectKind().GroupVersionKind().Kind, seq, names)
		if owned[types.NamespacedName{Namespace: o.GetNamespace(), Name: owner2kind(o) + "/" + o.GetName()}] {
			continue // its Workload is among the inputs: the job reconciler finds it and builds none
		}
		got, seconds, ok, err := pods.buildPodBased(o, w.raw[o])
		if err != nil {
			return nil, fmt.Errorf("%s %s/%s: building its Workload: %w", owner2kind(o), o.GetNamespace(), o.GetName(), err)
		}
		if ok {
			seq += seconds
			keep(got)
			continue
		}
		seq++
		wl, owner, err := constructWorkload(ctx, pre, o)
		if err != nil {
			return nil, fmt.Errorf("%s %s/%s: building its Workload: %w", owner2kind(o), o.GetNamespace(), o.GetName(), err)
		}
		keep([]built{{wl, owner}})
	}
	got, err := pods.groupsDone()
	if err != nil {
		return nil, err
	}
	keep(got)
	for _, wl := range workloads {
		h.uids[wl.UID] = wl.Namespace + "/" + wl.Name
		objs = append(objs, wl)
		ensureNamespace(namespaces, wl.Namespace)
	}
	for _, lq := range w.lqs {
		ensureNamespace(namespaces, lq.Namespace)
	}
	for _, ns := range namespaces {
		objs = append(objs, ns)
	}

	b := fake.NewClientBuilder().WithScheme(scheme).
		WithObjects(objs...).
		WithStatusSubresource(&kueue.Workload{}, &kueue.ClusterQueue{}, &kueue.LocalQueue{}, &kueue.Cohort{}, &kueue.AdmissionCheck{}).
		WithInterceptorFuncs(interceptor.Funcs{SubResourcePatch: utiltesting.TreatSSAAsStrategicMerge})
	if err := indexer.Setup(ctx, utiltesting.AsIndexer(b)); err != nil {
		return nil, err
	}
	cl, err := build(b)
	if err != nil {
		return nil, err
	}
	h.cl = cl

	last := baseTime.Add(time.Duration(seq) * time.Second)
	h.clock = testingclock.NewFakeClock(last)
	store := preemptexpectations.New()
	var cacheOptions []schdcache.Option
	schedOptions := []scheduler.Option{scheduler.WithClock(nil, h.clock), scheduler.WithPreemptionExpectations(store)}
	if cfg := w.configuration; cfg != nil && cfg.FairSharing != nil {
		// as cmd/kueue/main.go wires a Configuration's fairSharing into the cache and the scheduler
		cacheOptions = append(cacheOptions, schdcache.WithFairSharing(fairsharing.Enabled(cfg.FairSharing)))
		schedOptions = append(schedOptions, scheduler.WithFairSharing(cfg.FairSharing))
		h.fairSharing = true
	}
	h.cache = schdcache.New(h.cl, cacheOptions...)
	qm, requeuer := qcache.NewManagerForUnitTestsWithRequeuer(h.cl, h.cache,
		qcache.WithClock(h.clock), qcache.WithPreemptionExpectations(store))
	h.qm, h.requeue = qm, requeuer.ProcessRequeues
	h.recorder = &utiltesting.EventRecorder{}
	h.sched = scheduler.New(h.qm, h.cache, h.cl, h.recorder, schedOptions...)
	setAdmissionRoutineWrapper(h.sched, routine.NewWrapper(func() { h.pending.Add(1) }, func() { h.pending.Done() }))

	if err := h.load(w); err != nil {
		return nil, err
	}
	return h, nil
}

// build is the fake client's Build, which panics on objects it cannot hold (two of one name): as an error.
func build(b *fake.ClientBuilder) (cl client.Client, err error) {
	defer func() {
		if r := recover(); r != nil {
			msg := fmt.Sprint(r)
			if i := strings.LastIndex(msg, "to fake client: "); i >= 0 {
				msg = msg[i+len("to fake client: "):]
			}
			err = fmt.Errorf("the input cannot be loaded: %s", msg)
		}
	}()
	return b.Build(), nil
}

// clusterScoped are the core kinds read here that have no namespace.
var clusterScoped = map[string]bool{"Namespace": true, "Node": true, "PriorityClass": true, "RuntimeClass": true, "WorkloadPriorityClass": true}

// nameCore gives a core object named only by generateName its name, and a namespaced one without a
// namespace "default", as the API server would.
func nameCore(o client.Object, names namer) {
	kind := o.GetObjectKind().GroupVersionKind().Kind
	if !clusterScoped[kind] && o.GetNamespace() == "" {
		o.SetNamespace("default")
	}
	if o.GetName() == "" && o.GetGenerateName() != "" {
		o.SetName(names.name(kind, o.GetNamespace(), o.GetGenerateName()))
	}
}

func owner2kind(o client.Object) string { return o.GetObjectKind().GroupVersionKind().Kind }

// ownedByWorkloads: the objects (namespace, "Kind/name") the given Workloads name as owners. A job whose
// Workload the snapshot holds gets no second one: Kueue's job reconciler looks its Workloads up by owner
// (KDIR/pkg/controller/jobframework/reconciler.go, ensureOneWorkload) and keeps the one it finds.
func ownedByWorkloads(wls []*kueue.Workload) map[types.NamespacedName]bool {
	out := map[types.NamespacedName]bool{}
	for _, wl := range wls {
		for _, ref := range wl.OwnerReferences {
			out[types.NamespacedName{Namespace: wl.Namespace, Name: ref.Kind + "/" + ref.Name}] = true
		}
	}
	return out
}

// ensureNamespace adds a Namespace Kueue's namespaceSelector can read for each namespace used, with the
// kubernetes.io/metadata.name label the API server sets on every namespace.
func ensureNamespace(nss map[string]*corev1.Namespace, name string) {
	ns, ok := nss[name]
	if !ok {
		ns = &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}
		nss[name] = ns
	}
	if ns.Labels == nil {
		ns.Labels = map[string]string{}
	}
	ns.Labels[corev1.LabelMetadataName] = ns.Name
}

// markReady gives a node without a Ready condition one (wasplan plans such nodes as ready; Kueue's TAS
// cache skips nodes that are not, pkg/cache/scheduler/tas_nodes_cache.go).
func markReady(n *corev1.Node) {
	for _, c := range n.Status.Conditions {
		if c.Type == corev1.NodeReady {
			return
		}
	}
	n.Status.Conditions = append(n.Status.Conditions, corev1.NodeCondition{Type: corev1.NodeReady, Status: corev1.ConditionTrue})
}

// markActive: an AdmissionCheck's controller sets Active; without one, a ClusterQueue naming the check is
// inactive. Under the "ready" policy the checks' controllers are assumed present.
func markActive(ac *kueue.AdmissionCheck) {
	if apimeta.FindStatusCondition(ac.Status.Conditions, kueue.AdmissionCheckActive) == nil {
		apimeta.SetStatusCondition(&ac.Status.Conditions, metav1.Condition{Type: kueue.AdmissionCheckActive,
			Status: metav1.ConditionTrue, Reason: "Active", Message: "assumed active by the oracle"})
	}
}

// load feeds the cache and the queues in the order Kueue's own test does.
func (h *harness) load(w *world) error {
	ctx, log := h.ctx, h.log
	for _, rf := range w.flavors {
		h.cache.AddOrUpdateResourceFlavor(log, rf)
	}
	for _, t := range w.topologies {
		h.cache.AddOrUpdateTopology(log, t)
	}
	for _, ac := range w.checks {
		h.cache.AddOrUpdateAdmissionCheck(log, ac)
	}
	for _, o := range w.core {
		switch o := o.(type) {
		case *corev1.Node:
			h.cache.TASCache().SyncNode(o)
		case *corev1.Pod:
			if o.Spec.NodeName != "" {
				h.cache.TASCache().Update(o, log)
			}
		}
	}
	lqr := core.NewLocalQueueReconciler(h.cl, h.qm, h.cache)
	for _, lq := range w.lqs {
		lqr.Create(event.TypedCreateEvent[*kueue.LocalQueue]{Object: lq})
	}
	for _, c := range w.cohorts {
		if err := h.cache.AddOrUpdateCohort(c); err != nil {
			return fmt.Errorf("Cohort %s: %w", c.Name, err)
		}
		h.qm.AddOrUpdateCohort(ctx, c)
	}
	for _, cq := range w.cqs {
		h.cqs[cq.Name] = cq
		if err := h.cache.AddClusterQueue(ctx, cq); err != nil {
			return fmt.Errorf("ClusterQueue %s: %w", cq.Name, err)
		}
		if err := h.qm.AddClusterQueue(ctx, cq); err != nil {
			return fmt.Errorf("ClusterQueue %s: %w", cq.Name, err)
		}
		if err := h.cl.Create(ctx, cq.DeepCopy()); err != nil {
			return fmt.Errorf("ClusterQueue %s: %w", cq.Name, err)
		}
	}
	return h.markInadmissible()
}

// drainStopped is the workload reconciler's eviction of an admitted workload whose LocalQueue or ClusterQueue
// has stopPolicy HoldAndDrain (workload_controller.go, reconcileOnLocalQueueActiveState and
// reconcileOnClusterQueueActiveState: the LocalQueue first, the ClusterQueue its LocalQueue names after),
// through Kueue's own workload.Evict; the eviction then settles as a preemption's does, but the workload is
// not requeued (the Requeued condition is False with the queue's reason).
func (h *harness) drainStopped() error {
	var list kueue.WorkloadList
	if err := h.cl.List(h.ctx, &list); err != nil {
		return err
	}
	drained := false
	for i := range list.Items {
		wl := &list.Items[i]
		if !workload.IsAdmitted(wl) || workload.IsEvicted(wl) {
			continue
		}
		var lq kueue.LocalQueue
		var cq kueue.ClusterQueue
		reason, msg := "", ""
		if err := h.cl.Get(h.ctx, types.NamespacedName{Namespace: wl.Namespace, Name: string(wl.Spec.QueueName)}, &lq); err != nil {
			continue
		}
		switch {
		case ptr.Deref(lq.Spec.StopPolicy, kueue.None) == kueue.HoldAndDrain:
			reason, msg = kueue.WorkloadEvictedByLocalQueueStopped, "The LocalQueue is stopped"
		case h.cl.Get(h.ctx, types.NamespacedName{Name: string(lq.Spec.ClusterQueue)}, &cq) == nil &&
			ptr.Deref(cq.Spec.StopPolicy, kueue.None) == kueue.HoldAndDrain:
			reason, msg = kueue.WorkloadEvictedByClusterQueueStopped, "The ClusterQueue is stopped"
		default:
			continue
		}
		if err := workload.Evict(h.ctx, h.cl, h.recorder, wl, reason, msg, "", h.clock, false, nil, nil); err != nil {
			return err
		}
		drained = true
	}
	if !drained {
		return nil
	}
	return h.settleEvictions()
}

// markInadmissible is the workload reconciler's verdict on a workload whose queue cannot take it, after the
// workloads of draining queues are evicted.
func (h *harness) markInadmissible() error {
	if err := h.drainStopped(); err != nil {
		return err
	}
	var list kueue.WorkloadList
	if err := h.cl.List(h.ctx, &list); err != nil {
		return err
	}
	for i := range list.Items {
		wl := &list.Items[i]
		if workload.HasQuotaReservation(wl) {
			continue
		}
		var lq kueue.LocalQueue
		err := h.cl.Get(h.ctx, types.NamespacedName{Namespace: wl.Namespace, Name: string(wl.Spec.QueueName)}, &lq)
		cqName := kueue.ClusterQueueReference(lq.Spec.ClusterQueue)
		_, cqOk := h.cqs[string(cqName)]
		msg := ""
		switch {
		case err != nil:
			msg = fmt.Sprintf("LocalQueue %s doesn't exist", wl.Spec.QueueName)
		case ptr.Deref(lq.Spec.StopPolicy, kueue.None) != kueue.None:
			msg = fmt.Sprintf("LocalQueue %s is inactive", wl.Spec.QueueName)
		case !cqOk:
			msg = fmt.Sprintf("ClusterQueue %s doesn't exist", cqName)
		case !h.cache.ClusterQueueActive(cqName):
			msg = fmt.Sprintf("ClusterQueue %s is inactive", cqName)
		default:
			continue
		}
		workload.UnsetQuotaReservationWithCondition(wl, kueue.WorkloadInadmissible, msg, h.clock.Now())
		if err := h.cl.Status().Update(h.ctx, wl); err != nil {
			return err
		}
	}
	return nil
}

// queued counts the workloads waiting in the heaps of active ClusterQueues.
func (h *harness) queued() int {
	n := 0
	for cq, wls := range h.qm.Dump() {
		if h.cache.ClusterQueueActive(cq) {
			n += len(wls)
		}
	}
	return n
}

// run drives cycles until nothing changes; it reports whether the run settled within maxCycles.
func (h *harness) run() (bool, error) {
	last, stable := "", 0
	for h.cycles < h.opts.maxCycles {
		queued := h.queued()
		if queued == 0 {
			return true, nil
		}
		if err := h.cycle(); err != nil {
			return false, err
		}
		fp, err := h.fingerprint()
		if err != nil {
			return false, err
		}
		if fp == last {
			stable++
		} else {
			stable = 0
		}
		last = fp
		if stable > queued {
			return true, nil
		}
	}
	return false, nil
}

func (h *harness) cycle() error {
	h.cycles++
	ctx, cancel := context.WithTimeout(h.ctx, 5*time.Second)
	defer cancel()
	go h.qm.CleanUpOnContext(ctx)
	start := time.Now()
	scheduleOnce(h.sched, ctx)
	h.pending.Wait()
	h.busy += time.Since(start)
	h.collectEvents()
	if err := h.forgetReserved(); err != nil {
		return err
	}
	if err := h.settleEvictions(); err != nil {
		return err
	}
	if err := h.settleChecks(); err != nil {
		return err
	}
	h.requeue(h.ctx)
	h.clock.Step(time.Second)
	return nil
}

// forgetReserved: the workload reconciler's Update handler for a workload that went from pending to holding
// quota deletes it from the queue manager (workload_controller.go Update, Pending -> QuotaReserved or
// Admitted: queues.DeleteWorkload), which also ends its ClusterQueue's sticky head if it was that head
// (pkg/cache/queue/cluster_queue.go delete). Without it a workload that preempted, was admitted and was then
// preempted itself would still jump its queue when requeued.
func (h *harness) forgetReserved() error {
	var list kueue.WorkloadList
	if err := h.cl.List(h.ctx, &list); err != nil {
		return err
	}
	for i := range list.Items {
		wl := &list.Items[i]
		key := workload.Key(wl)
		if !workload.HasQuotaReservation(wl) {
			delete(h.reserved, key)
			continue
		}
		if !h.reserved[key] {
			h.reserved[key] = true
			h.qm.DeleteWorkload(h.log, key)
		}
	}
	return nil
}

// settleEvictions: the job and workload reconcilers' work after the scheduler evicts a workload.
func (h *harness) settleEvictions() error {
	var list kueue.WorkloadList
	if err := h.cl.List(h.ctx, &list); err != nil {
		return err
	}
	for i := range list.Items {
		wl := &list.Items[i]
		ev := apimeta.FindStatusCondition(wl.Status.Conditions, kueue.WorkloadEvicted)
		if ev == nil || ev.Status != metav1.ConditionTrue || !workload.HasQuotaReservation(wl) {
			continue
		}
		requeued := ev.Reason == kueue.WorkloadEvictedByPreemption || ev.Reason == kueue.WorkloadEvictedDueToNodeFailures
		workload.SetRequeuedCondition(wl, ev.Reason, ev.Message, requeued)
		// SetRequeuedCondition leaves the transition time to apimeta.SetStatusCondition, which takes the wall
		// clock; the reconciler runs at the cluster's now, which is the fake clock here (the wait time Kueue
		// reports when it admits the requeued workload is measured from this condition).
		apimeta.FindStatusCondition(wl.Status.Conditions, kueue.WorkloadRequeued).LastTransitionTime = metav1.NewTime(h.clock.Now())
		workload.UnsetQuotaReservationWithCondition(wl, "Pending", ev.Message, h.clock.Now())
		if err := h.cl.Status().Update(h.ctx, wl); err != nil {
			return err
		}
		key := workload.Key(wl)
		cp := wl.DeepCopy()
		workload.AdjustResources(h.ctx, h.cl, cp)
		// The workload controller's update handler (workload_controller.go, the QuotaReserved -> Pending case):
		// the cache forgets the workload and the queue manager takes it back under one lock; an error from the
		// queue manager is logged and ignored, as it is there: a workload whose LocalQueue is stopped (Hold or
		// HoldAndDrain, so not in the queue manager) or missing is not queued, and waits as Inadmissible.
		h.qm.QueueAssociatedInadmissibleWorkloadsAfter(h.ctx, key, func() {
			_ = h.cache.DeleteWorkload(h.log, key)
			if err := h.qm.AddOrUpdateWorkloadWithoutLock(h.log, cp); err != nil {
				h.log.V(2).Info("ignored an error for now", "error", err)
			}
		})
	}
	return nil
}

// settleChecks: the AdmissionCheck controllers' verdict on a workload holding quota, under the policy.
func (h *harness) settleChecks() error {
	var list kueue.WorkloadList
	if err := h.cl.List(h.ctx, &list); err != nil {
		return err
	}
	state := kueue.CheckStateReady
	if h.opts.checksPending {
		state = kueue.CheckStatePending
	}
	for i := range list.Items {
		wl := &list.Items[i]
		if !workload.HasQuotaReservation(wl) || workload.IsAdmitted(wl) {
			continue
		}
		cq := h.cqs[string(wl.Status.Admission.ClusterQueue)]
		if cq == nil {
			continue
		}
		checks := workload.AdmissionChecksForWorkload(h.log, wl, admissioncheck.NewAdmissionChecks(cq), qutil.AllFlavors(cq.Spec.ResourceGroups))
		names := checks.UnsortedList()
		sort.Slice(names, func(a, b int) bool { return names[a] < names[b] })
		changed := false
		for _, name := range names {
			if cur := admissioncheck.FindAdmissionCheck(wl.Status.AdmissionChecks, name); cur != nil && cur.State == state {
				continue
			}
			workload.SetAdmissionCheckState(&wl.Status.AdmissionChecks, kueue.AdmissionCheckState{
				Name: name, State: state, Message: "set by the oracle's admission-check policy"}, h.clock)
			changed = true
		}
		if workload.SyncAdmittedCondition(wl, h.clock.Now()) {
			changed = true
		}
		if !changed {
			continue
		}
		if err := h.cl.Status().Update(h.ctx, wl); err != nil {
			return err
		}
		h.cache.AddOrUpdateWorkload(h.log, wl.DeepCopy())
	}
	return nil
}

// fingerprint is every workload's conditions and admission, without times.
func (h *harness) fingerprint() (string, error) {
	var list kueue.WorkloadList
	if err := h.cl.List(h.ctx, &list); err != nil {
		return "", err
	}
	var b strings.Builder
	sort.Slice(list.Items, func(i, j int) bool { return workload.Key(&list.Items[i]) < workload.Key(&list.Items[j]) })
	for _, wl := range list.Items {
		fmt.Fprintf(&b, "%s|", workload.Key(&wl))
		for _, c := range wl.Status.Conditions {
			fmt.Fprintf(&b, "%s=%s:%s:%s;", c.Type, c.Status, c.Reason, c.Message)
		}
		if wl.Status.Admission != nil {
			admission, err := json.Marshal(wl.Status.Admission)
			if err != nil {
				return "", err
			}
			b.Write(admission)
		}
		b.WriteString("\n")
	}
	return b.String(), nil
}

// eventOut is one event Kueue's scheduler or preemptor recorded, with the cycle it came from.
type eventOut struct {
	Cycle     int    `json:"cycle"`
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	Type      string `json:"type"`
	Reason    string `json:"reason"`
	Message   string `json:"message"`
}

// collectEvents takes the cycle's new events, sorted (admissions record theirs from goroutines).
func (h *harness) collectEvents() {
	all := h.recorder.RecordedEvents
	fresh := append([]utiltesting.EventRecord(nil), all[h.seen:]...)
	h.seen = len(all)
	sort.SliceStable(fresh, func(i, j int) bool { return utiltesting.SortEvents(fresh[i], fresh[j]) })
	for _, e := range fresh {
		h.events = append(h.events, eventOut{Cycle: h.cycles, Namespace: e.Key.Namespace, Name: e.Key.Name,
			Type: e.EventType, Reason: e.Reason, Message: e.Message})
	}
}
