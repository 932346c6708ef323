package core

// Driving the real scheduler (k8s.io/kubernetes pkg/scheduler scheduler.New) in-process on a fake clientset,
// deterministically and without sleeping for fixed times (../shared/reference/oracle.md §2, §4, §6):
//
//   - the fake's watch buffers are raised before the client exists (it panics "channel full" at 100);
//   - objects are created one by one through the tracker after the informers have synced, so the queue sees
//     pods in creation order (objects pre-loaded into the fake are listed in name order);
//   - a reactor turns pods/binding into what the API server's binding subresource does (spec.nodeName and
//     PodScheduled=True), which the fake alone never persists; a delete reactor remembers preemption victims;
//   - an event recorder keeps "Preempted" events (victim and preemptor);
//   - SchedulePod is wrapped to record, for each placed pod, every node whose total score equals the chosen
//     one's at that attempt (tiedNodes), from the scores that attempt computed (ties.go scoreRecorder);
//   - ScheduleOne is called while activeQ or backoffQ hold something (SchedulerPopFromBackoffQ pops backoffQ
//     when activeQ is empty), each call guarded by a watchdog; between calls the driver waits until the run has
//     settled: nothing in flight except pods waiting at Permit, every write seen by the informers and
//     confirmed in the scheduler cache, observed twice in a row. Pods still waiting at Permit when nothing
//     else can move are rejected, as their Permit timeout would in a cluster.
//   - when ScheduleOne blocks in Pop while entities are still queued, they sit in the error backoff queue
//     (backend/queue backoff_queue.go: Pop takes only from the plain backoff queue, never from the error one;
//     a workload-aware preemption in 1.37 requeues the group there with no rejector plugin). A running
//     kube-scheduler moves them to the activeQ once their backoff completes (scheduling_queue.go
//     flushBackoffQCompleted, which the queue's Run calls on every one-second ordering window). The driver does
//     the same: it starts the queue's Run at that first moment (not before, so runs that never get there
//     keep the plain pop order) and waits, on the real clock, until the blocked call pops the entity, within a
//     budget per run (backoffBudget). It waits only when something was freed since a queued entity's last
//     attempt (a deletion, such as the preemption's victims, or a claim released: `moves`, stamped on the
//     pod's entity, itself or the root of its group tree, as SchedulePod starts on it). A retry after no
//     change at all fails as the last attempt did, and upstream would keep retrying it
//     after ever longer backoffs with the same result: the fixed point the driver stops at. After a binding or
//     a creation (sequential arrival: a pod joining its group, a node, a slice), which could let a retry pass,
//     the entity is retried at once, as the backoff completing would, without waiting on the clock
//     (retries.go retryChanged; docs/oracle.md "What differs from a real cluster").

import (
	"context"
	"fmt"
	"os"
	goruntime "runtime"
	"sync"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/events"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/scheduler"
	schedconfig "k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/profile"

	fwk "k8s.io/kube-scheduler/framework"
)

const (
	stepTimeout   = 20 * time.Second
	settleTimeout = 60 * time.Second
	// popIdle is how long a ScheduleOne that pops nothing from an empty activeQ is given before the driver
	// takes it as blocked in Pop (only pods in the error backoff are left)
	popIdle = 100 * time.Millisecond
	// backoffBudget bounds the time one run (one oracle invocation) spends waiting for error backoffs to
	// complete: a first error backoff lasts podInitialBackoffSeconds (1 s) rounded up to the next one-second
	// ordering window; each further one doubles, up to podMaxBackoffSeconds (10 s) times the square root of a
	// group's size
	backoffBudget = 30 * time.Second
	// watchBuffer is the room of each of the fake's watch channels (it panics "channel full" when one fills,
	// at 100 by default). The driver lets the informers catch up after every write it makes and every
	// scheduling cycle (settle), so a channel holds at most what one cycle writes. Every buffer is allocated
	// whole and, holding pointers, scanned by every garbage collection: at 1<<20 events (32 MB) per watch it
	// was most of the oracle's memory and a tenth of its CPU.
	watchBuffer = 1 << 16
)

var budgetSpent = fmt.Sprintf("stopped waiting for error backoffs after %v with entities still queued", backoffBudget)

