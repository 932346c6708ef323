package main

// Kueue's Configuration (config.kueue.x-k8s.io v1beta1 or v1beta2, kind Configuration), read as a Kueue install
// reads its mounted file: Kueue's own pkg/config.Load, which decodes strictly, converts v1beta1 to v1beta2,
// applies the defaults and validates (an invalid Configuration is an error, as Kueue would not start). Only its
// fairSharing is wired into the harness (cycles.go), as cmd/kueue/main.go wires it into the cache and scheduler.

import (
	"fmt"
	"os"

	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	configv1beta1 "sigs.k8s.io/kueue/apis/config/v1beta1"
	configapi "sigs.k8s.io/kueue/apis/config/v1beta2"
	"sigs.k8s.io/kueue/pkg/config"
	"sigs.k8s.io/yaml"
)

func loadConfiguration(doc *document) (*configapi.Configuration, error) {
	if doc == nil {
		return nil, nil
	}
	raw, err := yaml.Marshal(doc.obj.Object)
	if err != nil {
		return nil, err
	}
	f, err := os.CreateTemp("", "kueue-config-*.yaml")
	if err != nil {
		return nil, err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(raw); err != nil {
		f.Close()
		return nil, err
	}
	f.Close()
	scheme := runtime.NewScheme()
	utilruntime.Must(configv1beta1.AddToScheme(scheme))
	utilruntime.Must(configapi.AddToScheme(scheme))
	_, cfg, err := config.Load(scheme, f.Name())
	if err != nil {
		return nil, fmt.Errorf("%s: Kueue's Configuration: %w", doc.where(), err)
	}
	return &cfg, nil
}
