package main

// What Kubernetes 1.37 (k8s.io/kubernetes v1.37.2) does differently from 1.36, for the shared oracle core.
// Served versions and gate names: ../shared/reference/oracle.md §3 and src/wasplan/api/releases.py.

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/informers"
	clientset "k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	"wasplan.local/oracle/core"
)

type adapter struct{}

func (adapter) Release() string    { return "1.37" }
func (adapter) Kubernetes() string { return "v1.37.2" }

// ProfileGates: wasplan's 1.37 profile turns on every workload-aware gate; the DRA gates stay at upstream's
// defaults. SchedulerAsyncPreemption is switched off so victims are deleted inside the scheduling cycle.
func (adapter) ProfileGates() map[string]bool {
	return map[string]bool{
		"GenericWorkload":                 true,
		"TopologyAwareWorkloadScheduling": true,
		"WorkloadWithJob":                 true,
		"CompositePodGroup":               true,
		"PodGroupPreemptionPolicy":        true,
		"SchedulerAsyncPreemption":        false,
	}
}

// SchedulingVersion: the 1.37 scheduler lists PodGroups and Workloads through v1beta1 and CompositePodGroups
// through v1alpha3.
func (adapter) SchedulingVersion(kind string) string {
	switch kind {
	case "PodGroup", "Workload":
		return "v1beta1"
	case "CompositePodGroup":
		return "v1alpha3"
	}
	return ""
}

func (adapter) GroupConditionType() string { return "PodGroupInitiallyScheduled" }

func (adapter) Queue(s *scheduler.Scheduler) core.QueueState {
	q := s.SchedulingQueue
	return core.QueueState{Poppable: len(q.PodsInActiveQ()) + len(q.PodsInBackoffQ()), InFlight: len(q.InFlightPods())}
}

func (adapter) NewInformerFactory(c clientset.Interface) informers.SharedInformerFactory {
	return scheduler.NewInformerFactory(c, 0, nil)
}

// WatchPops: 1.37 pops entities (a pod, or the root of a PodGroup tree with every member it holds;
// pkg/scheduler/schedule_one.go ScheduleOne, NextEntity).
func (adapter) WatchPops(s *scheduler.Scheduler, popped func(pods []*corev1.Pod)) {
	next := s.NextEntity
	s.NextEntity = func(logger klog.Logger) (framework.QueuedEntityInfo, error) {
		entity, err := next(logger)
		if err == nil && entity != nil {
			var pods []*corev1.Pod
			entity.ForEachPodInfo(func(pi *framework.QueuedPodInfo) bool {
				pods = append(pods, pi.Pod)
				return true
			})
			popped(pods)
		}
		return entity, err
	}
}
