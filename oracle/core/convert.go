package core

// convert.go: `oracle convert PATHS... --to-k8s 1.36|1.37 [--to GROUP/VERSION] -o yaml`.
//
// The conversion an API server does when an object is written in one version and read in another: decode,
// default (legacyscheme.Scheme.Default), convert to the internal version and from there to the target
// (the generated and hand-written conversions of pkg/apis/<group>/<version>). The target of a kind is the
// version given with --to, else the first version of the group's priority list that has the kind
// (Scheme.PrioritizedVersionsForGroup, the order pkg/apis/<group>/install sets): for scheduling.k8s.io in 1.37
// that is v1beta1 for Workload and PodGroup and v1alpha3 for CompositePodGroup.
//
// A server converts only between the versions of one release. A document in a version this release does not
// have (v1alpha2 read by 1.37, v1beta1 Workloads read by 1.36) has no server conversion at all: it is reported
// as such, with exit code 2, and nothing is printed for it.

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	sigsyaml "sigs.k8s.io/yaml"
)

func runConvert(a Adapter, args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("convert", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	release := fs.String("to-k8s", a.Release(), "the release whose API server converts")
	forced := fs.String("to", "", "convert every document of this group to GROUP/VERSION")
	output := fs.StringP("output", "o", "yaml", "output format (yaml)")
	gates := fs.String("feature-gates", "", "Name=bool,... over wasplan's default gate profile")
	if err := fs.Parse(args); err != nil {
		return fail(stderr, &UsageError{err.Error()})
	}
	if err := checkAPIRelease(a, *release, *output, "yaml"); err != nil {
		return fail(stderr, err)
	}
	if err := applyAPIGates(a, *gates); err != nil {
		return fail(stderr, err)
	}
	docs, err := readAPIDocuments(fs.Args())
	if err != nil {
		return fail(stderr, &InputError{err.Error()})
	}
	var items []map[string]any
	failed := false
	for _, doc := range docs {
		item, err := convertDocument(doc, *forced)
		if err != nil {
			fmt.Fprintf(stderr, "oracle: %s document %d (%s %s): %v\n", doc.File, doc.Index, doc.Head.Kind, doc.Head.Metadata.Name, err)
			failed = true
			continue
		}
		items = append(items, item)
	}
	out, err := sigsyaml.Marshal(map[string]any{"apiVersion": "v1", "kind": "List", "items": nonNil(items)})
	if err != nil {
		return fail(stderr, err)
	}
	if _, err := stdout.Write(out); err != nil {
		return fail(stderr, err)
	}
	if failed {
		return ExitError
	}
	return ExitOK
}

func nonNil(items []map[string]any) []map[string]any {
	if items == nil {
		return []map[string]any{}
	}
	return items
}

// convertDocument decodes, defaults and converts one document; the result as a JSON-shaped map.
func convertDocument(doc apiDocument, forced string) (map[string]any, error) {
	gv, err := schema.ParseGroupVersion(doc.Head.APIVersion)
	if err != nil {
		return nil, err
	}
	gvk := gv.WithKind(doc.Head.Kind)
	if !legacyscheme.Scheme.Recognizes(gvk) {
		return nil, fmt.Errorf("this release has no %s %s, so no API server of it converts from it", gvk.GroupVersion(), gvk.Kind)
	}
	target, err := conversionTarget(gvk, forced)
	if err != nil {
		return nil, err
	}
	obj, _, err := strictDecoder.Decode(doc.Data, nil, nil)
	if err != nil {
		if _, strict := runtime.AsStrictDecodingError(err); !strict || obj == nil {
			return nil, err
		}
	}
	internal, err := defaultAndConvert(obj, gvk)
	if err != nil {
		return nil, err
	}
	external, err := legacyscheme.Scheme.ConvertToVersion(internal, target.GroupVersion())
	if err != nil {
		return nil, err
	}
	content, err := runtime.DefaultUnstructuredConverter.ToUnstructured(external)
	if err != nil {
		return nil, err
	}
	content["apiVersion"], content["kind"] = target.GroupVersion().String(), target.Kind
	if metadata, ok := content["metadata"].(map[string]any); ok && metadata["creationTimestamp"] == nil {
		delete(metadata, "creationTimestamp")
	}
	return content, nil
}

// conversionTarget: --to for its group, else the group's first prioritized version that has the kind.
func conversionTarget(gvk schema.GroupVersionKind, forced string) (schema.GroupVersionKind, error) {
	if forced != "" {
		gv, err := schema.ParseGroupVersion(forced)
		if err != nil {
			return gvk, &UsageError{fmt.Sprintf("--to %s: %v", forced, err)}
		}
		if gv.Group == gvk.Group {
			target := gv.WithKind(gvk.Kind)
			if !legacyscheme.Scheme.Recognizes(target) {
				return gvk, fmt.Errorf("this release has no %s %s", gv, gvk.Kind)
			}
			return target, nil
		}
	}
	for _, gv := range legacyscheme.Scheme.PrioritizedVersionsForGroup(gvk.Group) {
		if legacyscheme.Scheme.Recognizes(gv.WithKind(gvk.Kind)) {
			return gv.WithKind(gvk.Kind), nil
		}
	}
	return gvk, fmt.Errorf("no version of %s has %s", gvk.Group, gvk.Kind)
}

// checkAPIRelease: this binary converts, validates and expands for its own release only.
func checkAPIRelease(a Adapter, release, output, want string) error {
	if v := strings.TrimPrefix(release, "v"); v != a.Release() && !strings.HasPrefix(v, a.Release()+".") {
		return &UsageError{fmt.Sprintf("this binary is the Kubernetes %s oracle; %s needs oracle-%s (use oracle/bin/oracle)", a.Release(), release, v)}
	}
	if output != want {
		return &UsageError{fmt.Sprintf("-o %s: this command prints %s only", output, want)}
	}
	return nil
}
