package core

// expand.go: `oracle expand PATHS... --k8s-version 1.36|1.37 [--feature-gates ...] -o yaml`.
//
// The release's own Job controller (k8s.io/kubernetes/pkg/controller/job, with WorkloadWithJob and the rest of
// the gates given) runs in-process on a fake clientset, which holds the input's Workloads from the start (a 1.38
// Job may delegate its PodGroup to one; they are not printed). Each Job of the input is first put through the API
// server's create path (decode, defaulting, rest.BeforeCreate with the Job strategy, which also generates the
// selector and the controller-uid labels), then created; the controller then creates what it creates, and the
// oracle prints, as a List, the Workloads, PodGroups and Pods it finds once nothing has changed for a while.
//
// What the fake cannot do is done here, each time as a real API server would:
//   - names from generateName (the server appends five random characters; the oracle appends a counter spelt
//     in the same alphabet, so two runs give the same names);
//   - UIDs and creation timestamps, deterministic (`uid-<n>`);
//   - Workloads and PodGroups are refused (NotFound) when the gate that serves them is off
//     (pkg/registry/scheduling/rest/storage_scheduling.go), as a server without the storage would;
//   - when the input gives PriorityClasses (the cluster's classes), the Pods, PodGroups and CompositePodGroups
//     the controller creates go through Priority admission (plugin/pkg/admission/priority) after the scheme's
//     defaulting, as the server's create path runs them, and what it refuses is not created: a 1.37 PodGroup
//     naming a class whose preemptionPolicy is Never is defaulted to PreemptLowerPriority first and refused,
//     so the Job creates no pods (its controller retries). The stored objects are the controller's, defaulted;
//     the priority admission would write is left to `oracle plan`, which admits every object again. Without
//     PriorityClasses in the input, no class is checked.
//
// The Job controller is asynchronous by design (informers, a work queue, pod creation in parallel batches), so
// "done" is measured: no new write for quietPeriod after the last one, up to expandTimeout.

import (
	"context"
	"fmt"
	"io"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/apiserver/pkg/registry/rest"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/component-base/featuregate"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	sigsyaml "sigs.k8s.io/yaml"
)

// ControllerEnv is the fake API a controller runs against.
type ControllerEnv struct {
	Client    *fake.Clientset
	Informers informers.SharedInformerFactory

	mu      sync.Mutex
	created []createdRef // every object created through the client, in order
}

type createdRef struct {
	resource        schema.GroupVersionResource
	namespace, name string
}

const (
	quietPeriod   = 1500 * time.Millisecond
	expandTimeout = 60 * time.Second
)

var jobGVK = schema.GroupVersionKind{Group: "batch", Version: "v1", Kind: "Job"}

func runExpand(a Adapter, args []string, stdout, stderr io.Writer) int {
	server, docs, code := apiCommand(a, "expand", "yaml", args, stderr)
	if server == nil {
		return code
	}
	jobs, err := admitJobs(docs, server.CreateStrategies(adminNamespaces())[jobGVK.GroupKind()])
	if err != nil {
		return fail(stderr, &InputError{err.Error()})
	}
	adm, err := classAdmitter(docs)
	if err != nil {
		return fail(stderr, err)
	}
	if adm != nil {
		defer adm.stop()
	}
	workloads, err := inputWorkloads(docs)
	if err != nil {
		return fail(stderr, &InputError{err.Error()})
	}
	items, err := runJobController(server, jobs, workloads, adm)
	if err != nil {
		return fail(stderr, err)
	}
	out, err := sigsyaml.Marshal(map[string]any{"apiVersion": "v1", "kind": "List", "items": nonNil(items)})
	if err == nil {
		_, err = stdout.Write(out)
	}
	if err != nil {
		return fail(stderr, err)
	}
	return ExitOK
}

