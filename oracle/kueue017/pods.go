package main

// Workloads of Kueue's pod-based integrations (plain Pods and pod groups, Deployment, StatefulSet) and of
// LeaderWorkerSet, built by Kueue's own code:
//   - a plain Pod: the pod integration's GenericJob (pod.FromObject) through jobframework.ConstructWorkload, then
//     PrepareWorkloadPriority (KDIR/pkg/controller/jobs/pod/pod_controller.go);
//   - a pod group: pod.NewPod's Load on the "group/<namespace>" key and ConstructComposableWorkload, over a client
//     holding the group's pods and Kueue's pod-group index;
//   - a Deployment: the pods its controller creates, as its webhook leaves them (queue name, priority-class label,
//     suspended-by-parent annotation; KDIR/pkg/controller/jobs/deployment/deployment_webhook.go), each a plain Pod;
//   - a StatefulSet and a LeaderWorkerSet: their own reconcilers' Reconcile, which create the Workloads
//     (KDIR/pkg/controller/jobs/statefulset/statefulset_reconciler.go, leaderworkerset/leaderworkerset_reconciler.go).
//
// What the API server and the controllers would add, done here as wasplan does it:
//   - a Deployment's pods are named `<deployment>-<template hash>-<i>` as wasplan's controller names them
//     (src/wasplan/cluster/controllers/names.py template_hash: FNV-1a of the template's canonical JSON);
//   - UIDs `uid-<namespace>-<name>`; creation times one second apart in input order, a Deployment's pods and a
//     LeaderWorkerSet's groups taking one each, a pod group the time of its first pod;
//   - the stored pod spec the role hash reads: spec.priority from the PriorityClass (else the global default,
//     else 0), a container port's protocol TCP, a missing request taken from the limit;
//   - a plain Pod is managed only outside kube-system and kueue-system (the default managed-jobs namespace
//     selector, KDIR/apis/config/v1beta2/defaults.go).

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"sort"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	"sigs.k8s.io/kueue/pkg/controller/jobframework"
	"sigs.k8s.io/kueue/pkg/controller/jobs/leaderworkerset"
	"sigs.k8s.io/kueue/pkg/controller/jobs/pod"
	podconstants "sigs.k8s.io/kueue/pkg/controller/jobs/pod/constants"
	"sigs.k8s.io/kueue/pkg/controller/jobs/statefulset"
	"sigs.k8s.io/kueue/pkg/util/expectations"
	utiltesting "sigs.k8s.io/kueue/pkg/util/testing"
	lwsapi "sigs.k8s.io/lws/api/leaderworkerset/v1"
)

const (
	podGroupLabel      = "kueue.x-k8s.io/pod-group-name"
	priorityClassLabel = "kueue.x-k8s.io/priority-class"
)

// templateQueued are the kinds whose pods Kueue's pod webhook manages by their template's queue label alone.
var templateQueued = map[schema.GroupKind]bool{
	{Group: "apps", Kind: "Deployment"}: true, {Group: "apps", Kind: "ReplicaSet"}: true,
	{Group: "apps", Kind: "StatefulSet"}: true, {Group: "leaderworkerset.x-k8s.io", Kind: "LeaderWorkerSet"}: true,
}

var unmanagedNamespaces = map[string]bool{"kube-system": true, "kueue-system": true}

// built is one Workload and the object it names as its owner.
type built struct {
	wl    *kueue.Workload
	owner *ownerRef
}

// podBuilder builds the Workloads of the pod-based integrations on a client holding the priority classes.
type podBuilder struct {
	ctx     context.Context
	cl      client.Client
	core    []client.Object
	groups  map[types.NamespacedName][]*corev1.Pod
	order   []types.NamespacedName
	created map[types.NamespacedName]time.Time
}

// priorityOf is what the Priority admission plugin stores in spec.priority.
func (b *podBuilder) priorityOf(spec *corev1.PodSpec) int32 {
	var def *int32
	for _, o := range b.core {
		pc, ok := o.(*schedulingv1.PriorityClass)
		if !ok {
			continue
		}
		if spec.PriorityClassName != "" && pc.Name == spec.PriorityClassName {
			return pc.Value
		}
		if pc.GlobalDefault && (def == nil || pc.Value < *def) {
			def = ptr.To(pc.Value)
		}
	}
	return ptr.Deref(def, 0)
}

