package main

// Kueue's CRD structural defaults, applied as the API server would on create: the schemas are Kueue's own
// (KDIR/config/components/crd/bases, copied next to this file by oracle/build from the module cache, never
// committed), turned into structural schemas and defaulted with apiextensions-apiserver's algorithm
// (k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting). Without them an empty queueingStrategy
// is not BestEffortFIFO and preemption policies stay empty (reference kueue.md, pitfall 5).

import (
	"embed"
	"fmt"
	"path"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	"sigs.k8s.io/yaml"
)

//go:embed crds/*.yaml
var crdFiles embed.FS

// schemaKey names one served version of one Kueue kind.
type schemaKey struct{ version, kind string }

type defaulter struct {
	schemas map[schemaKey]*structuralschema.Structural
}

func loadDefaulter() (*defaulter, error) {
	entries, err := crdFiles.ReadDir("crds")
	if err != nil {
		return nil, err
	}
	d := &defaulter{schemas: map[schemaKey]*structuralschema.Structural{}}
	for _, e := range entries {
		raw, err := crdFiles.ReadFile(path.Join("crds", e.Name()))
		if err != nil {
			return nil, err
		}
		var crd apiextensionsv1.CustomResourceDefinition
		if err := yaml.Unmarshal(raw, &crd); err != nil {
			return nil, fmt.Errorf("Kueue CRD %s: %w", e.Name(), err)
		}
		for _, v := range crd.Spec.Versions {
			if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
				continue
			}
			var internal apiextensions.JSONSchemaProps
			if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(v.Schema.OpenAPIV3Schema, &internal, nil); err != nil {
				return nil, fmt.Errorf("Kueue CRD %s %s: %w", e.Name(), v.Name, err)
			}
			s, err := structuralschema.NewStructural(&internal)
			if err != nil {
				return nil, fmt.Errorf("Kueue CRD %s %s: %w", e.Name(), v.Name, err)
			}
			d.schemas[schemaKey{v.Name, crd.Spec.Names.Kind}] = s
		}
	}
	return d, nil
}

// apply defaults obj (an unstructured kueue.x-k8s.io object) in place with its version's schema; it reports
// whether Kueue serves that version of that kind.
func (d *defaulter) apply(version, kind string, obj map[string]any) bool {
	s, ok := d.schemas[schemaKey{version, kind}]
	if !ok {
		return false
	}
	structuraldefaulting.Default(obj, s)
	return true
}
