package core

// `oracle evaluate --pod NS/NAME PATHS... --cluster ...`: every Filter plugin's verdict for one pod on every
// node, each plugin evaluated on its own (the scheduler itself stops at the first failing plugin per node),
// and every Score plugin's raw, normalized and weighted score on the feasible nodes (oracle.md §11.2; the
// shape mirrors wasplan's recorder, src/wasplan/engine/cycle/recorder.py node_reasons: per node, the failing plugins
// with their reasons).
//
// The state is what `plan` leaves with every object of the input except the pod; the pod is then evaluated,
// never bound. The overall verdict per node comes from the scheduler's own framework
// (RunFilterPluginsWithNominatedPods); the per-plugin verdicts and scores from a second framework built from
// the same profile with the in-tree registry (k8s.io/kubernetes pkg/scheduler/framework/plugins
// NewInTreeRegistry), whose factories are wrapped to keep each plugin instance, sharing the scheduler's
// snapshot, informers, DRA manager, nominator and pod group manager. On a node a PreFilter result leaves out
// (NodeAffinity's metadata.name terms), the plugins that returned node sets report the framework's status for
// such nodes instead of their Filter's (absentVerdict).

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/klog/v2"
	schedconfig "k8s.io/kubernetes/pkg/scheduler/apis/config"
	internalcache "k8s.io/kubernetes/pkg/scheduler/backend/cache"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	frameworkplugins "k8s.io/kubernetes/pkg/scheduler/framework/plugins"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"

	fwk "k8s.io/kube-scheduler/framework"
)

type Verdict struct {
	Code    string   `json:"code"`
	Reasons []string `json:"reasons"`
}

type PreFilterOut struct {
	Code      string   `json:"code"`
	Reasons   []string `json:"reasons"`
	Plugins   []string `json:"rejectedBy"`
	NodeNames []string `json:"nodeNames"`
	Skipped   []string `json:"skippedFilters"`
}

type NodeVerdict struct {
	Node     string             `json:"node"`
	Feasible bool               `json:"feasible"`
	Filters  map[string]Verdict `json:"filters"` // the failing plugins only
}

type NodeScores struct {
	Node       string           `json:"node"`
	Raw        map[string]int64 `json:"raw"`
	Normalized map[string]int64 `json:"normalized"`
	Weighted   map[string]int64 `json:"weighted"`
	Total      int64            `json:"total"`
}

type Evaluation struct {
	Pod        string           `json:"pod"`
	K8sVersion string           `json:"k8sVersion"`
	PreFilter  PreFilterOut     `json:"preFilter"`
	Nodes      []NodeVerdict    `json:"nodes"`
	Weights    map[string]int32 `json:"weights"`
	Scores     []NodeScores     `json:"scores"`
	TopNodes   []string         `json:"topNodes"`
	Oracle     OracleInfo       `json:"oracle"`
}

func statusCode(s *fwk.Status) string {
	if s == nil {
		return "Success"
	}
	return s.Code().String()
}

func reasons(s *fwk.Status) []string {
	if s == nil || len(s.Reasons()) == 0 {
		return []string{}
	}
	return append([]string{}, s.Reasons()...)
}

func runEvaluate(a Adapter, args []string, stdout, stderr io.Writer) int {
	in, err := prepareRun(a, "evaluate", args, stderr, true)
	if err != nil {
		return fail(stderr, err)
	}
	defer in.sim.Close()
	ns, name, _ := strings.Cut(in.opts.pod, "/")
	var target *corev1.Pod
	var rest []*Object
	for _, o := range in.objs {
		if p, ok := o.Obj.(*corev1.Pod); ok && p.Namespace == ns && p.Name == name {
			target = p
			continue
		}
		rest = append(rest, o)
	}
	if target == nil {
		return fail(stderr, &UsageError{fmt.Sprintf("--pod %s: no such pod in the input", in.opts.pod)})
	}
	if target.Spec.NodeName != "" {
		return fail(stderr, &UsageError{fmt.Sprintf("--pod %s: the pod is already bound to %s", in.opts.pod, target.Spec.NodeName)})
	}
	in.objs = rest
	if err := in.play(); err != nil {
		return fail(stderr, err)
	}
	ev, err := in.evaluate(a, target)
	if err != nil {
		return fail(stderr, err)
	}
	ev.Oracle = in.oracleInfo(a)
	if err := WriteJSON(stdout, ev); err != nil {
		return fail(stderr, err)
	}
	return ExitOK
}