// storePod applies what the API server stores before Kueue's webhook reads the pod.
func (b *podBuilder) storePod(p *corev1.Pod) {
	if p.Spec.Priority == nil {
		p.Spec.Priority = ptr.To(b.priorityOf(&p.Spec))
	}
	for _, cs := range [][]corev1.Container{p.Spec.InitContainers, p.Spec.Containers} {
		for i := range cs {
			c := &cs[i]
			for j := range c.Ports {
				if c.Ports[j].Protocol == "" {
					c.Ports[j].Protocol = corev1.ProtocolTCP
				}
			}
			for name, q := range c.Resources.Limits {
				if c.Resources.Requests == nil {
					c.Resources.Requests = corev1.ResourceList{}
				}
				if _, ok := c.Resources.Requests[name]; !ok {
					c.Resources.Requests[name] = q.DeepCopy()
				}
			}
		}
	}
}

// singlePod builds the Workload of a pod without a group label.
func (b *podBuilder) singlePod(p *corev1.Pod) (built, error) {
	b.storePod(p)
	gj := pod.FromObject(p)
	wl, err := jobframework.ConstructWorkload(b.ctx, b.cl, gj, nil)
	if err != nil {
		return built{}, err
	}
	if err := jobframework.PrepareWorkloadPriority(b.ctx, b.cl, p, wl, nil); err != nil {
		return built{}, err
	}
	wl.CreationTimestamp = p.CreationTimestamp
	wl.UID = types.UID("uid-" + wl.Namespace + "-" + wl.Name)
	return built{wl, &ownerRef{APIVersion: "v1", Kind: "Pod", Namespace: p.Namespace, Name: p.Name}}, nil
}

// addPod takes a queued plain pod: a single-pod Workload, or a member of its group (built by groupsDone).
func (b *podBuilder) addPod(p *corev1.Pod) ([]built, error) {
	group := p.Labels[podGroupLabel]
	if group == "" {
		one, err := b.singlePod(p)
		return []built{one}, err
	}
	b.storePod(p)
	key := types.NamespacedName{Namespace: p.Namespace, Name: group}
	if _, seen := b.groups[key]; !seen {
		b.order = append(b.order, key)
		b.created[key] = p.CreationTimestamp.Time
	}
	if p.CreationTimestamp.Time.Before(b.created[key]) {
		b.created[key] = p.CreationTimestamp.Time
	}
	b.groups[key] = append(b.groups[key], p)
	return nil, b.cl.Create(b.ctx, p.DeepCopy())
}

// groupsDone builds each pod group's Workload, in the order the groups were first seen.
func (b *podBuilder) groupsDone() ([]built, error) {
	var out []built
	for _, key := range b.order {
		p := pod.NewPod(pod.WithExcessPodExpectations(expectations.NewStore("excess-pods")))
		load := types.NamespacedName{Namespace: "group/" + key.Namespace, Name: key.Name}
		if _, err := p.Load(b.ctx, b.cl, &load); err != nil {
			return nil, fmt.Errorf("pod group %s: %w", key, err)
		}
		wl, err := p.ConstructComposableWorkload(b.ctx, b.cl, &utiltesting.EventRecorder{}, nil)
		if err != nil {
			return nil, fmt.Errorf("pod group %s: building its Workload: %w", key, err)
		}
		if err := jobframework.PrepareWorkloadPriority(b.ctx, b.cl, p.Object(), wl, nil); err != nil {
			return nil, fmt.Errorf("pod group %s: %w", key, err)
		}
		wl.CreationTimestamp = metav1.NewTime(b.created[key])
		wl.UID = types.UID("uid-" + wl.Namespace + "-" + wl.Name)
		first := p.Object()
		out = append(out, built{wl, &ownerRef{APIVersion: "v1", Kind: "Pod", Namespace: first.GetNamespace(), Name: first.GetName()}})
	}
	return out, nil
}

