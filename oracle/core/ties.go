package core

// Re-evaluating a pod with the scheduler's own framework (the calls schedulePod makes in
// k8s.io/kubernetes pkg/scheduler/schedule_one.go: RunPreFilterPlugins, RunFilterPluginsWithNominatedPods per
// node of the placement, RunPreScorePlugins and RunScorePlugins on the feasible nodes), for the tie set of a
// placed pod and for `evaluate`. Upstream picks among equal top scores by heap order of a list whose order is
// not meaningful (oracle.md §4), so a comparison must accept any node of the tie set.

import (
	"context"
	"sort"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/kubernetes/pkg/scheduler"
	internalcache "k8s.io/kubernetes/pkg/scheduler/backend/cache"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	fwk "k8s.io/kube-scheduler/framework"
)

// candidateNodes are the nodes the scheduler considers for the pod: the snapshot's nodes in the current
// placement (a topology-aware group cycle narrows it), or all of them.
func candidateNodes(f framework.Framework) []fwk.NodeInfo {
	if snap, ok := f.SnapshotSharedLister().(*internalcache.Snapshot); ok {
		if nodes, err := snap.ListNodesInPlacement(); err == nil {
			return nodes
		}
	}
	nodes, _ := f.SnapshotSharedLister().NodeInfos().List()
	return nodes
}

// feasible runs PreFilter and the Filters (with nominated pods, as the scheduler does) and returns the nodes
// that pass.
func feasible(ctx context.Context, f framework.Framework, state fwk.CycleState, pod *corev1.Pod) []fwk.NodeInfo {
	pre, status, _ := f.RunPreFilterPlugins(ctx, state, pod)
	if !status.IsSuccess() {
		return nil
	}
	var out []fwk.NodeInfo
	for _, ni := range candidateNodes(f) {
		if pre != nil && !pre.AllNodes() && !pre.NodeNames.Has(ni.Node().Name) {
			continue
		}
		if f.RunFilterPluginsWithNominatedPods(ctx, state, pod, ni).IsSuccess() {
			out = append(out, ni)
		}
	}
	return out
}

// scoreRecorder is the profile's framework for one SchedulePod call, keeping the node scores the scheduler
// computed (prioritizeNodes calls RunScorePlugins once, on the feasible nodes, and picks among the best totals)
// so the tie set comes from the very attempt that placed the pod, at no extra cost.
type scoreRecorder struct {
	framework.Framework
	scores []fwk.NodePluginScores
	scored bool
}

func (r *scoreRecorder) RunScorePlugins(ctx context.Context, state fwk.CycleState, pod *corev1.Pod, nodes []fwk.NodeInfo) ([]fwk.NodePluginScores, *fwk.Status) {
	scores, status := r.Framework.RunScorePlugins(ctx, state, pod, nodes)
	r.scores, r.scored = scores, status.IsSuccess()
	return scores, status
}

// tiedNodes: every feasible node whose total score equals the best, when the chosen node is among them;
// else only the chosen node (it was picked without scoring: the nominated node, the one feasible node, or
// opportunistic batching's hint). The scores are the attempt's own (scoreRecorder); without them (a profile
// with no Score plugin, where every node scores alike) the pod is evaluated again on a clone of the state.
func tiedNodes(ctx context.Context, rec *scoreRecorder, state fwk.CycleState, pod *corev1.Pod, res scheduler.ScheduleResult) []string {
	chosen := []string{res.SuggestedHost}
	if res.FeasibleNodes <= 1 || pod.Status.NominatedNodeName == res.SuggestedHost {
		return chosen
	}
	scores := rec.scores
	if !rec.scored {
		var ok bool
		if scores, ok = rescore(ctx, rec.Framework, state, pod); !ok {
			return chosen
		}
	}
	if len(scores) <= 1 {
		return chosen
	}
	best := scores[0].TotalScore
	for _, sc := range scores {
		if sc.TotalScore > best {
			best = sc.TotalScore
		}
	}
	var ties []string
	in := false
	for _, sc := range scores {
		if sc.TotalScore == best {
			ties = append(ties, sc.Name)
			in = in || sc.Name == res.SuggestedHost
		}
	}
	if !in {
		return chosen
	}
	sort.Strings(ties)
	return ties
}

// rescore evaluates the pod again on a clone of the cycle state over the same snapshot: PreFilter and the
// Filters, then PreScore and Score on the feasible nodes.
func rescore(ctx context.Context, f framework.Framework, state fwk.CycleState, pod *corev1.Pod) ([]fwk.NodePluginScores, bool) {
	st := state.Clone()
	nodes := feasible(ctx, f, st, pod)
	if len(nodes) <= 1 {
		return nil, false
	}
	if s := f.RunPreScorePlugins(ctx, st, pod, nodes); !s.IsSuccess() {
		return nil, false
	}
	scores, s := f.RunScorePlugins(ctx, st, pod, nodes)
	if !s.IsSuccess() || len(scores) == 0 {
		return nil, false
	}
	return scores, true
}
