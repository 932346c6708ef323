package core

// The flags `plan` and `evaluate` share with `wasplan plan`: PATHS, --cluster (repeatable), --k8s-version,
// --feature-gates, --arrival, --scheduler-config, -o json.

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
)

type runOptions struct {
	paths           []string
	clusters        []string
	k8sVersion      string
	featureGates    string
	arrival         string
	schedulerConfig string
	output          string
	pod             string // evaluate only
}

func parseRunFlags(a Adapter, name string, args []string, stderr io.Writer, withPod bool) (*runOptions, error) {
	o := &runOptions{}
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringArrayVar(&o.clusters, "cluster", nil, "cluster state: a snapshot of Kubernetes objects (repeatable)")
	fs.StringVar(&o.k8sVersion, "k8s-version", a.Release(), "Kubernetes release (this binary: "+a.Release()+")")
	fs.StringVar(&o.featureGates, "feature-gates", "", "Name=bool,... over wasplan's default gate profile")
	fs.StringVar(&o.arrival, "arrival", "sequential", "sequential: create objects one by one, scheduling after each; batch: all first")
	fs.StringVar(&o.schedulerConfig, "scheduler-config", "", "KubeSchedulerConfiguration file")
	fs.StringVarP(&o.output, "output", "o", "json", "output format (json)")
	if withPod {
		fs.StringVar(&o.pod, "pod", "", "the pending pod to evaluate, NAMESPACE/NAME")
	}
	if err := fs.Parse(args); err != nil {
		return nil, &UsageError{err.Error()}
	}
	o.paths = fs.Args()
	if len(o.paths) == 0 && !withPod {
		return nil, &UsageError{"missing PATH...: the manifests to plan"}
	}
	if v := strings.TrimPrefix(o.k8sVersion, "v"); v != a.Release() && !strings.HasPrefix(v, a.Release()+".") {
		return nil, &UsageError{fmt.Sprintf("this binary is the Kubernetes %s oracle; --k8s-version %s needs oracle-%s (use oracle/bin/oracle)", a.Release(), o.k8sVersion, v)}
	}
	if o.output != "json" {
		return nil, &UsageError{fmt.Sprintf("-o %s: the oracle prints json only", o.output)}
	}
	if o.arrival != "sequential" && o.arrival != "batch" {
		return nil, &UsageError{fmt.Sprintf("--arrival %s: expected sequential or batch", o.arrival)}
	}
	if withPod {
		if parts := strings.Split(o.pod, "/"); len(parts) != 2 || parts[0] == "" || parts[1] == "" {
			return nil, &UsageError{"--pod NAMESPACE/NAME is required"}
		}
	}
	return o, nil
}

// parseGates reads "Name=true,Other=false".
func parseGates(s string) (map[string]bool, error) {
	out := map[string]bool{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		k, v, ok := strings.Cut(part, "=")
		if !ok {
			return nil, &UsageError{fmt.Sprintf("--feature-gates: %q is not Name=true|false", part)}
		}
		b, err := strconv.ParseBool(strings.TrimSpace(v))
		if err != nil {
			return nil, &UsageError{fmt.Sprintf("--feature-gates: %q is not Name=true|false", part)}
		}
		out[strings.TrimSpace(k)] = b
	}
	return out, nil
}
