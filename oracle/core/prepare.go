package core

// What happens to an object between `kubectl apply` and the scheduler's informers, done with upstream code
// where upstream has it as a library:
//
//   - decoding and defaulting through the API server's scheme (k8s.io/kubernetes/pkg/api/legacyscheme with
//     pkg/apis/*/install: SetDefaults_Pod fills container requests from limits, schedulerName, ...), then
//     conversion to the version the scheduler watches (through the internal version, as the server stores it);
//   - the admission plugins that change what the scheduler sees, run as libraries on the internal object
//     (admission.go): Priority (plugin/pkg/admission/priority: priorityClassName -> spec.priority and
//     preemptionPolicy for Pods, PodGroups and CompositePodGroups, the globalDefault class, the two system
//     classes; an unknown class refuses the object) and DefaultTolerationSeconds (the not-ready and
//     unreachable NoExecute tolerations for 300 s);
//   - the API server's metadata: a UID and a creationTimestamp for every object, in input order;
//   - the ResourceClaim controller (pkg/controller/resourceclaim/controller.go): one claim per pod entry that
//     names a ResourceClaimTemplate, and per PodGroup template entry with DRAWorkloadResourceClaims (claims.go).

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/kubernetes/pkg/api/legacyscheme"

	_ "k8s.io/kubernetes/pkg/apis/core/install"
	_ "k8s.io/kubernetes/pkg/apis/policy/install"
	_ "k8s.io/kubernetes/pkg/apis/resource/install"
	_ "k8s.io/kubernetes/pkg/apis/scheduling/install"
)

type kindInfo struct {
	group      string
	version    string // the version the scheduler watches; "" = ask the adapter
	resource   string
	namespaced bool
}

// readKinds are the kinds the scheduler sees; anything else in the input is refused.
var readKinds = map[string]kindInfo{
	"Namespace":             {"", "v1", "namespaces", false},
	"Node":                  {"", "v1", "nodes", false},
	"Pod":                   {"", "v1", "pods", true},
	"PriorityClass":         {"scheduling.k8s.io", "v1", "priorityclasses", false},
	"PodDisruptionBudget":   {"policy", "v1", "poddisruptionbudgets", true},
	"DeviceClass":           {"resource.k8s.io", "v1", "deviceclasses", false},
	"ResourceSlice":         {"resource.k8s.io", "v1", "resourceslices", false},
	"ResourceClaim":         {"resource.k8s.io", "v1", "resourceclaims", true},
	"ResourceClaimTemplate": {"resource.k8s.io", "v1", "resourceclaimtemplates", true},
	"DeviceTaintRule":       {"resource.k8s.io", "", "devicetaintrules", false},
	"Workload":              {"scheduling.k8s.io", "", "workloads", true},
	"PodGroup":              {"scheduling.k8s.io", "", "podgroups", true},
	"CompositePodGroup":     {"scheduling.k8s.io", "", "compositepodgroups", true},
}

// Object is one input object ready to be created: typed, defaulted, in the version the scheduler watches.
type Object struct {
	Doc     Doc
	Kind    string
	GVR     schema.GroupVersionResource
	Obj     runtime.Object
	Created bool // made by the oracle (a claim from a template), not given in the input
}

func (o *Object) Meta() metav1.Object {
	m, _ := o.Obj.(metav1.Object)
	return m
}

func (o *Object) Key() string {
	m := o.Meta()
	if m.GetNamespace() == "" {
		return o.Kind + "/" + m.GetName()
	}
	return o.Kind + "/" + m.GetNamespace() + "/" + m.GetName()
}

// BaseTime is the creationTimestamp of the first object; each later one is a second after the one before.
var BaseTime = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func checkKind(a Adapter, d Doc) (kindInfo, error) {
	kind, api := d.Kind(), d.APIVersion()
	if api == "wasplan.io/v1alpha1" && kind == "Cluster" {
		return kindInfo{}, &InputError{fmt.Sprintf("%s: kind Cluster (wasplan.io/v1alpha1) is wasplan's compact cluster "+
			"description; give the oracle the Kubernetes objects it stands for (tests/oracle/conftest.py expands it "+
			"with wasplan)", d.Where())}
	}
	info, ok := readKinds[kind]
	gv, err := schema.ParseGroupVersion(api)
	if !ok || err != nil || gv.Group != info.group {
		return kindInfo{}, &InputError{fmt.Sprintf("%s: kind %s (%s) is not one the oracle reads; it reads Node, Pod, "+
			"Namespace, PriorityClass, PodDisruptionBudget, PodGroup, CompositePodGroup, Workload, ResourceSlice, "+
			"DeviceClass, ResourceClaim, ResourceClaimTemplate, DeviceTaintRule", d.Where(), kind, api)}
	}
	if info.version == "" {
		info.version = a.SchedulingVersion(kind)
		if info.version == "" {
			return kindInfo{}, &InputError{fmt.Sprintf("%s: Kubernetes %s has no %s", d.Where(), a.Release(), kind)}
		}
	}
	if d.Name() == "" {
		return kindInfo{}, &InputError{fmt.Sprintf("%s: %s has no metadata.name", d.Where(), kind)}
	}
	return info, nil
}

