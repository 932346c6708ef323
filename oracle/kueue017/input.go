package main

// Reading the files `wasplan plan` reads: multi-document YAML or JSON, directories walked in name order,
// `List` objects unpacked. Kueue's kinds (kueue.x-k8s.io v1beta1 and v1beta2) get their CRD defaults and are
// converted to v1beta2 as Kueue's conversion does (the v1beta1 types' ConvertTo, else the generated
// conversions registered in the scheme); the core kinds Kueue reads are decoded with client-go's scheme; Jobs
// and JobSets carrying kueue.x-k8s.io/queue-name are kept in input order to become Workloads (jobs.go).
// Everything else is ignored, and named on stderr.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/conversion"
	configapi "sigs.k8s.io/kueue/apis/config/v1beta2"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

const (
	kueueGroup  = "kueue.x-k8s.io"
	configGroup = "config.kueue.x-k8s.io"
)

// document is one object of the input with where it came from.
type document struct {
	file  string
	index int // 1-based position in its file
	obj   *unstructured.Unstructured
}

func (d document) where() string { return fmt.Sprintf("%s: document %d", d.file, d.index) }

// readPaths returns the documents of every file under paths, files in the order given, directories walked in
// lexical order.
func readPaths(paths []string) ([]document, error) {
	var docs []document
	for _, p := range paths {
		files, err := expand(p)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			got, err := readFile(f)
			if err != nil {
				return nil, err
			}
			docs = append(docs, got...)
		}
	}
	return docs, nil
}

func expand(p string) ([]string, error) {
	info, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return []string{p}, nil
	}
	var files []string
	err = filepath.WalkDir(p, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch strings.ToLower(filepath.Ext(path)) {
		case ".yaml", ".yml", ".json":
			if !d.IsDir() {
				files = append(files, path)
			}
		}
		return nil
	})
	sort.Strings(files)
	return files, err
}

func readFile(path string) ([]document, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(raw), 4096)
	var docs []document
	for n := 1; ; n++ {
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			if errors.Is(err, io.EOF) {
				return docs, nil
			}
			return nil, fmt.Errorf("%s: document %d: %w", path, n, err)
		}
		if len(m) == 0 {
			continue
		}
		u := &unstructured.Unstructured{Object: m}
		if strings.HasSuffix(u.GetKind(), "List") {
			items, _, _ := unstructured.NestedSlice(m, "items")
			for _, it := range items {
				if im, ok := it.(map[string]any); ok {
					docs = append(docs, document{path, n, &unstructured.Unstructured{Object: im}})
				}
			}
			continue
		}
		docs = append(docs, document{path, n, u})
	}
}

// world is everything the run needs, decoded.
type world struct {
	flavors       []*kueue.ResourceFlavor
	cqs           []*kueue.ClusterQueue
	cohorts       []*kueue.Cohort
	lqs           []*kueue.LocalQueue
	topologies    []*kueue.Topology
	checks        []*kueue.AdmissionCheck
	workloads     []*kueue.Workload                // written directly (manifests or the snapshot)
	core          []client.Object                  // Namespaces, LimitRanges, Nodes, Pods, PriorityClasses, RuntimeClasses, WorkloadPriorityClasses
	owners        []client.Object                  // objects with the queue-name label Kueue builds Workloads from, in input order
	config        *document                        // Kueue's Configuration (config.kueue.x-k8s.io), the first one given
	configuration *configapi.Configuration         // that Configuration, loaded by Kueue (config.go)
	ignored       map[string]int                   // kinds Kueue's admission does not read
	raw           map[client.Object]map[string]any // each owner as read (a Deployment's pod names hash its template)
	unmodelled    map[string]int                   // other kinds carrying the queue-name label: Kueue manages them, the oracle does not
}

// queued tells whether an object or its pod template carries the queue-name label.
func queued(u *unstructured.Unstructured) bool {
	if u.GetLabels()[queueNameLabel] != "" {
		return true
	}
	return templateLabelled(u)
}

// templateLabelled tells whether an object's pod template carries the queue-name label.
// (a LeaderWorkerSet's: its worker or leader template).
func templateLabelled(u *unstructured.Unstructured) bool {
	for _, path := range [][]string{{"spec", "template"}, {"spec", "leaderWorkerTemplate", "workerTemplate"},
		{"spec", "leaderWorkerTemplate", "leaderTemplate"}} {
		labels, _, _ := unstructured.NestedStringMap(u.Object, append(path, "metadata", "labels")...)
		if labels[queueNameLabel] != "" {
			return true
		}
	}
	return false
}

// bound tells whether a pod is already on a node (it holds capacity, whoever admitted it).
func bound(u *unstructured.Unstructured) bool {
	name, _, _ := unstructured.NestedString(u.Object, "spec", "nodeName")
	return name != ""
}

// coreKinds are the core objects Kueue's scheduler, cache and job framework read.
var coreKinds = map[schema.GroupKind]bool{
	{Group: "", Kind: "Namespace"}:                      true,
	{Group: "", Kind: "LimitRange"}:                     true,
	{Group: "", Kind: "Node"}:                           true,
	{Group: "", Kind: "Pod"}:                            true,
	{Group: "scheduling.k8s.io", Kind: "PriorityClass"}: true,
	{Group: "node.k8s.io", Kind: "RuntimeClass"}:        true,
}

