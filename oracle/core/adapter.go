package core

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/informers"
	clientset "k8s.io/client-go/kubernetes"
	"k8s.io/kubernetes/pkg/scheduler"
	schedconfig "k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// Adapter is what differs between the releases the oracle is built for. Each main module (oracle/k8s136,
// oracle/k8s137) implements it in its adapter.go; everything else is in this package and compiled against the
// main module's k8s.io/kubernetes.
type Adapter interface {
	// Release is the minor release, "1.36", "1.37" or "1.38".
	Release() string
	// Kubernetes is the k8s.io/kubernetes module version the binary is built from, "v1.37.2".
	Kubernetes() string
	// ProfileGates are the gates wasplan's default profile switches for this release (every workload-aware
	// gate on; src/wasplan/api/releases.py default_gates), on top of upstream's defaults.
	ProfileGates() map[string]bool
	// SchedulingVersion is the scheduling.k8s.io version the scheduler's informers watch for a kind
	// (Workload, PodGroup, CompositePodGroup), "" when the release has no such kind.
	SchedulingVersion(kind string) string
	// GroupConditionType is the condition the scheduler writes on a PodGroup it has scheduled.
	GroupConditionType() string
	// Queue reports how many entities the scheduling queue holds that the next ScheduleOne would pop
	// (activeQ and backoffQ) and how many are in flight.
	Queue(s *scheduler.Scheduler) QueueState
	// Queued: the scheduling queue holds the pod (pending: activeQ, backoffQ, unschedulable, or waiting for its
	// pod group), found by key as the queue's GetPod finds it (1.37 needs the pod's scheduling group).
	Queued(s *scheduler.Scheduler, pod *corev1.Pod) bool
	// GroupVersion is the resourceVersion of the PodGroup or CompositePodGroup ns/name as the scheduler's own
	// state holds it (1.37: the cache its event handlers fill, before they tell the queue), "" when it holds
	// none; tracked is false when the release keeps no such state for the kind (1.36 reads PodGroups from the
	// informer).
	GroupVersion(s *scheduler.Scheduler, kind, ns, name string) (version string, tracked bool)
	// NewInformerFactory is scheduler.NewInformerFactory (1.37 added an informer-name argument).
	NewInformerFactory(c clientset.Interface) informers.SharedInformerFactory
	// WrapPlacementScoring returns the framework with RunPlacementScorePlugins reporting each scoring to
	// `record` (group namespace/name, every scored placement); 1.37 added the placement states argument.
	WrapPlacementScoring(f framework.Framework, record func(group string, scored []PlacementScore)) framework.Framework
	// WatchPops wraps the scheduler's queue pop (1.36 NextPod, 1.37 NextEntity) so that `popped` sees the pods
	// of every entity ScheduleOne takes, before its cycle starts.
	WatchPops(s *scheduler.Scheduler, popped func(pods []*corev1.Pod))
}

// Tuner is implemented by a release whose scheduler has settings of its own that make it random unless forced
// (1.38: percentageOfPlacementsToScore). Tune forces them in cfg (global and per profile) and returns the
// scheduler.New options that carry the global ones; NewSim calls it before building the scheduler.
type Tuner interface {
	Tune(cfg *schedconfig.KubeSchedulerConfiguration) []scheduler.Option
}

// QueueState is the part of the scheduling queue the driver watches to know when nothing more will happen.
type QueueState struct {
	Poppable int // activeQ + backoffQ (SchedulerPopFromBackoffQ pops backoffQ when activeQ is empty)
	InFlight int
}