var podsGVR = corev1.SchemeGroupVersion.WithResource("pods")

type preemptEvent struct {
	step      int
	victim    string // ns/name
	preemptor Ref
}

// Sim is one run of the scheduler over one input.
type Sim struct {
	a       Adapter
	ctx     context.Context
	cancel  context.CancelFunc
	client  *fake.Clientset
	factory informers.SharedInformerFactory
	sched   *scheduler.Scheduler
	gvrs    map[schema.GroupVersionResource]string // resource -> kind, of everything created

	mu            sync.Mutex
	step          int
	bound         map[string]string      // pod ns/name -> node, bound during the run
	victims       map[string]*corev1.Pod // pod ns/name -> the pod as it was when preemption deleted it
	events        []preemptEvent
	ties          map[types.UID]map[string][]string // pod uid -> suggested node -> tied nodes at that attempt
	nominated     map[string]string                 // pod ns/name -> last nominated node seen while unbound
	collected     map[types.UID]bool                // victims whose claims the garbage collection has seen to
	pending       chan struct{}                     // the ScheduleOne call still outstanding, if any
	startCycle    int64                             // the queue's scheduling cycle when it was started (Pop advances it)
	writes        int                               // writes that changed the cluster (bindings, deletes, real patches and updates)
	watchdog      string
	created       int                        // objects the scheduler created (their UIDs, settle.go stampCreated)
	track         tracked                    // what the settle check keeps between looks (settle.go)
	apply         clienttesting.ReactionFunc // the fake clientset's own reactor on its tracker
	queueRuns     bool                       // the queue's own Run (its backoff and leftover flushes) was started
	backedOff     time.Duration              // time spent waiting for error backoffs to complete (backoffBudget)
	backoffs      int                        // how many times the driver waited for one
	moves         int                        // deletions and claim releases so far (awaitBackoff)
	triedAt       map[string]int             // entity (entityKey) -> moves when last popped or SchedulePod started on a member
	placementTies map[string][]TiedPlacement // group ns/name -> placements tied at its last scoring (placementties.go)
	changes       changeLog                  // creations and bindings, against each entity's last attempt (retryChanged)
	// pods the driver rejected at Permit (waitingAtPermit)
	permitRejected map[types.UID]bool
	popped         map[types.UID]bool // pods that were in an entity ScheduleOne took (notePop)
}

type recorderLogger = events.EventRecorderLogger

type recorder struct{ s *Sim }

func (r recorder) Eventf(regarding, related runtime.Object, eventtype, reason, action, note string, args ...interface{}) {
	if reason != "Preempted" {
		return
	}
	v, err := meta.Accessor(regarding)
	if err != nil {
		return
	}
	ev := preemptEvent{victim: v.GetNamespace() + "/" + v.GetName()}
	if related != nil {
		if p, err := meta.Accessor(related); err == nil {
			kind := related.GetObjectKind().GroupVersionKind().Kind
			if _, ok := related.(*corev1.Pod); ok {
				kind = "Pod"
			} else if kind == "" {
				kind = "PodGroup"
			}
			ev.preemptor = Ref{Kind: kind, Namespace: p.GetNamespace(), Name: p.GetName()}
		}
	}
	r.s.mu.Lock()
	ev.step = r.s.step
	r.s.events = append(r.s.events, ev)
	r.s.mu.Unlock()
}

func (r recorder) AnnotatedEventf(regarding, related runtime.Object, _ map[string]string, eventtype, reason, action, note string, args ...interface{}) {
	r.Eventf(regarding, related, eventtype, reason, action, note, args...)
}

func (r recorder) WithLogger(klog.Logger) recorderLogger { return r }