// pluginFramework builds the second framework and returns it with its plugin instances by name.
func (in *runInput) pluginFramework(ctx context.Context, f framework.Framework, profile *schedconfig.KubeSchedulerProfile) (framework.Framework, map[string]fwk.Plugin, error) {
	captured := map[string]fwk.Plugin{}
	registry := frameworkplugins.NewInTreeRegistry()
	for n, factory := range registry {
		n, factory := n, factory
		registry[n] = func(ctx context.Context, cfg runtime.Object, h fwk.Handle) (fwk.Plugin, error) {
			p, err := factory(ctx, cfg, h)
			if err == nil {
				captured[n] = p
			}
			return p, err
		}
	}
	// its own profile name: some plugins register informer indexers named after the profile (DynamicResources
	// in 1.37), which the scheduler's framework already holds
	// and only the extension points evaluate runs (PostFilter plugins such as DefaultPreemption want handles
	// this framework does not have), with the effective lists of the scheduler's framework
	own := *profile
	own.SchedulerName = profile.SchedulerName + "-evaluate"
	eff := f.ListPlugins()
	own.Plugins = &schedconfig.Plugins{QueueSort: eff.QueueSort, PreFilter: eff.PreFilter, Filter: eff.Filter,
		PreScore: eff.PreScore, Score: eff.Score, Bind: eff.Bind}
	f2, err := frameworkruntime.NewFramework(ctx, registry, &own,
		frameworkruntime.WithSnapshotSharedLister(f.SnapshotSharedLister()),
		frameworkruntime.WithInformerFactory(in.sim.factory),
		frameworkruntime.WithClientSet(in.sim.client),
		frameworkruntime.WithSharedDRAManager(f.SharedDRAManager()),
		frameworkruntime.WithPodNominator(in.sim.sched.SchedulingQueue),
		frameworkruntime.WithPodGroupManager(f.PodGroupManager()),
		frameworkruntime.WithEventRecorder(recorder{in.sim}),
		frameworkruntime.WithParallelism(1))
	if err != nil {
		return nil, nil, fmt.Errorf("building the per-plugin framework: %w", err)
	}
	return f2, captured, nil
}

// absentVerdict is what upstream's framework says of a node that the PreFilter results of the plugins in
// `withNodes` left out (k8s.io/kubernetes pkg/scheduler/schedule_one.go findNodesThatFitPod: such nodes are
// never filtered; they all get one UnschedulableAndUnresolvable status naming those plugins). The per-plugin
// verdicts give it to each of those plugins on such a node instead of running its Filter there (NodeAffinity's
// Filter would say "didn't match Pod's node affinity/selector" of a node its metadata.name term leaves out,
// which no scheduling cycle reports).
func absentVerdict(withNodes sets.Set[string]) Verdict {
	s := fwk.NewStatus(fwk.UnschedulableAndUnresolvable,
		fmt.Sprintf("node(s) didn't satisfy plugin(s) %v", sets.List(withNodes)))
	return Verdict{Code: statusCode(s), Reasons: reasons(s)}
}