// templateHash is wasplan's stand-in for pod-template-hash: the safe-encoded decimal FNV-1a of the template's
// canonical JSON (keys sorted, no spaces).
func templateHash(raw map[string]any) string {
	template, _, _ := unstructuredMap(raw, "spec", "template")
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(template)
	h := fnv.New32a()
	h.Write(bytes.TrimRight(buf.Bytes(), "\n"))
	digits := fmt.Sprint(h.Sum32())
	out := make([]byte, len(digits))
	for i := range digits {
		out[i] = safeAlphabet[int(digits[i])%len(safeAlphabet)]
	}
	return string(out)
}

func unstructuredMap(m map[string]any, path ...string) (map[string]any, bool, error) {
	cur := m
	for _, k := range path {
		next, ok := cur[k].(map[string]any)
		if !ok {
			return map[string]any{}, false, nil
		}
		cur = next
	}
	return cur, true, nil
}

// controllerPods are the pods a Deployment, ReplicaSet, StatefulSet or LeaderWorkerSet creates, named as wasplan's
// controllers name them (src/wasplan/cluster/controllers/apps.py, lws.py), in the order they create them, each
// with its template's metadata and spec, a UID and a creation time (the object's, then one second apart).
func controllerPods(obj client.Object, raw map[string]any) []*corev1.Pod {
	type named struct {
		name     string
		template *corev1.PodTemplateSpec
	}
	var pods []named
	switch o := obj.(type) {
	case *appsv1.Deployment:
		if !o.Spec.Paused {
			hash := templateHash(raw)
			for i := range int(ptr.Deref(o.Spec.Replicas, 1)) {
				pods = append(pods, named{fmt.Sprintf("%s-%s-%d", o.Name, hash, i), &o.Spec.Template})
			}
		}
	case *appsv1.ReplicaSet:
		for i := range int(ptr.Deref(o.Spec.Replicas, 1)) {
			pods = append(pods, named{fmt.Sprintf("%s-%d", o.Name, i), &o.Spec.Template})
		}
	case *appsv1.StatefulSet:
		start := 0
		if o.Spec.Ordinals != nil {
			start = int(o.Spec.Ordinals.Start)
		}
		for i := range int(ptr.Deref(o.Spec.Replicas, 1)) {
			pods = append(pods, named{fmt.Sprintf("%s-%d", o.Name, start+i), &o.Spec.Template})
		}
	case *lwsapi.LeaderWorkerSet:
		lwt := &o.Spec.LeaderWorkerTemplate
		leader := lwt.LeaderTemplate
		if leader == nil {
			leader = &lwt.WorkerTemplate
		}
		groups := int(ptr.Deref(o.Spec.Replicas, 1))
		for g := range groups {
			pods = append(pods, named{fmt.Sprintf("%s-%d", o.Name, g), leader})
		}
		for g := range groups {
			for w := 1; w < int(ptr.Deref(lwt.Size, 1)); w++ {
				pods = append(pods, named{fmt.Sprintf("%s-%d-%d", o.Name, g, w), &lwt.WorkerTemplate})
			}
		}
	}
	out := make([]*corev1.Pod, 0, len(pods))
	for i, n := range pods {
		p := &corev1.Pod{ObjectMeta: *n.template.ObjectMeta.DeepCopy(), Spec: *n.template.Spec.DeepCopy()}
		p.Name, p.Namespace = n.name, obj.GetNamespace()
		p.UID = types.UID("uid-" + p.Namespace + "-" + p.Name)
		p.CreationTimestamp = metav1.NewTime(obj.GetCreationTimestamp().Add(time.Duration(i) * time.Second))
		out = append(out, p)
	}
	return out
}

// deployment builds a single-pod Workload per pod of the Deployment, as its webhook leaves them; it takes one
// creation second per pod.
func (b *podBuilder) deployment(d *appsv1.Deployment, raw map[string]any) ([]built, int, error) {
	pods := controllerPods(d, raw)
	var out []built
	for _, p := range pods {
		if p.Labels == nil {
			p.Labels = map[string]string{}
		}
		p.Labels[queueNameLabel] = d.Labels[queueNameLabel]
		if wpc := d.Labels[priorityClassLabel]; wpc != "" {
			p.Labels[priorityClassLabel] = wpc
		}
		if p.Annotations == nil {
			p.Annotations = map[string]string{}
		}
		p.Annotations[podconstants.SuspendedByParentAnnotation] = "deployment"
		one, err := b.singlePod(p)
		if err != nil {
			return nil, 0, fmt.Errorf("pod %s: %w", p.Name, err)
		}
		out = append(out, one)
	}
	return out, max(len(pods), 1), nil
}