// NewSim builds the scheduler for `cfg` on an empty fake cluster and waits for its informers.
func NewSim(a Adapter, cfg *schedconfig.KubeSchedulerConfiguration) (*Sim, error) {
	watch.DefaultChanSize = watchBuffer
	s := &Sim{a: a, client: newSchedulerClientset(), bound: map[string]string{}, victims: map[string]*corev1.Pod{},
		ties: map[types.UID]map[string][]string{}, triedAt: map[string]int{}, changes: newChangeLog(), popped: map[types.UID]bool{}, nominated: map[string]string{}, collected: map[types.UID]bool{}, permitRejected: map[types.UID]bool{}, gvrs: map[schema.GroupVersionResource]string{podsGVR: "Pod", claimsGVR: "ResourceClaim"}}
	s.track = newTracked()
	// upstream asks its logger whether a level is on for every node it filters and scores; klog's own logger
	// answers after reading its verbosity flags, a discarding one at once (the output is discarded anyway:
	// prepareRun sets klog's logger to logr.Discard)
	s.ctx, s.cancel = context.WithCancel(klog.NewContext(context.Background(), logr.Discard()))
	s.apply = clienttesting.ObjectReaction(s.client.Tracker())
	s.client.PrependReactor("*", "*", s.writeReactor) // first prepended, so the last before the fake's own
	s.client.PrependReactor("*", "*", kindReactor)    // types the object as the field-managed tracker did (tracker.go)
	s.client.PrependReactor("*", "*", versionReactor) // stamps the resourceVersion right before writeReactor applies it
	s.client.PrependReactor("create", "pods", s.bindReactor)
	s.client.PrependReactor("delete", "pods", s.deleteReactor)
	s.client.PrependReactor("patch", "*", s.noopReactor)
	s.client.PrependReactor("update", "*", s.noopReactor)
	s.client.PrependReactor("update", "*", s.conflictReactor) // before everything else: a stale update changes nothing
	s.factory = a.NewInformerFactory(s.client)
	var tuned []scheduler.Option
	if t, ok := a.(Tuner); ok {
		tuned = t.Tune(cfg)
	}
	opts := append([]scheduler.Option{
		scheduler.WithProfiles(cfg.Profiles...),
		scheduler.WithParallelism(cfg.Parallelism),
		scheduler.WithPercentageOfNodesToScore(cfg.PercentageOfNodesToScore),
		scheduler.WithPodInitialBackoffSeconds(cfg.PodInitialBackoffSeconds),
		scheduler.WithPodMaxBackoffSeconds(cfg.PodMaxBackoffSeconds)}, tuned...)
	sched, err := scheduler.New(s.ctx, s.client, s.factory, nil, profile.RecorderFactory(func(string) recorderLogger { return recorder{s} }), opts...)
	if err != nil {
		return nil, fmt.Errorf("building the scheduler: %w", err)
	}
	s.sched = sched
	s.wrapPlacementScoring()
	a.WatchPops(sched, s.notePop)
	orig := sched.SchedulePod
	sched.SchedulePod = func(ctx context.Context, f framework.Framework, state fwk.CycleState, pi *framework.QueuedPodInfo) (scheduler.ScheduleResult, error) {
		key := s.entityKey(pi.Pod)
		s.mu.Lock()
		s.triedAt[key] = s.moves
		s.changes.tried(key)
		s.mu.Unlock()
		rec := &scoreRecorder{Framework: f}
		res, err := orig(ctx, rec, state, pi)
		if err == nil && res.SuggestedHost != "" {
			ties := tiedNodes(ctx, rec, state, pi.Pod, res)
			s.mu.Lock()
			if s.ties[pi.Pod.UID] == nil {
				s.ties[pi.Pod.UID] = map[string][]string{}
			}
			s.ties[pi.Pod.UID][res.SuggestedHost] = ties
			s.mu.Unlock()
		}
		return res, err
	}
	s.factory.Start(s.ctx.Done())
	sctx, scancel := context.WithTimeout(s.ctx, settleTimeout)
	defer scancel()
	for typ, ok := range s.factory.WaitForCacheSync(sctx.Done()) {
		if !ok {
			return nil, fmt.Errorf("informer for %v did not sync", typ)
		}
	}
	if err := sched.WaitForHandlersSync(sctx); err != nil {
		return nil, fmt.Errorf("scheduler handlers did not sync: %w", err)
	}
	return s, nil
}

func (s *Sim) Close() {
	s.sched.SchedulingQueue.Close()
	s.cancel()
}

