package main

// Workloads from Jobs and JobSets, as Kueue's job reconciler builds them on creation: ConstructWorkload (the
// name GetWorkloadNameForOwnerWithGVK gives, "<kind>-<name>-<hash>", PodSets from the integration, the owner
// reference, the job-uid label) then PrepareWorkloadPriority (WorkloadPriorityClass label, else the pods'
// PriorityClass) (KDIR/pkg/controller/jobframework/reconciler.go, constructWorkload and prepareWorkload;
// pkg/controller/jobs/job, pkg/controller/jobs/jobset).
//
// What the API server would add, done here deterministically:
//   - the name of an object given only generateName: the prefix and five characters of the server's
//     alphabet from an FNV-1a hash of kind, namespace, prefix and how many came before (wasplan's
//     src/wasplan/cluster/controllers/names.py, so both name the object alike);
//   - the UID, which the Workload's name hashes: "uid-<namespace>-<name>" (manifests carry none);
//   - the creation timestamp: input order, one second apart from baseTime, so no two workloads tie;
//   - batch/v1 Job defaults Kueue relies on (parallelism and completions default to 1), and a JobSet's
//     replicatedJobs[].replicas default of 1.

import (
	"context"
	"fmt"
	"hash/fnv"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	jobsetapi "sigs.k8s.io/jobset/api/jobset/v1alpha2"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	"sigs.k8s.io/kueue/pkg/controller/jobframework"
	"sigs.k8s.io/kueue/pkg/controller/jobs/job"
	"sigs.k8s.io/kueue/pkg/controller/jobs/jobset"
)

const queueNameLabel = "kueue.x-k8s.io/queue-name"

// baseTime is the creation time of the first object of the input; later ones follow a second apart.
var baseTime = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

var ownerKinds = map[schema.GroupKind]bool{
	{Group: "batch", Kind: "Job"}:                                true,
	{Group: "jobset.x-k8s.io", Kind: "JobSet"}:                   true,
	{Group: "apps", Kind: "Deployment"}:                          true,
	{Group: "apps", Kind: "StatefulSet"}:                         true,
	{Group: "leaderworkerset.x-k8s.io", Kind: "LeaderWorkerSet"}: true,
}

func isOwnerKind(gvk schema.GroupVersionKind) bool { return ownerKinds[gvk.GroupKind()] }

// safeAlphabet is k8s.io/apimachinery/pkg/util/rand's alphabet, the one generateName suffixes use.
const safeAlphabet = "bcdfghjklmnpqrstvwxz2456789"

// namer names objects given only generateName, as wasplan's Namer does.
type namer map[string]int

func (n namer) name(kind, namespace, prefix string) string {
	key := kind + "/" + namespace + "/" + prefix
	i := n[key]
	n[key] = i + 1
	h := fnv.New32a()
	fmt.Fprintf(h, "%s#%d", key, i)
	digits := fmt.Sprintf("%05d", h.Sum32())
	enc := make([]byte, len(digits))
	for k := range digits {
		enc[k] = safeAlphabet[int(digits[k])%len(safeAlphabet)]
	}
	return prefix + string(enc[len(enc)-5:])
}

// stamp gives obj what the API server would: a name, a namespace, a UID and a creation time (seq seconds
// after baseTime), keeping what the input already has.
func stamp(obj client.Object, kind string, seq int, names namer) {
	if obj.GetNamespace() == "" {
		obj.SetNamespace("default")
	}
	if obj.GetName() == "" && obj.GetGenerateName() != "" {
		obj.SetName(names.name(kind, obj.GetNamespace(), obj.GetGenerateName()))
	}
	if obj.GetUID() == "" {
		obj.SetUID(types.UID("uid-" + obj.GetNamespace() + "-" + obj.GetName()))
	}
	if created := obj.GetCreationTimestamp(); created.IsZero() {
		obj.SetCreationTimestamp(metav1.NewTime(baseTime.Add(time.Duration(seq) * time.Second)))
	}
}

func defaultJobSpec(spec *batchv1.JobSpec) {
	if spec.Parallelism == nil {
		spec.Parallelism = ptr.To[int32](1)
		if spec.Completions == nil {
			spec.Completions = ptr.To[int32](1)
		}
	}
}

// genericJob wraps an input object in Kueue's integration for it.
func genericJob(obj client.Object) (jobframework.GenericJob, error) {
	switch o := obj.(type) {
	case *batchv1.Job:
		defaultJobSpec(&o.Spec)
		return (*job.Job)(o), nil
	case *jobsetapi.JobSet:
		for i := range o.Spec.ReplicatedJobs {
			rj := &o.Spec.ReplicatedJobs[i]
			if rj.Replicas == 0 {
				rj.Replicas = 1
			}
			defaultJobSpec(&rj.Template.Spec)
		}
		return (*jobset.JobSet)(o), nil
	}
	return nil, fmt.Errorf("no Kueue integration for %T", obj)
}

// ownerRef is the object a Workload was built from, for the output.
type ownerRef struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace"`
	Name       string `json:"name"`
}

// constructWorkload builds the Workload Kueue's reconciler would create for obj; cl must already hold the
// priority classes.
func constructWorkload(ctx context.Context, cl client.Client, obj client.Object) (*kueue.Workload, *ownerRef, error) {
	gj, err := genericJob(obj)
	if err != nil {
		return nil, nil, err
	}
	wl, err := jobframework.ConstructWorkload(ctx, cl, gj, nil)
	if err != nil {
		return nil, nil, err
	}
	var customPriority func() string
	if jp, ok := gj.(jobframework.JobWithPriorityClass); ok {
		customPriority = jp.PriorityClass
	}
	if err := jobframework.PrepareWorkloadPriority(ctx, cl, obj, wl, customPriority); err != nil {
		return nil, nil, err
	}
	wl.CreationTimestamp = obj.GetCreationTimestamp()
	wl.UID = types.UID("uid-" + wl.Namespace + "-" + wl.Name)
	gvk := gj.GVK()
	return wl, &ownerRef{APIVersion: gvk.GroupVersion().String(), Kind: gvk.Kind, Namespace: obj.GetNamespace(), Name: obj.GetName()}, nil
}
