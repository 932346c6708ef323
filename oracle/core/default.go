package core

// default.go: `oracle default PATHS... [--cluster FILE...] --k8s-version 1.36|1.37 [--feature-gates ...]
// -o json|yaml`: the objects exactly as `plan` hands them to the scheduler, after the release's defaulting, the
// Priority and DefaultTolerationSeconds admission plugins, the API server's metadata and the ResourceClaim
// controller (prepare.go, admission.go), so that a comparison can check wasplan's reader field by field.
//
// A document the scheduler never sees is reported instead of stopping the run (plan stops on the first one):
// a kind plan does not read (`unread`), a document the release cannot decode (`undecodable`: a version it does
// not serve, a value of the wrong type), or an object the admission chain refuses, such as a Pod or PodGroup
// naming a PriorityClass that does not exist (`refused`, with the plugin's message as the API server returns
// it). The remaining documents go through Prepare unchanged, so the printed objects are plan's.
//
// Output: {"objects": [...], "refused": [{file, document, item, kind, namespace, name, reason, message}]}.

import (
	"fmt"
	"io"
	"strings"

	"github.com/go-logr/logr"
	"github.com/spf13/pflag"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/klog/v2"
	sigsyaml "sigs.k8s.io/yaml"
)

const admissionRefusal = "refused by admission: "

// Refusal is one document the scheduler would never see.
type Refusal struct {
	File      string `json:"file"`
	Document  int    `json:"document"`
	Item      *int   `json:"item"`
	Kind      string `json:"kind"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
	Reason    string `json:"reason"` // refused (admission) | unread (a kind plan does not read) | undecodable
	Message   string `json:"message"`
}

type defaultOptions struct {
	clusters     []string
	k8sVersion   string
	featureGates string
	output       string
}

func parseDefaultFlags(a Adapter, args []string, stderr io.Writer) (*defaultOptions, []string, error) {
	o := &defaultOptions{}
	fs := pflag.NewFlagSet("default", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringArrayVar(&o.clusters, "cluster", nil, "cluster state: a snapshot of Kubernetes objects (repeatable)")
	fs.StringVar(&o.k8sVersion, "k8s-version", a.Release(), "Kubernetes release (this binary: "+a.Release()+")")
	fs.StringVar(&o.featureGates, "feature-gates", "", "Name=bool,... over wasplan's default gate profile")
	fs.StringVarP(&o.output, "output", "o", "json", "output format: json or yaml")
	if err := fs.Parse(args); err != nil {
		return nil, nil, &UsageError{err.Error()}
	}
	if len(fs.Args()) == 0 && len(o.clusters) == 0 {
		return nil, nil, &UsageError{"missing PATH...: the manifests to default"}
	}
	if v := strings.TrimPrefix(o.k8sVersion, "v"); v != a.Release() && !strings.HasPrefix(v, a.Release()+".") {
		return nil, nil, &UsageError{fmt.Sprintf("this binary is the Kubernetes %s oracle; --k8s-version %s needs oracle-%s (use oracle/bin/oracle)", a.Release(), o.k8sVersion, v)}
	}
	if o.output != "json" && o.output != "yaml" {
		return nil, nil, &UsageError{fmt.Sprintf("-o %s: expected json or yaml", o.output)}
	}
	return o, fs.Args(), nil
}

func runDefault(a Adapter, args []string, stdout, stderr io.Writer) int {
	klog.SetLogger(logr.Discard())
	o, paths, err := parseDefaultFlags(a, args, stderr)
	if err != nil {
		return fail(stderr, err)
	}
	overrides, err := parseGates(o.featureGates)
	if err != nil {
		return fail(stderr, err)
	}
	if _, err := SetGates(a, overrides); err != nil {
		return fail(stderr, err)
	}
	var docs []Doc
	for _, c := range o.clusters {
		got, err := ReadDocs([]string{c}, true)
		if err != nil {
			return fail(stderr, err)
		}
		docs = append(docs, got...)
	}
	if len(paths) > 0 {
		got, err := ReadDocs(paths, false)
		if err != nil {
			return fail(stderr, err)
		}
		docs = append(docs, got...)
	}
	kept, refused, err := screen(a, docs)
	if err != nil {
		return fail(stderr, err)
	}
	objs, err := Prepare(a, kept, map[string]bool{"DRAWorkloadResourceClaims": GateValue("DRAWorkloadResourceClaims")})
	if err != nil {
		return fail(stderr, err)
	}
	items := make([]map[string]any, 0, len(objs))
	for _, obj := range objs {
		m, err := asMap(obj)
		if err != nil {
			return fail(stderr, err)
		}
		items = append(items, m)
	}
	report := map[string]any{"objects": items, "refused": append([]Refusal{}, refused...)}
	if o.output == "yaml" {
		out, err := sigsyaml.Marshal(report)
		if err != nil {
			return fail(stderr, err)
		}
		_, err = stdout.Write(out)
		if err != nil {
			return fail(stderr, err)
		}
	} else if err := WriteJSON(stdout, report); err != nil {
		return fail(stderr, err)
	}
	return ExitOK
}

// screen runs every document through the kind check, decoding and admission once, on a copy, and keeps those
// that pass; the others become refusals. Errors that are not about one document (a broken PriorityClass) stop
// the run.
func screen(a Adapter, docs []Doc) ([]Doc, []Refusal, error) {
	adm, err := newAdmitter(docs)
	if err != nil {
		return nil, nil, err
	}
	defer adm.stop()
	var kept []Doc
	var refused []Refusal
	for _, d := range docs {
		info, err := checkKind(a, d)
		if err != nil {
			refused = append(refused, refusal(d, "unread", err.Error()))
			continue
		}
		trial := d
		trial.Obj = runtime.DeepCopyJSON(d.Obj)
		if info.namespaced && trial.Namespace() == "" {
			trial.meta()["namespace"] = "default"
		}
		_, err = toTyped(trial, schema.GroupVersion{Group: info.group, Version: info.version}, adm, info.resource)
		if err != nil {
			if _, msg, ok := strings.Cut(err.Error(), admissionRefusal); ok {
				refused = append(refused, refusal(trial, "refused", msg))
			} else {
				refused = append(refused, refusal(trial, "undecodable", err.Error()))
			}
			continue
		}
		kept = append(kept, d)
	}
	return kept, refused, nil
}

func refusal(d Doc, reason, msg string) Refusal {
	r := Refusal{File: d.File, Document: d.Index, Kind: d.Kind(), Namespace: d.Namespace(), Name: d.Name(),
		Reason: reason, Message: msg}
	if d.Item > 0 {
		item := d.Item
		r.Item = &item
	}
	return r
}

// asMap is one prepared object as JSON-shaped data, with its apiVersion and kind.
func asMap(o *Object) (map[string]any, error) {
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(o.Obj)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", o.Key(), err)
	}
	m["apiVersion"] = o.GVR.GroupVersion().String()
	m["kind"] = o.Kind
	return m, nil
}