// bindReactor does what the pods/binding subresource does in the API server (pkg/registry/core/pod
// BindingREST): set spec.nodeName and the PodScheduled=True condition.
func (s *Sim) bindReactor(action clienttesting.Action) (bool, runtime.Object, error) {
	if action.GetSubresource() != "binding" {
		return false, nil, nil
	}
	b, ok := action.(clienttesting.CreateAction).GetObject().(*corev1.Binding)
	if !ok {
		return false, nil, nil
	}
	obj, err := s.client.Tracker().Get(podsGVR, b.Namespace, b.Name)
	if err != nil {
		return true, nil, err
	}
	pod := obj.(*corev1.Pod).DeepCopy()
	if pod.Spec.NodeName != "" {
		return true, nil, fmt.Errorf("pod %s/%s is already assigned to node %q", pod.Namespace, pod.Name, pod.Spec.NodeName)
	}
	pod.Spec.NodeName = b.Target.Name
	setCondition(&pod.Status, corev1.PodCondition{Type: corev1.PodScheduled, Status: corev1.ConditionTrue})
	stampVersion(pod)
	if err := s.client.Tracker().Update(podsGVR, pod, pod.Namespace); err != nil {
		return true, nil, err
	}
	s.noteWrite(objKey{podsGVR, pod.Namespace, pod.Name})
	s.mu.Lock()
	s.bound[pod.Namespace+"/"+pod.Name] = b.Target.Name
	s.writes++
	s.changes.changed()
	s.mu.Unlock()
	return true, b, nil
}

func setCondition(st *corev1.PodStatus, c corev1.PodCondition) {
	c.LastTransitionTime = metav1.NewTime(BaseTime)
	for i := range st.Conditions {
		if st.Conditions[i].Type == c.Type {
			st.Conditions[i] = c
			return
		}
	}
	st.Conditions = append(st.Conditions, c)
}

func (s *Sim) deleteReactor(action clienttesting.Action) (bool, runtime.Object, error) {
	d, ok := action.(clienttesting.DeleteAction)
	if !ok || action.GetSubresource() != "" {
		return false, nil, nil
	}
	obj, err := s.client.Tracker().Get(podsGVR, d.GetNamespace(), d.GetName())
	if err == nil {
		s.mu.Lock()
		s.victims[d.GetNamespace()+"/"+d.GetName()] = obj.(*corev1.Pod).DeepCopy()
		s.writes++
		s.mu.Unlock()
	}
	return false, nil, nil
}

// Create adds objects to the cluster through the tracker, in order.
func (s *Sim) Create(objs []*Object) error {
	for _, o := range objs {
		s.gvrs[o.GVR] = o.Kind
		stampKind(o.GVR, o.Obj)
		stampVersion(o.Obj)
		if err := s.client.Tracker().Create(o.GVR, o.Obj, o.Meta().GetNamespace()); err != nil {
			return &InputError{fmt.Sprintf("%s: creating %s: %v", o.Doc.Where(), o.Key(), err)}
		}
		s.noteWrite(objKey{o.GVR, o.Meta().GetNamespace(), o.Meta().GetName()})
		s.mu.Lock()
		s.changes.changed()
		s.mu.Unlock()
	}
	return nil
}

// Run schedules until nothing more moves: the queue has nothing poppable and nothing is in flight.
func (s *Sim) Run() error {
	limit := 1000 + 50*s.podCount()
	idle, lastWrites := 0, -1
	for i := 0; ; i++ {
		if err := s.settle(); err != nil {
			return err
		}
		// a fixed point: every queued pod had another try and nothing in the cluster changed; upstream would
		// keep retrying them after each backoff with the same result
		s.mu.Lock()
		w := s.writes
		s.mu.Unlock()
		if w == lastWrites {
			idle++
		} else {
			idle, lastWrites = 0, w
		}
		if unbound := s.unboundPods(); idle > 2*unbound+4 {
			break
		}
		if changed, err := s.collectGarbage(); err != nil {
			return err
		} else if changed {
			if err := s.settle(); err != nil {
				return err
			}
		}
		s.noteNominations()
		if s.a.Queue(s.sched).Poppable == 0 && s.pending == nil {
			break
		}
		if i >= limit {
			s.watchdog = fmt.Sprintf("stopped after %d scheduling cycles with entities still queued", i)
			break
		}
		if os.Getenv("ORACLE_DEBUG") != "" {
			fmt.Fprintf(os.Stderr, "%s cycle %d queue %+v\n", time.Now().Format("15:04:05.000"), s.step, s.a.Queue(s.sched))
		}
		ran, err := s.stepOnce(popIdle)
		if err == nil && !ran {
			// ScheduleOne waits in Pop: only entities in the error backoff are left; they retry once it completes
			if ran = s.retryChanged(); !ran {
				ran, err = s.awaitBackoff()
			}
		}
		if err != nil {
			return err
		}
		if !ran {
			break
		}
	}
	if s.rejectWaitingPods() {
		if err := s.settle(); err != nil {
			return err
		}
	}
	return nil
}

