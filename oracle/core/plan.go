package core

// `oracle plan`: the cluster (--cluster) and the manifests (PATHS) through the real kube-scheduler, printed as
// Plan JSON. The cluster's objects are created first and scheduled (its pending pods are scheduled with the
// arrivals, as in wasplan); then the manifests: `sequential` creates them one object at a time in input order
// and schedules until nothing moves after each, `batch` creates them all and then schedules (wasplan's
// --arrival, src/wasplan/engine/queueing/queue.py orders both by priority, then creation).

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"

	"github.com/go-logr/logr"
	"k8s.io/klog/v2"
	schedconfig "k8s.io/kubernetes/pkg/scheduler/apis/config"
)

// runInput is what plan and evaluate share: flags parsed, gates set, configuration loaded, objects prepared.
type runInput struct {
	opts  *runOptions
	gates map[string]bool
	objs  []*Object
	sim   *Sim
	cfg   *schedconfig.KubeSchedulerConfiguration
}

func prepareRun(a Adapter, name string, args []string, stderr io.Writer, withPod bool) (*runInput, error) {
	klog.SetLogger(logr.Discard())
	o, err := parseRunFlags(a, name, args, stderr, withPod)
	if err != nil {
		return nil, err
	}
	overrides, err := parseGates(o.featureGates)
	if err != nil {
		return nil, err
	}
	gates, err := SetGates(a, overrides)
	if err != nil {
		return nil, err
	}
	if err := setServingVersion(a); err != nil {
		return nil, err
	}
	cfg, err := LoadConfig(o.schedulerConfig)
	if err != nil {
		return nil, err
	}
	var docs []Doc
	for _, c := range o.clusters {
		got, err := ReadDocs([]string{c}, true)
		if err != nil {
			return nil, err
		}
		docs = append(docs, got...)
	}
	got, err := ReadDocs(o.paths, false)
	if err != nil {
		return nil, err
	}
	docs = append(docs, got...)
	objs, err := Prepare(a, docs, map[string]bool{"DRAWorkloadResourceClaims": GateValue("DRAWorkloadResourceClaims")})
	if err != nil {
		return nil, err
	}
	sim, err := NewSim(a, cfg)
	if err != nil {
		return nil, err
	}
	return &runInput{opts: o, gates: gates, objs: objs, sim: sim, cfg: cfg}, nil
}

// play creates the cluster, schedules, then the manifests in the arrival mode.
func (in *runInput) play() error {
	var cluster, manifests []*Object
	for _, o := range in.objs {
		if o.Doc.Cluster {
			cluster = append(cluster, o)
		} else {
			manifests = append(manifests, o)
		}
	}
	for _, o := range cluster {
		if err := in.sim.Create([]*Object{o}); err != nil {
			return err
		}
		if err := in.sim.settle(); err != nil {
			return err
		}
	}
	if err := in.sim.Run(); err != nil {
		return err
	}
	if in.opts.arrival == "batch" {
		// one by one, each seen by the informers before the next, so the queue order is the input order
		for _, o := range manifests {
			if err := in.sim.Create([]*Object{o}); err != nil {
				return err
			}
			if err := in.sim.settle(); err != nil {
				return err
			}
		}
		return in.sim.Run()
	}
	for _, o := range manifests {
		if err := in.sim.Create([]*Object{o}); err != nil {
			return err
		}
		if err := in.sim.Run(); err != nil {
			return err
		}
	}
	return nil
}

func (in *runInput) oracleInfo(a Adapter) OracleInfo {
	return OracleInfo{Kubernetes: a.Kubernetes(), Go: goVersion(), Arrival: in.opts.arrival, Gates: in.gates,
		Parallelism: 1, PercentageOfNodesToScore: 100, Profiles: Profiles(in.sim.sched.Profiles), Watchdog: in.sim.watchdog, Cycles: in.sim.step,
		BackoffWaits: in.sim.backoffs}
}

func runPlan(a Adapter, args []string, stdout, stderr io.Writer) int {
	if stop := startProfile(stderr); stop != nil {
		defer stop()
	}
	in, err := prepareRun(a, "plan", args, stderr, false)
	if err != nil {
		return fail(stderr, err)
	}
	defer in.sim.Close()
	if err := in.play(); err != nil {
		return fail(stderr, err)
	}
	if os.Getenv("ORACLE_DEBUG") != "" {
		counts := map[string]int{}
		for _, act := range in.sim.client.Actions() {
			counts[act.GetVerb()+" "+act.GetResource().Resource+"/"+act.GetSubresource()]++
		}
		fmt.Fprintln(stderr, counts)
	}
	plan := in.sim.Result(in.objs)
	plan.Oracle = in.oracleInfo(a)
	if err := WriteJSON(stdout, plan); err != nil {
		return fail(stderr, err)
	}
	if plan.Summary.Pending > 0 || plan.Oracle.Watchdog != "" {
		return ExitFindings
	}
	return ExitOK
}

// startProfile writes a CPU profile of the run to $ORACLE_CPUPROFILE when it is set (for measuring where the
// oracle spends its time: `go tool pprof oracle-1.37 FILE`); nil when it is not.
func startProfile(stderr io.Writer) func() {
	path := os.Getenv("ORACLE_CPUPROFILE")
	if path == "" {
		return nil
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(stderr, "oracle: ORACLE_CPUPROFILE: %v\n", err)
		return nil
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintf(stderr, "oracle: ORACLE_CPUPROFILE: %v\n", err)
		f.Close()
		return nil
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}
