package main

// What Kubernetes 1.37 (k8s.io/kubernetes v1.37.2) does differently from 1.36, for the shared oracle core.
// Served versions and gate names: ../shared/reference/oracle.md §3 and src/wasplan/api/releases.py.

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	clientset "k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	fwk "k8s.io/kube-scheduler/framework"

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
// through v1alpha3; its slice tracker watches DeviceTaintRules through resource.k8s.io/v1 (dynamic-resource-
// allocation v0.37.2 resourceslice/tracker).
func (adapter) SchedulingVersion(kind string) string {
	switch kind {
	case "PodGroup", "Workload":
		return "v1beta1"
	case "CompositePodGroup":
		return "v1alpha3"
	case "DeviceTaintRule":
		return "v1"
	}
	return ""
}

func (adapter) GroupConditionType() string { return "PodGroupInitiallyScheduled" }

func (adapter) Queue(s *scheduler.Scheduler) core.QueueState {
	q := s.SchedulingQueue
	return core.QueueState{Poppable: len(q.PodsInActiveQ()) + len(q.PodsInBackoffQ()), InFlight: len(q.InFlightPods())}
}

func (adapter) Queued(s *scheduler.Scheduler, pod *corev1.Pod) bool {
	q := s.SchedulingQueue
	_, ok := q.GetPod(pod.Name, pod.Namespace, pod.Spec.SchedulingGroup)
	return ok
}

// GroupVersion: the 1.37 scheduler's event handlers put PodGroups and CompositePodGroups in its cache, then in
// the queue's workload forest (pkg/scheduler/eventhandlers.go addPodGroup, addCompositePodGroup).
func (adapter) GroupVersion(s *scheduler.Scheduler, kind, ns, name string) (string, bool) {
	var obj metav1.Object
	switch kind {
	case "PodGroup":
		if pg, err := s.Cache.PodGroups().Get(ns, name); err == nil && pg != nil {
			obj = pg
		}
	case "CompositePodGroup":
		if cpg, err := s.Cache.CompositePodGroups().Get(ns, name); err == nil && cpg != nil {
			obj = cpg
		}
	default:
		return "", false
	}
	if obj == nil {
		return "", true
	}
	return obj.GetResourceVersion(), true
}

func (adapter) NewInformerFactory(c clientset.Interface) informers.SharedInformerFactory {
	return scheduler.NewInformerFactory(c, 0, nil)
}

func (adapter) WrapPlacementScoring(f framework.Framework, record func(string, []core.PlacementScore)) framework.Framework {
	return placementScorer{Framework: f, record: record}
}

// placementScorer is a profile's framework that reports every placement scoring of a group cycle.
type placementScorer struct {
	framework.Framework
	record func(string, []core.PlacementScore)
}

func (p placementScorer) RunPlacementScorePlugins(ctx context.Context, state fwk.PodGroupCycleState, group fwk.PodGroupInfo, assignments []*fwk.PodGroupAssignments, states []fwk.PlacementCycleState) ([]fwk.PlacementPluginScores, *fwk.Status) {
	scores, status := p.Framework.RunPlacementScorePlugins(ctx, state, group, assignments, states)
	if status.IsSuccess() {
		p.record(core.GroupKey(group), core.PlacementScores(scores))
	}
	return scores, status
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