// awaitBackoff is what passes for a running scheduler while the outstanding ScheduleOne is blocked in Pop with
// entities left in the error backoff queue: the queue's own flushes run (started here once per run) and the
// driver waits, within what is left of backoffBudget, for the call to pop what the flush moves to the activeQ.
// It returns false when nothing is queued, nothing was freed since the queued entities were last attempted or
// the budget is spent (the call stays outstanding).
func (s *Sim) awaitBackoff() (bool, error) {
	left := backoffBudget - s.backedOff
	if s.a.Queue(s.sched).Poppable == 0 || !s.changedSinceTried() {
		return false, nil
	}
	if left <= 0 {
		s.watchdog = budgetSpent
		return false, nil
	}
	if !s.queueRuns {
		s.queueRuns = true
		s.sched.SchedulingQueue.Run(klog.FromContext(s.ctx))
	}
	s.backoffs++
	start := time.Now()
	ran, err := s.stepOnce(left)
	s.backedOff += time.Since(start)
	if err == nil && !ran {
		s.watchdog = budgetSpent
	}
	if os.Getenv("ORACLE_DEBUG") != "" {
		fmt.Fprintf(os.Stderr, "waited %v for an error backoff (popped: %v)\n", time.Since(start), ran)
	}
	return ran, err
}