// runJobController creates the Jobs on a fresh fake API, runs the controller until it is quiet, and returns
// what it created.
func runJobController(server APIServerAdapter, jobs []*batchv1.Job, workloads []runtime.Object, adm *admitter) ([]map[string]any, error) {
	env := newControllerEnv(adm)
	for _, w := range workloads { // there before the controller starts, and not among what it created
		if err := env.Client.Tracker().Add(w); err != nil {
			return nil, fmt.Errorf("adding an input Workload: %w", err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	run, err := server.JobController(ctx, env)
	if err != nil {
		return nil, err
	}
	env.Informers.Start(ctx.Done())
	env.Informers.WaitForCacheSync(ctx.Done())
	for _, job := range jobs {
		if _, err := env.Client.BatchV1().Jobs(job.GetNamespace()).Create(ctx, job, metav1.CreateOptions{}); err != nil {
			return nil, fmt.Errorf("creating Job %s/%s: %w", job.GetNamespace(), job.GetName(), err)
		}
	}
	go run(ctx)
	waitQuiet(env.Client)
	cancel()
	return createdObjects(env)
}

// inputWorkloads: the input's Workloads, decoded as written, which a 1.38 Job's delegation annotations name
// (job_scheduling_manager.go getOrCreateDelegatedPodGroup); the version must be the one the release's controller
// lists (v1beta1 for 1.38).
func inputWorkloads(docs []apiDocument) ([]runtime.Object, error) {
	var out []runtime.Object
	for _, doc := range docs {
		if doc.Head.Kind != "Workload" || schema.FromAPIVersionAndKind(doc.Head.APIVersion, doc.Head.Kind).Group != "scheduling.k8s.io" {
			continue
		}
		obj, _, err := strictDecoder.Decode(doc.Data, nil, nil)
		if err != nil {
			return nil, fmt.Errorf("expand: %s document %d: %w", doc.File, doc.Index, err)
		}
		out = append(out, obj)
	}
	return out, nil
}

// servedByGate: the gate each scheduling.k8s.io resource needs to be served at all.
var servedByGate = map[string]featuregate.Feature{
	"workloads": "GenericWorkload", "podgroups": "GenericWorkload", "compositepodgroups": "CompositePodGroup",
}

// admittedResources are the created objects Priority admission looks at.
var admittedResources = map[string]bool{"pods": true, "podgroups": true, "compositepodgroups": true}

// classAdmitter is Priority admission over the input's PriorityClasses, nil when it gives none.
func classAdmitter(docs []apiDocument) (*admitter, error) {
	var classes []Doc
	for _, doc := range docs {
		if doc.Head.Kind != "PriorityClass" {
			continue
		}
		var obj map[string]interface{}
		if err := sigsyaml.Unmarshal(doc.Data, &obj); err != nil {
			return nil, &InputError{fmt.Sprintf("expand: %s document %d: %v", doc.File, doc.Index, err)}
		}
		classes = append(classes, Doc{File: doc.File, Index: doc.Index + 1, Obj: obj})
	}
	if len(classes) == 0 {
		return nil, nil
	}
	return newAdmitter(classes)
}

// admitCreated runs the server's defaulting and admission on a copy of an object the controller creates;
// the refusal, if any, is the create's answer.
func admitCreated(adm *admitter, obj runtime.Object, resource schema.GroupVersionResource, name string) error {
	if adm == nil || !admittedResources[resource.Resource] {
		return nil
	}
	obj = obj.DeepCopyObject()
	kinds, _, err := legacyscheme.Scheme.ObjectKinds(obj)
	if err != nil || len(kinds) == 0 {
		return nil
	}
	internal, err := defaultAndConvert(obj, kinds[0])
	if err != nil {
		return nil
	}
	return adm.admitObject(internal, kinds[0], resource, name)
}

func newControllerEnv(adm *admitter) *ControllerEnv {
	watch.DefaultChanSize = 100000 // the fake's watchers panic when their buffer fills
	client := fake.NewClientset()
	env := &ControllerEnv{Client: client, Informers: informers.NewSharedInformerFactory(client, 0)}
	var names, uids atomic.Int64
	client.PrependReactor("create", "*", func(action clienttesting.Action) (bool, runtime.Object, error) {
		create := action.(clienttesting.CreateAction)
		resource := create.GetResource()
		if gate, ok := servedByGate[resource.Resource]; ok && resource.Group == "scheduling.k8s.io" &&
			!utilfeature.DefaultFeatureGate.Enabled(gate) {
			return true, nil, apierrors.NewNotFound(resource.GroupResource(), "")
		}
		accessor, err := meta.Accessor(create.GetObject())
		if err != nil {
			return false, nil, nil
		}
		if accessor.GetName() == "" && accessor.GetGenerateName() != "" {
			accessor.SetName(accessor.GetGenerateName() + generatedSuffix(names.Add(1)))
		}
		if accessor.GetUID() == "" {
			accessor.SetUID(types.UID(fmt.Sprintf("uid-%d", uids.Add(1))))
		}
		if created := accessor.GetCreationTimestamp(); created.IsZero() {
			accessor.SetCreationTimestamp(metav1.Unix(1_800_000_000, 0))
		}
		if create.GetSubresource() == "" {
			if err := admitCreated(adm, create.GetObject(), resource, accessor.GetName()); err != nil {
				return true, nil, err
			}
		}
		if create.GetSubresource() == "" {
			env.mu.Lock()
			env.created = append(env.created, createdRef{resource, create.GetNamespace(), accessor.GetName()})
			env.mu.Unlock()
		}
		return false, nil, nil
	})
	return env
}

// generatedSuffix spells n in five letters of the server's alphabet (nameAlphabet, claims.go).
func generatedSuffix(n int64) string {
	out := make([]byte, 5)
	for i := 4; i >= 0; i-- {
		out[i] = nameAlphabet[n%int64(len(nameAlphabet))]
		n /= int64(len(nameAlphabet))
	}
	return string(out)
}

// admitJobs puts every Job of the input through the server's create path and returns them as batch/v1 objects
// to create; other kinds are not the Job controller's and are left out.
func admitJobs(docs []apiDocument, strategy rest.RESTCreateStrategy) ([]*batchv1.Job, error) {
	var jobs []*batchv1.Job
	for n, doc := range docs {
		if doc.Head.APIVersion != jobGVK.GroupVersion().String() || doc.Head.Kind != jobGVK.Kind {
			continue
		}
		obj, _, err := strictDecoder.Decode(doc.Data, nil, nil)
		if err != nil {
			return nil, fmt.Errorf("expand: %s document %d: %w", doc.File, doc.Index, err)
		}
		internal, err := defaultAndConvert(obj, jobGVK)
		if err != nil {
			return nil, err
		}
		if errs := createErrors(internal, jobGVK, strategy, types.UID(fmt.Sprintf("job-uid-%d", n))); len(errs) > 0 {
			return nil, fmt.Errorf("expand: %s document %d: the API server rejects this Job: %s: %s",
				doc.File, doc.Index, errs[0].Field, errs[0].Message)
		}
		external, err := legacyscheme.Scheme.ConvertToVersion(internal, jobGVK.GroupVersion())
		if err != nil {
			return nil, err
		}
		job, ok := external.(*batchv1.Job)
		if !ok {
			return nil, fmt.Errorf("expand: %s document %d: decoded as %T", doc.File, doc.Index, external)
		}
		jobs = append(jobs, job)
	}
	return jobs, nil
}

// waitQuiet returns once the client has seen no new action for quietPeriod (or after expandTimeout).
func waitQuiet(client *fake.Clientset) {
	deadline := time.Now().Add(expandTimeout)
	last, lastChange := -1, time.Now()
	for time.Now().Before(deadline) {
		n := len(client.Actions())
		if n != last {
			last, lastChange = n, time.Now()
		} else if time.Since(lastChange) >= quietPeriod {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

var createdKinds = map[string]string{"workloads": "Workload", "podgroups": "PodGroup", "compositepodgroups": "CompositePodGroup", "pods": "Pod"}
var kindOrder = map[string]int{"Workload": 0, "CompositePodGroup": 1, "PodGroup": 2, "Pod": 3}

// createdObjects: the final state of every Workload, PodGroup and Pod the controller created, as the tracker
// holds them, without the fake's bookkeeping (managedFields, resourceVersion).
func createdObjects(env *ControllerEnv) ([]map[string]any, error) {
	env.mu.Lock()
	refs := append([]createdRef(nil), env.created...)
	env.mu.Unlock()
	seen := map[createdRef]bool{}
	var items []map[string]any
	for _, ref := range refs {
		kind, ok := createdKinds[ref.resource.Resource]
		if !ok || seen[ref] {
			continue
		}
		seen[ref] = true
		stored, err := env.Client.Tracker().Get(ref.resource, ref.namespace, ref.name)
		if err != nil {
			continue // refused, or deleted again
		}
		stored = stored.DeepCopyObject()
		legacyscheme.Scheme.Default(stored) // what the API server stores: the controller's pods defaulted
		content, err := runtime.DefaultUnstructuredConverter.ToUnstructured(stored)
		if err != nil {
			return nil, err
		}
		content["apiVersion"] = ref.resource.GroupVersion().String()
		content["kind"] = kind
		metadata, _ := content["metadata"].(map[string]any)
		delete(metadata, "managedFields")
		delete(metadata, "resourceVersion")
		items = append(items, content)
	}
	sort.SliceStable(items, func(i, j int) bool {
		ki, kj := kindOrder[items[i]["kind"].(string)], kindOrder[items[j]["kind"].(string)]
		if ki != kj {
			return ki < kj
		}
		return objectKey(items[i]) < objectKey(items[j])
	})
	return items, nil
}

func objectKey(obj map[string]any) string {
	metadata, _ := obj["metadata"].(map[string]any)
	ns, _ := metadata["namespace"].(string)
	name, _ := metadata["name"].(string)
	return ns + "/" + name
}
