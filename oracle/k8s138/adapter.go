package main

// What Kubernetes 1.38 (k8s.io/kubernetes v1.38.0-beta.0) does differently from 1.37, for the shared oracle
// core. Built with Go 1.27 (oracle/build sets GOTOOLCHAIN=go1.27.3 for this module only). Gate names, served
// versions and the Go API changes followed: kube_features.go, pkg/scheduler/scheduler.go and
// backend/queue/scheduling_queue.go of v1.38.0-beta.0 (docs/oracle.md, "Kubernetes 1.38").

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	clientset "k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/scheduler"
	schedconfig "k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	fwk "k8s.io/kube-scheduler/framework"

	"wasplan.local/oracle/core"
)

type adapter struct{}

func (adapter) Release() string    { return "1.38" }
func (adapter) Kubernetes() string { return "v1.38.0-beta.0" }

// ProfileGates: every workload-aware gate on, as for 1.37, without PodGroupPreemptionPolicy (removed in 1.38:
// the feature is always on, and naming the gate is an error, `unrecognized feature gate`); the DRA gates stay
// at upstream's defaults (DynamicResourceAllocation is removed too). SchedulerAsyncPreemption is switched off
// so victims are deleted inside the scheduling cycle.
func (adapter) ProfileGates() map[string]bool {
	return map[string]bool{
		"GenericWorkload":                 true,
		"TopologyAwareWorkloadScheduling": true,
		"WorkloadWithJob":                 true,
		"CompositePodGroup":               true,
		"SchedulerAsyncPreemption":        false,
	}
}

// SchedulingVersion: the 1.38 scheduler lists Workloads, PodGroups and CompositePodGroups through v1beta1
// (its CompositePodGroup informer moved from v1alpha3, eventhandlers.go; v1beta1 is also their storage
// version now); its slice tracker watches DeviceTaintRules through resource.k8s.io/v1 (framework_init.go).
func (adapter) SchedulingVersion(kind string) string {
	switch kind {
	case "PodGroup", "Workload", "CompositePodGroup":
		return "v1beta1"
	case "DeviceTaintRule":
		return "v1"
	}
	return ""
}

// Tune: 1.38 samples placements adaptively and shuffles them at random unless percentageOfPlacementsToScore is
// 100 (pkg/scheduler/apis/config/types.go DefaultPercentageOfPlacementsToScore = 0); the oracle scores every
// placement, global and per profile, as it scores every node.
func (adapter) Tune(cfg *schedconfig.KubeSchedulerConfiguration) []scheduler.Option {
	all := int32(100)
	cfg.PercentageOfPlacementsToScore = &all
	for i := range cfg.Profiles {
		if cfg.Profiles[i].PercentageOfPlacementsToScore != nil {
			cfg.Profiles[i].PercentageOfPlacementsToScore = &all
		}
	}
	return []scheduler.Option{scheduler.WithPercentageOfPlacementsToScore(&all)}
}

func (adapter) GroupConditionType() string { return "PodGroupInitiallyScheduled" }

func (adapter) Queue(s *scheduler.Scheduler) core.QueueState {
	q := s.SchedulingQueue
	return core.QueueState{Poppable: len(q.PodsInActiveQ()) + len(q.PodsInBackoffQ()), InFlight: len(q.InFlightPods())}
}

func (adapter) Queued(s *scheduler.Scheduler, pod *corev1.Pod) bool {
	q := s.SchedulingQueue
	_, ok := q.GetPod(context.Background(), pod.Name, pod.Namespace, pod.Spec.SchedulingGroup)
	return ok
}

// GroupVersion: the 1.38 scheduler's event handlers put PodGroups and CompositePodGroups in its cache, then in
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

// WatchPops: 1.38 pops entities (a pod, or the root of a PodGroup tree with every member it holds;
// pkg/scheduler/schedule_one.go ScheduleOne, NextEntity).
func (adapter) WatchPops(s *scheduler.Scheduler, popped func(pods []*corev1.Pod)) {
	next := s.NextEntity
	s.NextEntity = func(logger klog.Logger) (framework.QueuedEntityInfo, error) {
		entity, err := next(logger)
		if err == nil && entity != nil {
			var pods []*corev1.Pod
			for pi := range entity.ForEachPodInfo() { // 1.38: an iterator
				pods = append(pods, pi.Pod)
			}
			popped(pods)
		}
		return entity, err
	}
}