// toTyped decodes a document in its own version, defaults it there, converts it to the internal version, runs
// admission on it, and converts it to `target`, defaulting again in that version, as the API server does on
// create and read.
func toTyped(d Doc, target schema.GroupVersion, adm *admitter, resource string) (runtime.Object, error) {
	data, err := json.Marshal(d.Obj)
	if err != nil {
		return nil, &InputError{fmt.Sprintf("%s: %v", d.Where(), err)}
	}
	in, gvk, err := legacyscheme.Codecs.UniversalDeserializer().Decode(data, nil, nil)
	if err != nil {
		return nil, &InputError{fmt.Sprintf("%s: %s %s: %v", d.Where(), d.APIVersion(), d.Kind(), shortDecodeError(err))}
	}
	if removed := removedError(*gvk); removed != nil { // the API server would refuse the create (validate.go)
		return nil, &InputError{fmt.Sprintf("%s: %s", d.Where(), removed.Message)}
	}
	legacyscheme.Scheme.Default(in)
	internal, err := legacyscheme.Scheme.New(schema.GroupVersionKind{Group: gvk.Group, Version: runtime.APIVersionInternal, Kind: gvk.Kind})
	if err != nil {
		return nil, &InputError{fmt.Sprintf("%s: %v", d.Where(), err)}
	}
	if err := legacyscheme.Scheme.Convert(in, internal, nil); err != nil {
		return nil, &InputError{fmt.Sprintf("%s: converting %s to the internal version: %v", d.Where(), gvk, err)}
	}
	if err := adm.admit(internal, gvk, target.WithResource(resource), d); err != nil {
		return nil, err
	}
	out, err := legacyscheme.Scheme.ConvertToVersion(internal, target)
	if err != nil {
		return nil, &InputError{fmt.Sprintf("%s: converting %s to %s: %v", d.Where(), gvk, target, err)}
	}
	legacyscheme.Scheme.Default(out)
	return out, nil
}

func shortDecodeError(err error) string {
	s := err.Error()
	if strings.Contains(s, "no kind") && strings.Contains(s, "registered") {
		return "not served by this release"
	}
	return s
}

// stamp gives an object the UID (when it has none) and creation time of its position in the input.
func stamp(m metav1.Object, seq int, uid string) {
	if m.GetUID() == "" {
		if uid == "" {
			uid = fmt.Sprintf("00000000-0000-4000-8000-%012d", seq)
		}
		m.SetUID(types.UID(uid))
	}
	if ts := m.GetCreationTimestamp(); ts.IsZero() {
		m.SetCreationTimestamp(metav1.NewTime(BaseTime.Add(time.Duration(seq) * time.Second)))
	}
	m.SetResourceVersion("")
	m.SetManagedFields(nil)
}

