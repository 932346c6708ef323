package main

// The API-server part of the 1.37 adapter: registry strategies and the Job controller for the oracle's
// validate, convert and expand (oracle/core/validate.go, expand.go).

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/authorization/authorizerfactory"
	"k8s.io/apiserver/pkg/registry/rest"
	jobcontroller "k8s.io/kubernetes/pkg/controller/job"
	"k8s.io/kubernetes/pkg/registry/batch/job"
	"k8s.io/kubernetes/pkg/registry/core/pod"
	"k8s.io/kubernetes/pkg/registry/resource/deviceclass"
	"k8s.io/kubernetes/pkg/registry/resource/resourceclaim"
	"k8s.io/kubernetes/pkg/registry/resource/resourceclaimtemplate"
	"k8s.io/kubernetes/pkg/registry/resource/resourceslice"
	"k8s.io/kubernetes/pkg/registry/scheduling/compositepodgroup"
	"k8s.io/kubernetes/pkg/registry/scheduling/podgroup"
	"k8s.io/kubernetes/pkg/registry/scheduling/priorityclass"
	"k8s.io/kubernetes/pkg/registry/scheduling/workload"

	"wasplan.local/oracle/core"
)

// CreateStrategies: the registry strategies of the kinds validate checks (pkg/registry/... of 1.37).
func (adapter) CreateStrategies(namespaces core.NamespaceGetter) map[schema.GroupKind]rest.RESTCreateStrategy {
	return map[schema.GroupKind]rest.RESTCreateStrategy{
		{Group: "scheduling.k8s.io", Kind: "Workload"}:          workload.Strategy,
		{Group: "scheduling.k8s.io", Kind: "PodGroup"}:          podgroup.NewStrategy(),
		{Group: "scheduling.k8s.io", Kind: "CompositePodGroup"}: compositepodgroup.NewStrategy(),
		{Group: "scheduling.k8s.io", Kind: "PriorityClass"}:     priorityclass.Strategy,
		{Group: "", Kind: "Pod"}:                                pod.Strategy,
		{Group: "batch", Kind: "Job"}:                           job.Strategy,
		{Group: "resource.k8s.io", Kind: "ResourceClaim"}: resourceclaim.NewStrategy(namespaces,
			authorizerfactory.NewAlwaysAllowAuthorizer()),
		{Group: "resource.k8s.io", Kind: "ResourceClaimTemplate"}: resourceclaimtemplate.NewStrategy(namespaces),
		{Group: "resource.k8s.io", Kind: "DeviceClass"}:           deviceclass.Strategy,
		{Group: "resource.k8s.io", Kind: "ResourceSlice"}:         resourceslice.Strategy,
	}
}

// JobController: 1.37's Job controller with the v1beta1 Workload and PodGroup informers it watches.
func (adapter) JobController(ctx context.Context, env *core.ControllerEnv) (func(context.Context), error) {
	f := env.Informers
	jm, err := jobcontroller.NewController(ctx, env.Client, f.Core().V1().Pods(), f.Batch().V1().Jobs(),
		f.Scheduling().V1beta1().Workloads(), f.Scheduling().V1beta1().PodGroups())
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context) { jm.Run(ctx, 1) }, nil
}