func decode(docs []document, scheme *runtime.Scheme, d *defaulter) (*world, error) {
	w := &world{ignored: map[string]int{}, unmodelled: map[string]int{}, raw: map[client.Object]map[string]any{}}
	for _, doc := range docs {
		gvk := doc.obj.GroupVersionKind()
		var err error
		switch {
		case gvk.Kind == "" || doc.obj.GetAPIVersion() == "":
			return nil, fmt.Errorf("%s: not a Kubernetes object (apiVersion and kind are required)", doc.where())
		case gvk.Group == kueueGroup:
			err = w.addKueue(doc, scheme, d)
		case gvk.Group == configGroup && gvk.Kind == "Configuration":
			if w.config == nil {
				c := doc
				w.config = &c
			}
		case gvk.Kind == "Pod" && gvk.Group == "" && queued(doc.obj) && !bound(doc.obj):
			if ns := doc.obj.GetNamespace(); unmanagedNamespaces[ns] {
				w.ignored[gvk.GroupVersion().String()+" "+gvk.Kind]++
				break
			}
			var obj runtime.Object
			if obj, err = typed(doc, scheme); err == nil {
				w.owners = append(w.owners, obj.(client.Object))
			}
		case coreKinds[gvk.GroupKind()]:
			var obj runtime.Object
			if obj, err = typed(doc, scheme); err == nil {
				w.core = append(w.core, obj.(client.Object))
			}
		case isOwnerKind(gvk) && doc.obj.GetLabels()[queueNameLabel] != "":
			var obj runtime.Object
			if obj, err = typed(doc, scheme); err == nil {
				w.owners = append(w.owners, obj.(client.Object))
				w.raw[obj.(client.Object)] = doc.obj.Object
			}
		case templateQueued[gvk.GroupKind()] && templateLabelled(doc.obj):
			var obj runtime.Object
			if obj, err = typed(doc, scheme); err == nil {
				w.owners = append(w.owners, obj.(client.Object))
				w.raw[obj.(client.Object)] = doc.obj.Object
			}
		case queued(doc.obj):
			w.unmodelled[gvk.GroupVersion().String()+" "+gvk.Kind]++
		default:
			w.ignored[gvk.GroupVersion().String()+" "+gvk.Kind]++
		}
		if err != nil {
			return nil, fmt.Errorf("%s (%s %s): %w", doc.where(), gvk.Kind, doc.obj.GetName(), err)
		}
	}
	var err error
	if w.configuration, err = loadConfiguration(w.config); err != nil {
		return nil, err
	}
	return w, nil
}

func typed(doc document, scheme *runtime.Scheme) (runtime.Object, error) {
	obj, err := scheme.New(doc.obj.GroupVersionKind())
	if err != nil {
		return nil, err
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(doc.obj.Object, obj); err != nil {
		return nil, err
	}
	obj.GetObjectKind().SetGroupVersionKind(doc.obj.GroupVersionKind())
	return obj, nil
}

// addKueue defaults a Kueue object with its version's CRD schema, converts it to v1beta2, and defaults it
// again with the v1beta2 schema (the API server defaults on read in the storage version too).
func (w *world) addKueue(doc document, scheme *runtime.Scheme, d *defaulter) error {
	gvk := doc.obj.GroupVersionKind()
	if !d.apply(gvk.Version, gvk.Kind, doc.obj.Object) {
		return fmt.Errorf("Kueue v0.17.0 serves no %s in %s", gvk.Kind, gvk.GroupVersion())
	}
	obj, err := typed(doc, scheme)
	if err != nil {
		return err
	}
	if gvk.Version != kueue.GroupVersion.Version {
		hubGVK := kueue.GroupVersion.WithKind(gvk.Kind)
		hub, err := scheme.New(hubGVK)
		if err != nil {
			return err
		}
		if c, ok := obj.(conversion.Convertible); ok {
			err = c.ConvertTo(hub.(conversion.Hub))
		} else {
			err = scheme.Convert(obj, hub, nil)
		}
		if err != nil {
			return fmt.Errorf("converting to %s: %w", kueue.GroupVersion, err)
		}
		u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(hub)
		if err != nil {
			return err
		}
		d.apply(kueue.GroupVersion.Version, gvk.Kind, u)
		obj = hub
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u, obj); err != nil {
			return err
		}
		obj.GetObjectKind().SetGroupVersionKind(hubGVK)
	}
	switch o := obj.(type) {
	case *kueue.ResourceFlavor:
		w.flavors = append(w.flavors, o)
	case *kueue.ClusterQueue:
		w.cqs = append(w.cqs, o)
	case *kueue.Cohort:
		w.cohorts = append(w.cohorts, o)
	case *kueue.LocalQueue:
		w.lqs = append(w.lqs, o)
	case *kueue.Topology:
		w.topologies = append(w.topologies, o)
	case *kueue.AdmissionCheck:
		w.checks = append(w.checks, o)
	case *kueue.Workload:
		w.workloads = append(w.workloads, o)
	case *kueue.WorkloadPriorityClass:
		w.core = append(w.core, o)
	default:
		w.ignored[gvk.GroupVersion().String()+" "+gvk.Kind]++
	}
	return nil
}