// changedSinceTried: something was freed since the last attempt of some entity left in the backoff queue, one
// of them was never attempted, or one holds a pod no attempt has taken yet (a member created while its tree
// backed off joins it there, scheduling_queue.go addToPodGroupIfExists, and is first attempted when the
// backoff completes).
func (s *Sim) changedSinceTried() bool {
	members := map[string][]types.UID{}
	for _, p := range s.sched.SchedulingQueue.PodsInBackoffQ() {
		key := s.entityKey(p)
		members[key] = append(members[key], p.UID)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	joined := map[string]bool{}
	for key, uids := range members {
		for _, uid := range uids {
			joined[key] = joined[key] || !s.popped[uid]
		}
	}
	for key := range members {
		if at, ok := s.triedAt[key]; !ok || at != s.moves || joined[key] {
			if os.Getenv("ORACLE_DEBUG") != "" {
				fmt.Fprintf(os.Stderr, "backoff: %s tried at %d (%v), moves now %d, new member %v\n", key, at, ok, s.moves, joined[key])
			}
			return true
		}
	}
	return false
}

// notePop records an entity ScheduleOne takes (Adapter.WatchPops), for changedSinceTried: its pods, and the
// attempt itself (a tree whose gang falls short of minCount fails before SchedulePod starts on any member).
func (s *Sim) notePop(pods []*corev1.Pod) {
	if len(pods) == 0 {
		return
	}
	key := s.entityKey(pods[0])
	s.mu.Lock()
	s.triedAt[key] = s.moves
	for _, p := range pods {
		s.popped[p.UID] = true
	}
	s.mu.Unlock()
}

// stepOnce runs one ScheduleOne (or keeps waiting for the one still outstanding). It returns false when the
// call is blocked in the queue's Pop for longer than `idle`: the activeQ is empty, the queue's scheduling cycle
// has not advanced (Pop advances it when it hands out an entity) and nothing is in flight, so nothing was
// poppable (the backoffQ count includes pods in the error backoff, which Pop does not take before their
// backoff expires). That call stays outstanding and returns when something is queued later. The watchdog
// counts only the time the call is not blocked in Pop.
func (s *Sim) stepOnce(idle time.Duration) (bool, error) {
	if s.pending == nil {
		s.mu.Lock()
		s.step++
		s.mu.Unlock()
		s.startCycle = s.sched.SchedulingQueue.SchedulingCycle()
		done := make(chan struct{})
		go func() {
			defer close(done)
			s.sched.ScheduleOne(s.ctx)
		}()
		s.pending = done
	}
	busy := time.Duration(0)
	last := time.Now()
	idleSince := time.Time{}
	for wait := 50 * time.Microsecond; ; {
		select {
		case <-s.pending:
			s.pending = nil
			return true, nil
		default:
		}
		now := time.Now()
		if s.blockedInPop() {
			if idleSince.IsZero() {
				idleSince = now
			} else if now.Sub(idleSince) > idle {
				return false, nil
			}
		} else {
			idleSince = time.Time{}
			busy += now.Sub(last)
		}
		last = now
		if busy > stepTimeout {
			dumpGoroutines()
			return false, fmt.Errorf("watchdog: a scheduling cycle did not return within %v", stepTimeout)
		}
		time.Sleep(wait)
		if wait < 2*time.Millisecond {
			wait *= 2
		}
	}
}

// blockedInPop: the outstanding ScheduleOne has not popped anything (the scheduling cycle has not advanced
// and nothing is in flight) although the activeQ is empty. Pop returns at once while the activeQ holds an
// entity (backoff_queue.go / active_queue.go pop), so a call is only taken as blocked when it is empty: a
// call that is merely slow to start on a loaded machine is waited for.
func (s *Sim) blockedInPop() bool {
	q := s.sched.SchedulingQueue
	return q.SchedulingCycle() == s.startCycle && len(q.InFlightPods()) == 0 && len(q.PodsInActiveQ()) == 0
}

// dumpGoroutines writes every goroutine's stack to stderr when ORACLE_DEBUG is set (to see what a stuck
// cycle waits for).
func dumpGoroutines() {
	if os.Getenv("ORACLE_DEBUG") == "" {
		return
	}
	buf := make([]byte, 1<<22)
	n := goruntime.Stack(buf, true)
	os.Stderr.Write(buf[:n])
}

// waitingAtPermit is the number of pods waiting at Permit for a plugin to allow them. A pod stays in the
// framework's waiting-pods map after its last plugin allowed it (or the driver rejected it) until its binding
// goroutine resumes from WaitOnPermit (pkg/scheduler/framework/runtime waiting_pods_map.go Allow; the map entry
// is removed in frameworkImpl.WaitOnPermit). Such a pod is not waiting: its binding cycle is about to run, and
// counting it let a loaded machine's run settle, end and reject it before that goroutine ran, leaving a gang
// member of scenarios/racks-and-trees never bound and never given a status (Gated, no message) in about one
// run in ten. Allowed pods have no pending plugins; the driver's rejections are remembered.
func (s *Sim) waitingAtPermit() int {
	n := 0
	for _, f := range s.sched.Profiles {
		f.IterateOverWaitingPods(func(wp fwk.WaitingPod) {
			if s.stillWaiting(wp) {
				n++
			}
		})
	}
	return n
}

func (s *Sim) stillWaiting(wp fwk.WaitingPod) bool {
	s.mu.Lock()
	rejected := s.permitRejected[wp.GetPod().UID]
	s.mu.Unlock()
	return !rejected && len(wp.GetPendingPlugins()) > 0
}

// rejectWaitingPods rejects the pods still waiting at Permit once nothing else can move (group members that
// will not come): their Permit timeout would reject them in a cluster. It reports whether it rejected any.
func (s *Sim) rejectWaitingPods() bool {
	rejected := false
	for _, f := range s.sched.Profiles {
		var uids []types.UID
		f.IterateOverWaitingPods(func(wp fwk.WaitingPod) {
			if s.stillWaiting(wp) {
				uids = append(uids, wp.GetPod().UID)
			}
		})
		for _, uid := range uids {
			if f.RejectWaitingPod(uid) {
				s.mu.Lock()
				s.permitRejected[uid] = true
				s.mu.Unlock()
				rejected = true
			}
		}
	}
	return rejected
}

func (s *Sim) pods() ([]*corev1.Pod, error) {
	list, err := s.client.Tracker().List(podsGVR, corev1.SchemeGroupVersion.WithKind("Pod"), "")
	if err != nil {
		return nil, err
	}
	pl := list.(*corev1.PodList)
	out := make([]*corev1.Pod, 0, len(pl.Items))
	for i := range pl.Items {
		out = append(out, &pl.Items[i])
	}
	return out, nil
}

// collectGarbage is the ResourceClaim controller after preemption: claims generated for a deleted pod are
// deleted, and a deleted pod's reservations are dropped (with the allocation once nobody holds the claim).
func (s *Sim) collectGarbage() (bool, error) {
	s.mu.Lock()
	gone := map[types.UID]bool{}
	fresh := false
	for _, p := range s.victims {
		gone[p.UID] = true
		if !s.collected[p.UID] {
			fresh = true
			s.collected[p.UID] = true
		}
	}
	s.mu.Unlock()
	if !fresh {
		return false, nil
	}
	list, err := s.client.Tracker().List(claimsGVR, resourcev1.SchemeGroupVersion.WithKind("ResourceClaim"), "")
	if err != nil {
		return false, nil
	}
	changed := false
	for i := range list.(*resourcev1.ResourceClaimList).Items {
		c := list.(*resourcev1.ResourceClaimList).Items[i].DeepCopy()
		if ref := metav1.GetControllerOf(c); ref != nil && ref.Kind == "Pod" && gone[ref.UID] {
			if err := s.client.Tracker().Delete(claimsGVR, c.Namespace, c.Name); err != nil {
				return false, err
			}
			s.noteMove()
			s.noteWrite(objKey{claimsGVR, c.Namespace, c.Name})
			changed = true
			continue
		}
		kept := c.Status.ReservedFor[:0]
		for _, r := range c.Status.ReservedFor {
			if !(r.Resource == "pods" && gone[r.UID]) {
				kept = append(kept, r)
			}
		}
		if len(kept) != len(c.Status.ReservedFor) {
			c.Status.ReservedFor = kept
			if len(kept) == 0 {
				c.Status.Allocation = nil
			}
			stampVersion(c)
			if err := s.client.Tracker().Update(claimsGVR, c, c.Namespace); err != nil {
				return false, err
			}
			s.noteMove()
			s.noteWrite(objKey{claimsGVR, c.Namespace, c.Name})
			changed = true
		}
	}
	return changed, nil
}

// noteMove counts a change that frees room in the cluster (a deletion, a claim released; awaitBackoff).
func (s *Sim) noteMove() {
	s.mu.Lock()
	s.moves++
	s.mu.Unlock()
}

// entityKey names what the queue schedules a pod as: the pod itself, or the root of its group tree (its
// PodGroup, or the CompositePodGroup at the top of the PodGroup's parents), whose members a cycle takes
// together: a gang whose first member fails is attempted without SchedulePod ever starting the others.
func (s *Sim) entityKey(p *corev1.Pod) string {
	sg := p.Spec.SchedulingGroup
	if sg == nil || sg.PodGroupName == nil {
		return "Pod " + p.Namespace + "/" + p.Name
	}
	kind, name := "PodGroup", *sg.PodGroupName
	for depth := 0; depth < 16; depth++ {
		parent := s.parentGroup(kind, p.Namespace, name)
		if parent == "" {
			break
		}
		kind, name = "CompositePodGroup", parent
	}
	return kind + " " + p.Namespace + "/" + name
}

// parentGroup is spec.parentCompositePodGroupName of the `kind` object ns/name in the cluster, "" if none.
func (s *Sim) parentGroup(kind, ns, name string) string {
	for gvr, k := range s.gvrs {
		if k != kind {
			continue
		}
		obj, err := s.client.Tracker().Get(gvr, ns, name)
		if err != nil {
			continue
		}
		u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
		if err != nil {
			continue
		}
		if parent, ok, _ := unstructured.NestedString(u, "spec", "parentCompositePodGroupName"); ok {
			return parent
		}
	}
	return ""
}
