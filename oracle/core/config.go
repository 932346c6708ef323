package core

// The scheduler configuration and feature gates of a run.
//
// Configuration: --scheduler-config is decoded (defaulted and converted to the internal version) with the
// scheduler's own scheme (k8s.io/kubernetes pkg/scheduler/apis/config/scheme) and validated with its
// validation; without it, an empty kubescheduler.config.k8s.io/v1 configuration is defaulted the same way, as
// kube-scheduler does without --config. Then the settings that make upstream deterministic are forced
// (oracle.md §4): percentageOfNodesToScore 100 (global and per profile), parallelism 1, DefaultPreemption's
// minCandidateNodesPercentage 100 and minCandidateNodesAbsolute 100000 (every candidate is evaluated, so the
// random offset does not matter), DynamicResources' filterTimeout 0 (no load-dependent give-up).
//
// Gates: upstream's defaults for the release, then wasplan's profile for it (Adapter.ProfileGates), then
// --feature-gates, set on the process-wide gate before the scheduler is built (defaulting and the plugin
// registry read them).

import (
	"fmt"
	"os"
	"reflect"
	"sort"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/component-base/featuregate"
	configv1 "k8s.io/kube-scheduler/config/v1"
	schedconfig "k8s.io/kubernetes/pkg/scheduler/apis/config"
	schedscheme "k8s.io/kubernetes/pkg/scheduler/apis/config/scheme"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/validation"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

func int32p(v int32) *int32 { return &v }

func featureName(s string) featuregate.Feature { return featuregate.Feature(s) }

// SetGates applies wasplan's profile and the overrides; it returns the gates that were set explicitly.
func SetGates(a Adapter, overrides map[string]bool) (map[string]bool, error) {
	gates := map[string]bool{}
	for k, v := range a.ProfileGates() {
		gates[k] = v
	}
	known := utilfeature.DefaultMutableFeatureGate.GetAll()
	for k, v := range overrides {
		if _, ok := known[featureName(k)]; !ok {
			return nil, &UsageError{fmt.Sprintf("--feature-gates: unknown gate %q for Kubernetes %s", k, a.Release())}
		}
		gates[k] = v
	}
	if err := utilfeature.DefaultMutableFeatureGate.SetFromMap(gates); err != nil {
		return nil, &UsageError{fmt.Sprintf("--feature-gates: %v", err)}
	}
	return gates, nil
}

// GateValue is the gate's value in force (explicit or upstream's default).
func GateValue(name string) bool {
	return utilfeature.DefaultFeatureGate.Enabled(featureName(name))
}

// LoadConfig reads --scheduler-config (or the default configuration) and forces the deterministic settings.
func LoadConfig(path string) (*schedconfig.KubeSchedulerConfiguration, error) {
	cfg := &schedconfig.KubeSchedulerConfiguration{}
	if path == "" {
		var v configv1.KubeSchedulerConfiguration
		schedscheme.Scheme.Default(&v)
		if err := schedscheme.Scheme.Convert(&v, cfg, nil); err != nil {
			return nil, err
		}
	} else {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, &InputError{fmt.Sprintf("cannot read %s: %v", path, err)}
		}
		obj, _, err := schedscheme.Codecs.UniversalDecoder().Decode(data, nil, nil)
		if err != nil {
			return nil, &InputError{fmt.Sprintf("%s: not a KubeSchedulerConfiguration: %v", path, err)}
		}
		c, ok := obj.(*schedconfig.KubeSchedulerConfiguration)
		if !ok {
			return nil, &InputError{fmt.Sprintf("%s: not a KubeSchedulerConfiguration", path)}
		}
		if err := validation.ValidateKubeSchedulerConfiguration(c); err != nil {
			return nil, &InputError{fmt.Sprintf("%s: %v", path, err)}
		}
		cfg = c
	}
	cfg.PercentageOfNodesToScore = int32p(100)
	cfg.Parallelism = 1
	for i := range cfg.Profiles {
		p := &cfg.Profiles[i]
		if p.PercentageOfNodesToScore != nil {
			p.PercentageOfNodesToScore = int32p(100)
		}
		for j := range p.PluginConfig {
			switch args := p.PluginConfig[j].Args.(type) {
			case *schedconfig.DefaultPreemptionArgs:
				args.MinCandidateNodesPercentage = 100
				args.MinCandidateNodesAbsolute = 100000
			case *schedconfig.DynamicResourcesArgs:
				args.FilterTimeout = &metav1.Duration{}
			}
		}
	}
	return cfg, nil
}

// Profiles describes the effective plugins of every profile of the built scheduler, weights on Score.
func Profiles(frameworks map[string]framework.Framework) []ProfileOut {
	var out []ProfileOut
	for name, f := range frameworks {
		p := ProfileOut{SchedulerName: name, Plugins: map[string][]PluginOut{}}
		plugins := f.ListPlugins()
		v := reflect.ValueOf(plugins).Elem()
		for i := 0; i < v.NumField(); i++ {
			set, ok := v.Field(i).Interface().(schedconfig.PluginSet)
			if !ok || len(set.Enabled) == 0 {
				continue
			}
			var list []PluginOut
			for _, pl := range set.Enabled {
				list = append(list, PluginOut{Name: pl.Name, Weight: pl.Weight})
			}
			p.Plugins[v.Type().Field(i).Name] = list
		}
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].SchedulerName < out[j].SchedulerName })
	return out
}
