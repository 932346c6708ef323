package core

// The admission plugins whose changes the scheduler sees, run as libraries on the internal version of each
// object exactly as the API server's admission chain would on create:
//   - Priority (k8s.io/kubernetes/plugin/pkg/admission/priority): resolves priorityClassName (or the
//     globalDefault class) into spec.priority and spec.preemptionPolicy of Pods, PodGroups and
//     CompositePodGroups; refuses an object naming a class that does not exist. It reads PriorityClasses from
//     an informer, here one on a fake clientset holding the input's classes and the two system classes the
//     API server creates at start-up.
//   - DefaultTolerationSeconds (plugin/pkg/admission/defaulttolerationseconds): the not-ready and unreachable
//     NoExecute tolerations for 300 s.

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/kubernetes/plugin/pkg/admission/defaulttolerationseconds"
	"k8s.io/kubernetes/plugin/pkg/admission/priority"
)

type admitter struct {
	plugins []admission.MutationInterface
	cancel  context.CancelFunc
}

// systemPriorityClasses are created by the API server at start-up (pkg/apis/scheduling SystemPriorityClasses).
var systemPriorityClasses = []*schedulingv1.PriorityClass{
	{ObjectMeta: metav1.ObjectMeta{Name: "system-node-critical"}, Value: 2000001000},
	{ObjectMeta: metav1.ObjectMeta{Name: "system-cluster-critical"}, Value: 2000000000},
}

func newAdmitter(docs []Doc) (*admitter, error) {
	client := fake.NewClientset()
	given := map[string]bool{}
	for _, d := range docs {
		if d.Kind() != "PriorityClass" {
			continue
		}
		obj, err := toTyped(d, schedulingv1.SchemeGroupVersion, nil, "priorityclasses")
		if err != nil {
			return nil, err
		}
		if err := client.Tracker().Add(obj); err != nil {
			return nil, &InputError{fmt.Sprintf("%s: %v", d.Where(), err)}
		}
		given[d.Name()] = true
	}
	for _, pc := range systemPriorityClasses {
		if !given[pc.Name] {
			pol := corev1.PreemptLowerPriority
			c := pc.DeepCopy()
			c.PreemptionPolicy = &pol
			if err := client.Tracker().Add(c); err != nil {
				return nil, err
			}
		}
	}
	factory := informers.NewSharedInformerFactory(client, 0)
	prio := priority.NewPlugin()
	prio.SetExternalKubeClientSet(client)
	prio.SetExternalKubeInformerFactory(factory)
	tol := defaulttolerationseconds.NewDefaultTolerationSeconds()
	tol.InspectFeatureGates(utilfeature.DefaultFeatureGate)
	for _, p := range []admission.InitializationValidator{prio, tol} {
		if err := p.ValidateInitialization(); err != nil {
			return nil, err
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	factory.Start(ctx.Done())
	sctx, scancel := context.WithTimeout(ctx, 30*time.Second)
	defer scancel()
	for typ, ok := range factory.WaitForCacheSync(sctx.Done()) {
		if !ok {
			cancel()
			return nil, fmt.Errorf("admission informer for %v did not sync", typ)
		}
	}
	return &admitter{plugins: []admission.MutationInterface{prio, tol}, cancel: cancel}, nil
}

func (a *admitter) stop() { a.cancel() }

// admit runs the plugins on an internal object about to be created as `gvr`.
func (a *admitter) admit(internal runtime.Object, gvk *schema.GroupVersionKind, gvr schema.GroupVersionResource, d Doc) error {
	if err := a.admitObject(internal, *gvk, gvr, d.Name()); err != nil {
		return &InputError{fmt.Sprintf("%s: %s %s refused by admission: %v", d.Where(), d.Kind(), d.Name(), err)}
	}
	return nil
}

// admitObject runs the plugins on an internal object about to be created as `gvr` and returns the first
// plugin's refusal as the API server would answer it (a Forbidden status error).
func (a *admitter) admitObject(internal runtime.Object, gvk schema.GroupVersionKind, gvr schema.GroupVersionResource, name string) error {
	if a == nil {
		return nil
	}
	ns := ""
	if m, ok := internal.(metav1.Object); ok {
		ns = m.GetNamespace()
	}
	attrs := admission.NewAttributesRecord(internal, nil, gvk, ns, name, gvr, "", admission.Create,
		&metav1.CreateOptions{}, false, nil)
	for _, p := range a.plugins {
		if !p.Handles(admission.Create) {
			continue
		}
		if err := p.Admit(context.Background(), attrs, nil); err != nil {
			return err
		}
	}
	return nil
}