// templatePods builds the Workloads of an object whose pod template alone carries the queue label: its pods are
// plain pods to Kueue's pod webhook, each a single-pod Workload outside the unmanaged namespaces.
func (b *podBuilder) templatePods(obj client.Object, raw map[string]any) ([]built, int, error) {
	pods := controllerPods(obj, raw)
	var out []built
	if unmanagedNamespaces[obj.GetNamespace()] {
		return nil, max(len(pods), 1), nil
	}
	for _, p := range pods {
		if p.Labels[queueNameLabel] == "" {
			continue
		}
		one, err := b.singlePod(p)
		if err != nil {
			return nil, 0, fmt.Errorf("pod %s: %w", p.Name, err)
		}
		out = append(out, one)
	}
	return out, max(len(pods), 1), nil
}

// reconciled runs an integration's reconciler on obj (put in the client first) and returns the Workloads it
// created, their creation time the object's plus their group index (in seconds).
func (b *podBuilder) reconciled(obj client.Object, r reconcile.Reconciler, gvk ownerRef) ([]built, error) {
	if err := b.cl.Create(b.ctx, obj); err != nil {
		return nil, err
	}
	if _, err := r.Reconcile(b.ctx, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(obj)}); err != nil {
		return nil, err
	}
	var list kueue.WorkloadList
	if err := b.cl.List(b.ctx, &list, client.InNamespace(obj.GetNamespace())); err != nil {
		return nil, err
	}
	var out []built
	for i := range list.Items {
		wl := list.Items[i].DeepCopy()
		if wl.Labels["kueue.x-k8s.io/job-uid"] != string(obj.GetUID()) {
			continue
		}
		index := 0
		fmt.Sscan(wl.Annotations["kueue.x-k8s.io/component-workload-index"], &index)
		wl.CreationTimestamp = metav1.NewTime(obj.GetCreationTimestamp().Add(time.Duration(index) * time.Second))
		wl.UID = types.UID("uid-" + wl.Namespace + "-" + wl.Name)
		wl.ResourceVersion = ""
		owner := gvk
		out = append(out, built{wl, &owner})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].wl.CreationTimestamp.Before(&out[j].wl.CreationTimestamp) })
	return out, nil
}

// buildPodBased builds the Workloads of a pod-based owner; ok is false for the kinds jobs.go builds.
func (b *podBuilder) buildPodBased(obj client.Object, raw map[string]any) (out []built, seconds int, ok bool, err error) {
	owner := ownerRef{Namespace: obj.GetNamespace(), Name: obj.GetName()}
	if _, isPod := obj.(*corev1.Pod); !isPod && obj.GetLabels()[queueNameLabel] == "" {
		if !templateQueued[obj.GetObjectKind().GroupVersionKind().GroupKind()] {
			return nil, 0, false, nil
		}
		out, seconds, err = b.templatePods(obj, raw)
		return out, seconds, true, err
	}
	switch o := obj.(type) {
	case *corev1.Pod:
		out, err = b.addPod(o)
		return out, 1, true, err
	case *appsv1.Deployment:
		out, seconds, err = b.deployment(o, raw)
		return out, seconds, true, err
	case *appsv1.StatefulSet:
		owner.APIVersion, owner.Kind = "apps/v1", "StatefulSet"
		r, _ := statefulset.NewReconciler(b.ctx, b.cl, nil, &utiltesting.EventRecorder{})
		out, err = b.reconciled(o, r, owner)
		return out, 1, true, err
	case *lwsapi.LeaderWorkerSet:
		owner.APIVersion, owner.Kind = lwsapi.GroupVersion.String(), "LeaderWorkerSet"
		r, _ := leaderworkerset.NewReconciler(b.ctx, b.cl, nil, &utiltesting.EventRecorder{})
		out, err = b.reconciled(o, r, owner)
		return out, max(int(ptr.Deref(o.Spec.Replicas, 1)), 1), true, err
	}
	return nil, 0, false, nil
}
