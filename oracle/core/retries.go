package core

// Retrying, without waiting on the clock, an entity left in the error backoff after the cluster changed since its
// last attempt: a pod created into its group, a pod bound, any object created (sequential arrival creates them
// one at a time and schedules until nothing moves after each).
//
// An entity lands in the error backoff heap when no plugin rejected it (k8s.io/kubernetes pkg/scheduler/backend/
// queue backoff_queue.go add): a pod whose Filter returned an error, such as a CEL runtime error in a device
// selector (AddUnschedulablePodIfNotPresent: ConsecutiveErrorsCount, queueAfterBackoff), or a pod group whose
// failed attempt recorded no rejector (AddAttemptedPodGroupIfNeeded). Pop never takes from that heap
// (popBackoff); flushBackoffQCompleted moves the entity to the activeQ once its backoff is over, whatever
// happened meanwhile, so upstream retries it a few seconds after every failure. A pod that joins a queued group
// is added to it and the group is requeued after its backoff too (addPodGroupMember, addToPodGroupIfExists,
// requeueEntityWithQueueingStrategy). A retry after a change may pass where the last attempt did not: a
// binding that fills the node whose filter errored lets the filter chain stop before the erroring plugin, a new
// member joins the group's attempt.
//
// Waiting for that backoff on the real clock costs a second, then two, four... for every later change, which
// used up the driver's backoff budget (drive.go backoffBudget). The driver instead does at once what the flush
// does when the backoff completes: PriorityQueue.Activate takes the entity out of either backoff heap and calls
// moveToActiveQ with movesFromBackoffQ set, as flushBackoffQCompleted does (only the event label of the metrics
// differs). It does so only while the scheduler is blocked in Pop, when nothing else is poppable (Pop takes the
// plain backoff heap first), so no other entity is overtaken; and once per entity per change, so the retries are
// bounded by the changes. Deletions and released claims keep their wait on the clock (drive.go awaitBackoff).

import (
	"fmt"
	"os"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
)

// changeLog counts the changes that may let an entity in the error backoff pass (objects created, pods bound)
// and, for each entity (entityKey), the count when it was last attempted or retried. Guarded by Sim.mu.
type changeLog struct {
	count   int
	triedAt map[string]int // entity -> count at its last attempt (SchedulePod started on a member) or retry
}

func newChangeLog() changeLog {
	return changeLog{triedAt: map[string]int{}}
}

func (c *changeLog) changed() {
	c.count++
}

func (c *changeLog) tried(entity string) {
	c.triedAt[entity] = c.count
}

// since: something changed after the entity's last attempt.
func (c *changeLog) since(entity string) bool {
	return c.count > c.triedAt[entity]
}

// retryChanged moves to the activeQ every entity in the backoff queue that the cluster changed for since its
// last attempt, as its backoff completing would (see above). It returns whether it moved any.
func (s *Sim) retryChanged() bool {
	keys := map[string]string{} // pod ns/name -> entity
	queued := map[string]*corev1.Pod{}
	for _, p := range s.sched.SchedulingQueue.PodsInBackoffQ() {
		pod := p.Namespace + "/" + p.Name
		keys[pod], queued[pod] = s.entityKey(p), p
	}
	pods := map[string]*corev1.Pod{}
	s.mu.Lock()
	for pod, key := range keys {
		if s.changes.since(key) {
			pods[pod] = queued[pod]
		}
		if os.Getenv("ORACLE_DEBUG") != "" {
			fmt.Fprintf(os.Stderr, "retry: %s of %s tried at %d, changes now %d\n", pod, key, s.changes.triedAt[key], s.changes.count)
		}
	}
	for pod := range pods {
		s.changes.tried(keys[pod])
	}
	s.mu.Unlock()
	if len(pods) == 0 {
		return false
	}
	s.sched.SchedulingQueue.Activate(klog.FromContext(s.ctx), pods)
	return true
}
