package core

// The registry strategies of the kinds whose API is the same in every release the oracle is built for (the
// core, batch and resource.k8s.io kinds validate checks), compiled against the main module's
// k8s.io/kubernetes pkg/registry/...: each adapter's CreateStrategies adds its own scheduling.k8s.io kinds to
// these (oracle/k8s136/apiserver.go, oracle/k8s137/apiserver.go).

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/authorization/authorizerfactory"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/kubernetes/pkg/registry/batch/job"
	"k8s.io/kubernetes/pkg/registry/core/pod"
	"k8s.io/kubernetes/pkg/registry/resource/deviceclass"
	"k8s.io/kubernetes/pkg/registry/resource/resourceclaim"
	"k8s.io/kubernetes/pkg/registry/resource/resourceclaimtemplate"
	"k8s.io/kubernetes/pkg/registry/resource/resourceslice"
	"k8s.io/kubernetes/pkg/registry/scheduling/priorityclass"
)

// SharedStrategies are the create strategies of Pod, Job, PriorityClass and the DRA kinds; the DRA
// strategies read a claim's namespace through `namespaces` and authorise everything.
func SharedStrategies(namespaces NamespaceGetter) map[schema.GroupKind]rest.RESTCreateStrategy {
	return map[schema.GroupKind]rest.RESTCreateStrategy{
		{Group: "scheduling.k8s.io", Kind: "PriorityClass"}: priorityclass.Strategy,
		{Group: "", Kind: "Pod"}:                            pod.Strategy,
		{Group: "batch", Kind: "Job"}:                       job.Strategy,
		{Group: "resource.k8s.io", Kind: "ResourceClaim"}: resourceclaim.NewStrategy(namespaces,
			authorizerfactory.NewAlwaysAllowAuthorizer()),
		{Group: "resource.k8s.io", Kind: "ResourceClaimTemplate"}: resourceclaimtemplate.NewStrategy(namespaces),
		{Group: "resource.k8s.io", Kind: "DeviceClass"}:           deviceclass.Strategy,
		{Group: "resource.k8s.io", Kind: "ResourceSlice"}:         resourceslice.Strategy,
	}
}