func (in *runInput) evaluate(a Adapter, pod *corev1.Pod) (*Evaluation, error) {
	ctx := in.sim.ctx
	f, ok := in.sim.sched.Profiles[pod.Spec.SchedulerName]
	if !ok {
		return nil, &InputError{fmt.Sprintf("pod %s/%s: no profile for schedulerName %q", pod.Namespace, pod.Name, pod.Spec.SchedulerName)}
	}
	var profile *schedconfig.KubeSchedulerProfile
	for i := range in.cfg.Profiles {
		if in.cfg.Profiles[i].SchedulerName == pod.Spec.SchedulerName {
			profile = &in.cfg.Profiles[i]
		}
	}
	snap, ok := f.SnapshotSharedLister().(*internalcache.Snapshot)
	if !ok {
		return nil, fmt.Errorf("the framework's snapshot is not the scheduler's")
	}
	if err := in.sim.sched.Cache.UpdateSnapshot(klog.Background(), snap); err != nil {
		return nil, err
	}
	f2, plugins, err := in.pluginFramework(ctx, f, profile)
	if err != nil {
		return nil, err
	}
	ev := &Evaluation{Pod: pod.Namespace + "/" + pod.Name, K8sVersion: a.Release(), Nodes: []NodeVerdict{},
		Weights: map[string]int32{}, Scores: []NodeScores{}, TopNodes: []string{}}

	// overall verdicts with the scheduler's framework
	st := framework.NewCycleState()
	pre, status, rejectedBy := f.RunPreFilterPlugins(ctx, st, pod)
	ev.PreFilter = PreFilterOut{Code: statusCode(status), Reasons: reasons(status), Plugins: sortedSet(rejectedBy),
		Skipped: sortedSet(st.GetSkipFilterPlugins())}
	if pre != nil && !pre.AllNodes() {
		ev.PreFilter.NodeNames = sortedSet(pre.NodeNames)
	}
	feasibleNames := map[string]bool{}
	nodes := candidateNodes(f)
	if status.IsSuccess() {
		for _, ni := range nodes {
			if pre != nil && !pre.AllNodes() && !pre.NodeNames.Has(ni.Node().Name) {
				continue
			}
			if f.RunFilterPluginsWithNominatedPods(ctx, st, pod, ni).IsSuccess() {
				feasibleNames[ni.Node().Name] = true
			}
		}
	}

	// each Filter plugin on its own, with the second framework's instances
	st2 := framework.NewCycleState()
	pre2, status2, withNodes := f2.RunPreFilterPlugins(ctx, st2, pod)
	skip := st2.GetSkipFilterPlugins()
	filters := f2.ListPlugins().Filter.Enabled
	absent := absentVerdict(withNodes)
	var feasible []fwk.NodeInfo
	for _, ni := range nodes {
		nv := NodeVerdict{Node: ni.Node().Name, Feasible: feasibleNames[ni.Node().Name], Filters: map[string]Verdict{}}
		if nv.Feasible {
			feasible = append(feasible, ni)
		}
		left := pre2 != nil && !pre2.AllNodes() && !pre2.NodeNames.Has(ni.Node().Name)
		if status2.IsSuccess() {
			for _, pl := range filters {
				fp, ok := plugins[pl.Name].(fwk.FilterPlugin)
				if !ok || skip.Has(pl.Name) {
					continue
				}
				if left && withNodes.Has(pl.Name) {
					nv.Filters[pl.Name] = absent
				} else if s := fp.Filter(ctx, st2, pod, ni); !s.IsSuccess() {
					nv.Filters[pl.Name] = Verdict{Code: statusCode(s), Reasons: reasons(s)}
				}
			}
		}
		ev.Nodes = append(ev.Nodes, nv)
	}
	sort.Slice(ev.Nodes, func(i, j int) bool { return ev.Nodes[i].Node < ev.Nodes[j].Node })

	// scores on the feasible nodes
	for _, pl := range f2.ListPlugins().Score.Enabled {
		ev.Weights[pl.Name] = pl.Weight
	}
	if len(feasible) == 0 || !f2.RunPreScorePlugins(ctx, st2, pod, feasible).IsSuccess() {
		return ev, nil
	}
	skipScore := st2.GetSkipScorePlugins()
	raw := map[string]map[string]int64{}
	for _, ni := range feasible {
		raw[ni.Node().Name] = map[string]int64{}
		for _, pl := range f2.ListPlugins().Score.Enabled {
			sp, ok := plugins[pl.Name].(fwk.ScorePlugin)
			if !ok || skipScore.Has(pl.Name) {
				continue
			}
			if v, s := sp.Score(ctx, st2, pod, ni); s.IsSuccess() {
				raw[ni.Node().Name][pl.Name] = v
			}
		}
	}
	scores, s := f2.RunScorePlugins(ctx, st2, pod, feasible)
	if !s.IsSuccess() {
		return nil, fmt.Errorf("scoring: %v", s.AsError())
	}
	var best int64 = -1
	for _, sc := range scores {
		out := NodeScores{Node: sc.Name, Raw: raw[sc.Name], Normalized: map[string]int64{}, Weighted: map[string]int64{}, Total: sc.TotalScore}
		for _, ps := range sc.Scores {
			out.Weighted[ps.Name] = ps.Score
			if w := ev.Weights[ps.Name]; w != 0 {
				out.Normalized[ps.Name] = ps.Score / int64(w)
			}
		}
		ev.Scores = append(ev.Scores, out)
		if sc.TotalScore > best {
			best = sc.TotalScore
		}
	}
	sort.Slice(ev.Scores, func(i, j int) bool { return ev.Scores[i].Node < ev.Scores[j].Node })
	for _, sc := range ev.Scores {
		if sc.Total == best {
			ev.TopNodes = append(ev.TopNodes, sc.Node)
		}
	}
	return ev, nil
}

func sortedSet(s interface{ UnsortedList() []string }) []string {
	if s == nil {
		return []string{}
	}
	out := s.UnsortedList()
	sort.Strings(out)
	if out == nil {
		out = []string{}
	}
	return out
}