// Prepare turns the documents into the objects to create, in creation order: Namespaces the input names but
// does not define come first, then everything in input order with each pod's template claims right before it.
func Prepare(a Adapter, docs []Doc, gates map[string]bool) ([]*Object, error) {
	adm, err := newAdmitter(docs)
	if err != nil {
		return nil, err
	}
	defer adm.stop()
	var objs []*Object
	seen := map[string]bool{}
	namespaces := map[string]bool{}
	for _, d := range docs {
		info, err := checkKind(a, d)
		if err != nil {
			return nil, err
		}
		if info.namespaced {
			meta := d.meta()
			if d.Namespace() == "" {
				meta["namespace"] = "default"
			}
			namespaces[d.Namespace()] = true
		} else if d.Namespace() != "" {
			delete(d.meta(), "namespace")
		}
		gv := schema.GroupVersion{Group: info.group, Version: info.version}
		obj, err := toTyped(d, gv, adm, info.resource)
		if err != nil {
			return nil, err
		}
		if p, ok := obj.(*corev1.Pod); ok {
			gatedAtCreation(p)
			if p.Status.Phase == "" {
				p.Status.Phase = corev1.PodPending
			}
			if p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed {
				continue // the scheduler's pod informer never lists terminal pods
			}
		}
		o := &Object{Doc: d, Kind: d.Kind(), GVR: gv.WithResource(info.resource), Obj: obj}
		if seen[o.Key()] {
			return nil, &InputError{fmt.Sprintf("%s: %s is defined twice", d.Where(), o.Key())}
		}
		seen[o.Key()] = true
		objs = append(objs, o)
	}
	var out []*Object
	var nsNames []string
	for ns := range namespaces {
		if !seen["Namespace/"+ns] {
			nsNames = append(nsNames, ns)
		}
	}
	sort.Strings(nsNames)
	for _, ns := range nsNames {
		n := &corev1.Namespace{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Namespace"},
			ObjectMeta: metav1.ObjectMeta{Name: ns, Labels: map[string]string{"kubernetes.io/metadata.name": ns}}}
		out = append(out, &Object{Doc: Doc{File: "<namespace>", Cluster: true}, Kind: "Namespace",
			GVR: corev1.SchemeGroupVersion.WithResource("namespaces"), Obj: n, Created: true})
	}
	out = append(out, objs...)
	for i, o := range out {
		stamp(o.Meta(), i+1, "")
		if n, ok := o.Obj.(*corev1.Namespace); ok {
			if n.Labels == nil {
				n.Labels = map[string]string{}
			}
			n.Labels["kubernetes.io/metadata.name"] = n.Name
		}
		if p, ok := o.Obj.(*corev1.Pod); ok && p.Spec.NodeName != "" {
			if p.Status.Phase == corev1.PodPending {
				p.Status.Phase = corev1.PodRunning
			}
			if p.Status.StartTime == nil {
				t := p.CreationTimestamp
				p.Status.StartTime = &t
			}
		}
	}
	disruptionStatus(out)
	return withClaims(a, out, gates)
}

// disruptionStatus is the disruption controller's status for each PodDisruptionBudget
// (pkg/controller/disruption/disruption.go), over the input's running pods (those with spec.nodeName, all
// counted healthy): expectedPods = matching pods; desiredHealthy = minAvailable, or expectedPods -
// maxUnavailable (integers or percentages of expectedPods, rounded up as the controller does);
// disruptionsAllowed = currentHealthy - desiredHealthy, at least 0. DefaultPreemption reads only this status.
func disruptionStatus(objs []*Object) {
	for _, o := range objs {
		pdb, ok := o.Obj.(*policyv1.PodDisruptionBudget)
		if !ok {
			continue
		}
		sel, err := metav1.LabelSelectorAsSelector(pdb.Spec.Selector)
		if err != nil || pdb.Spec.Selector == nil {
			continue
		}
		var healthy int32
		for _, q := range objs {
			p, ok := q.Obj.(*corev1.Pod)
			if ok && p.Namespace == pdb.Namespace && p.Spec.NodeName != "" && sel.Matches(labels.Set(p.Labels)) {
				healthy++
			}
		}
		desired := int32(0)
		switch {
		case pdb.Spec.MinAvailable != nil:
			v, err := intstr.GetScaledValueFromIntOrPercent(pdb.Spec.MinAvailable, int(healthy), true)
			if err == nil {
				desired = int32(v)
			}
		case pdb.Spec.MaxUnavailable != nil:
			v, err := intstr.GetScaledValueFromIntOrPercent(pdb.Spec.MaxUnavailable, int(healthy), true)
			if err == nil {
				desired = healthy - int32(v)
			}
		}
		if desired < 0 {
			desired = 0
		}
		allowed := healthy - desired
		if allowed < 0 {
			allowed = 0
		}
		pdb.Status = policyv1.PodDisruptionBudgetStatus{ObservedGeneration: pdb.Generation, DisruptedPods: nil,
			DisruptionsAllowed: allowed, CurrentHealthy: healthy, DesiredHealthy: desired, ExpectedPods: healthy}
	}
}

// gatedAtCreation is what the pod registry does for a pod created with schedulingGates
// (pkg/registry/core/pod/strategy.go): the PodScheduled=False condition with reason SchedulingGated.
func gatedAtCreation(p *corev1.Pod) {
	if len(p.Spec.SchedulingGates) == 0 {
		return
	}
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodScheduled {
			return
		}
	}
	p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: corev1.PodScheduled,
		Status: corev1.ConditionFalse, Reason: corev1.PodReasonSchedulingGated,
		Message: "Scheduling is blocked due to non-empty scheduling gates"})
}
