package main

// What Kubernetes 1.36 (k8s.io/kubernetes v1.36.5) does differently from 1.37, for the shared oracle core.
// Served versions and gate names: ../shared/reference/oracle.md §3 and src/wasplan/api/releases.py.

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/informers"
	clientset "k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	fwk "k8s.io/kube-scheduler/framework"

	"wasplan.local/oracle/core"
)

type adapter struct{}

func (adapter) Release() string    { return "1.36" }
func (adapter) Kubernetes() string { return "v1.36.5" }

// ProfileGates: wasplan's 1.36 profile turns on every workload-aware gate (all alpha); the DRA gates stay at
// upstream's defaults. SchedulerAsyncPreemption is switched off so victims are deleted inside the cycle.
func (adapter) ProfileGates() map[string]bool {
	return map[string]bool{
		"GenericWorkload":                 true,
		"GangScheduling":                  true,
		"WorkloadAwarePreemption":         true,
		"TopologyAwareWorkloadScheduling": true,
		"WorkloadWithJob":                 true,
		"SchedulerAsyncPreemption":        false,
	}
}

// SchedulingVersion: 1.36 serves Workload and PodGroup as v1alpha2 only; there are no CompositePodGroups. The
// scheduler's slice tracker watches DeviceTaintRules through resource.k8s.io/v1beta2
// (dynamic-resource-allocation v0.36.3 resourceslice/tracker).
func (adapter) SchedulingVersion(kind string) string {
	switch kind {
	case "PodGroup", "Workload":
		return "v1alpha2"
	case "DeviceTaintRule":
		return "v1beta2"
	}
	return ""
}

func (adapter) GroupConditionType() string { return "PodGroupScheduled" }

func (adapter) Queue(s *scheduler.Scheduler) core.QueueState {
	q := s.SchedulingQueue
	return core.QueueState{Poppable: len(q.PodsInActiveQ()) + len(q.PodsInBackoffQ()), InFlight: len(q.InFlightPods())}
}

func (adapter) Queued(s *scheduler.Scheduler, pod *corev1.Pod) bool {
	q := s.SchedulingQueue
	_, ok := q.GetPod(pod.Name, pod.Namespace)
	return ok
}

// GroupVersion: the 1.36 scheduler keeps no PodGroup objects of its own; its plugins read the informer's.
func (adapter) GroupVersion(*scheduler.Scheduler, string, string, string) (string, bool) {
	return "", false
}

func (adapter) NewInformerFactory(c clientset.Interface) informers.SharedInformerFactory {
	return scheduler.NewInformerFactory(c, 0)
}

func (adapter) WrapPlacementScoring(f framework.Framework, record func(string, []core.PlacementScore)) framework.Framework {
	return placementScorer{Framework: f, record: record}
}

// placementScorer is a profile's framework that reports every placement scoring of a group cycle.
type placementScorer struct {
	framework.Framework
	record func(string, []core.PlacementScore)
}

func (p placementScorer) RunPlacementScorePlugins(ctx context.Context, state fwk.PodGroupCycleState, group fwk.PodGroupInfo, assignments []*fwk.PodGroupAssignments) ([]fwk.PlacementPluginScores, *fwk.Status) {
	scores, status := p.Framework.RunPlacementScorePlugins(ctx, state, group, assignments)
	if status.IsSuccess() {
		p.record(core.GroupKey(group), core.PlacementScores(scores))
	}
	return scores, status
}

// WatchPops: 1.36 pops one pod at a time (pkg/scheduler/schedule_one.go ScheduleOne, NextPod).
func (adapter) WatchPops(s *scheduler.Scheduler, popped func(pods []*corev1.Pod)) {
	next := s.NextPod
	s.NextPod = func(logger klog.Logger) (*framework.QueuedPodInfo, error) {
		pi, err := next(logger)
		if err == nil && pi != nil {
			popped([]*corev1.Pod{pi.Pod})
		}
		return pi, err
	}
}
