package main

// The API-server part of the 1.38 adapter: registry strategies and the Job controller for the oracle's
// validate, convert and expand (oracle/core/validate.go, expand.go).

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/registry/rest"
	jobcontroller "k8s.io/kubernetes/pkg/controller/job"
	"k8s.io/kubernetes/pkg/registry/scheduling/compositepodgroup"
	"k8s.io/kubernetes/pkg/registry/scheduling/podgroup"
	"k8s.io/kubernetes/pkg/registry/scheduling/workload"

	"wasplan.local/oracle/core"
)

// CreateStrategies: the registry strategies of the kinds validate checks, the release's scheduling.k8s.io
// kinds (pkg/registry/scheduling/... of 1.38) on top of the shared ones (oracle/core/strategies.go).
func (adapter) CreateStrategies(namespaces core.NamespaceGetter) map[schema.GroupKind]rest.RESTCreateStrategy {
	strategies := core.SharedStrategies(namespaces)
	strategies[schema.GroupKind{Group: "scheduling.k8s.io", Kind: "Workload"}] = workload.Strategy
	strategies[schema.GroupKind{Group: "scheduling.k8s.io", Kind: "PodGroup"}] = podgroup.NewStrategy()
	strategies[schema.GroupKind{Group: "scheduling.k8s.io", Kind: "CompositePodGroup"}] = compositepodgroup.NewStrategy()
	return strategies
}

// JobController: 1.38's Job controller with the v1beta1 Workload and PodGroup informers it watches.
func (adapter) JobController(ctx context.Context, env *core.ControllerEnv) (func(context.Context), error) {
	f := env.Informers
	jm, err := jobcontroller.NewController(ctx, env.Client, f.Core().V1().Pods(), f.Batch().V1().Jobs(),
		f.Scheduling().V1beta1().Workloads(), f.Scheduling().V1beta1().PodGroups())
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context) { jm.Run(ctx, 1) }, nil
}
