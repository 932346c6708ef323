// Command oracle-kueue runs Kueue v0.17.0's own admission code (scheduler, flavor assigner, preemptor,
// scheduling cache and queue manager) on the files `wasplan plan` reads and prints the `kueue` block of
// wasplan's plan JSON: which workloads Kueue admits, on which flavors, whom it preempts and why the rest wait.
//
//	oracle-kueue plan PATHS... [--cluster FILE]... [--admission-checks ready|pending] [--max-cycles N] [--stats]
//
// It is a module and binary of its own: Kueue registers its feature gates in the same global gate as
// k8s.io/kubernetes (a combined binary panics in init on "DynamicResourceAllocation"), so it imports neither
// oracle/core nor k8s.io/kubernetes. Design and pitfalls: docs/oracle.md ("The Kueue oracle") and
// ../shared/reference/kueue.md.
//
// Exit codes: 0 the run settled; 2 usage or input error (one line naming file and document); 3 the run did not
// settle within --max-cycles (the JSON is still printed); 1 anything else.
package main

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/klog/v2"
	ctrl "sigs.k8s.io/controller-runtime"
	jobsetapi "sigs.k8s.io/jobset/api/jobset/v1alpha2"
	kueuev1beta1 "sigs.k8s.io/kueue/apis/kueue/v1beta1"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	lwsapi "sigs.k8s.io/lws/api/leaderworkerset/v1"
)

const usage = "usage: oracle-kueue plan PATHS... [--cluster FILE]... [--admission-checks ready|pending] [--max-cycles N] [--stats]\n       oracle-kueue config-schema v1beta1|v1beta2"

type args struct {
	paths, clusters []string
	opts            options
	stats           bool
}

func parseArgs(argv []string) (*args, error) {
	if len(argv) == 0 || argv[0] != "plan" {
		return nil, fmt.Errorf("%s", usage)
	}
	a := &args{opts: options{maxCycles: 10000}}
	for i := 1; i < len(argv); i++ {
		arg := argv[i]
		value := func() (string, error) {
			if k, v, ok := strings.Cut(arg, "="); ok && strings.HasPrefix(k, "--") {
				return v, nil
			}
			if i+1 >= len(argv) {
				return "", fmt.Errorf("%s needs a value", arg)
			}
			i++
			return argv[i], nil
		}
		name, _, _ := strings.Cut(arg, "=")
		switch name {
		case "--cluster":
			v, err := value()
			if err != nil {
				return nil, err
			}
			a.clusters = append(a.clusters, v)
		case "--admission-checks":
			v, err := value()
			if err != nil {
				return nil, err
			}
			switch v {
			case "ready":
			case "pending":
				a.opts.checksPending = true
			default:
				return nil, fmt.Errorf("--admission-checks takes ready or pending, not %q", v)
			}
		case "--max-cycles":
			v, err := value()
			if err != nil {
				return nil, err
			}
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return nil, fmt.Errorf("--max-cycles takes a positive number, not %q", v)
			}
			a.opts.maxCycles = n
		case "--stats":
			a.stats = true
		default:
			if strings.HasPrefix(arg, "-") {
				return nil, fmt.Errorf("unknown option %s\n%s", arg, usage)
			}
			a.paths = append(a.paths, arg)
		}
	}
	if len(a.paths) == 0 && len(a.clusters) == 0 {
		return nil, fmt.Errorf("%s", usage)
	}
	return a, nil
}

func newScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(s))
	utilruntime.Must(kueue.AddToScheme(s))
	utilruntime.Must(kueuev1beta1.AddToScheme(s))
	utilruntime.Must(jobsetapi.AddToScheme(s))
	utilruntime.Must(lwsapi.AddToScheme(s))
	return s
}

type exitError struct {
	code int
	err  error
}

func (e exitError) Error() string { return e.err.Error() }

func run(argv []string) error {
	if len(argv) == 2 && argv[0] == "config-schema" {
		if err := configSchema(argv[1]); err != nil {
			return exitError{2, err}
		}
		return nil
	}
	a, err := parseArgs(argv)
	if err != nil {
		return exitError{2, err}
	}
	scheme := newScheme()
	d, err := loadDefaulter()
	if err != nil {
		return exitError{1, err}
	}
	// the snapshot existed before the manifests: its objects come first in creation order
	docs, err := readPaths(append(append([]string{}, a.clusters...), a.paths...))
	if err != nil {
		return exitError{2, err}
	}
	w, err := decode(docs, scheme, d)
	if err != nil {
		return exitError{2, err}
	}
	report(w.ignored, "ignored %d %s (not read by Kueue's admission)")
	report(w.unmodelled, "not modelled: %d %s with kueue.x-k8s.io/queue-name (an integration of Kueue the oracle builds no Workloads for)")
	ctx := ctrl.LoggerInto(context.Background(), logr.Discard())
	start := time.Now()
	h, err := newHarness(ctx, scheme, w, a.opts)
	if err != nil {
		return exitError{2, err}
	}
	setup := time.Since(start)
	settled, err := h.run()
	if err != nil {
		return exitError{1, err}
	}
	out, err := h.report(settled)
	if err != nil {
		return exitError{1, err}
	}
	b, err := encode(out)
	if err != nil {
		return exitError{1, err}
	}
	os.Stdout.Write(b)
	if a.stats {
		per := time.Duration(0)
		if h.cycles > 0 {
			per = h.busy / time.Duration(h.cycles)
		}
		fmt.Fprintf(os.Stderr, "oracle-kueue: setup %s, %d cycles, %s in cycles (%s a cycle)\n",
			setup.Round(time.Microsecond), h.cycles, h.busy.Round(time.Microsecond), per.Round(time.Microsecond))
	}
	if !settled {
		return exitError{3, fmt.Errorf("the run did not settle within %d cycles", a.opts.maxCycles)}
	}
	return nil
}

// report names on stderr, one line per kind, what the run left out.
func report(kinds map[string]int, format string) {
	keys := make([]string, 0, len(kinds))
	for k := range kinds {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(os.Stderr, "oracle-kueue: "+format+"\n", kinds[k], k)
	}
}

func main() {
	klog.SetLogger(logr.Discard())
	ctrl.SetLogger(logr.Discard())
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "oracle-kueue: %v\n", err)
		code := 1
		if e, ok := err.(exitError); ok {
			code = e.code
		}
		os.Exit(code)
	}
}
