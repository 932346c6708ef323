package core

// Tied placements of a topology-aware group. When several placements of a PodGroup or CompositePodGroup fit,
// upstream scores them with the PlacementScore plugins and keeps the best total, breaking equal totals with
// rand.Int() (findBestPlacement in k8s.io/kubernetes pkg/scheduler/schedule_one_podgroup.go, v1.36.5 and v1.37.2
// alike): no seed reaches it, so a comparison must accept any placement of the best total, as it accepts any node
// of a pod's tiedNodes. The release adapter wraps each profile's framework (WrapPlacementScoring) so the scores
// come from the very cycle that chose, at no extra cost; the group's entry in the plan lists the placements that
// shared the best total of its last scoring, with the nodes of each.

import (
	"sort"

	fwk "k8s.io/kube-scheduler/framework"
)

// PlacementScore is one scored placement, as the release adapter reads it from upstream's result.
type PlacementScore struct {
	Name  string
	Nodes []string
	Total int64
}

// TiedPlacement is a placement whose total equalled the best one's.
type TiedPlacement struct {
	Name  string   `json:"name"`
	Nodes []string `json:"nodes"`
}

// recordPlacements keeps, for the group (namespace/name), the placements of the best total in this scoring;
// fewer than two leave nothing to choose among.
func (s *Sim) recordPlacements(group string, scored []PlacementScore) {
	if len(scored) == 0 {
		return
	}
	best := scored[0].Total
	for _, sc := range scored {
		if sc.Total > best {
			best = sc.Total
		}
	}
	var tied []TiedPlacement
	for _, sc := range scored {
		if sc.Total == best {
			nodes := append([]string(nil), sc.Nodes...)
			sort.Strings(nodes)
			tied = append(tied, TiedPlacement{Name: sc.Name, Nodes: nodes})
		}
	}
	sort.Slice(tied, func(i, j int) bool { return tied[i].Name < tied[j].Name })
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.placementTies == nil {
		s.placementTies = map[string][]TiedPlacement{}
	}
	if len(tied) < 2 {
		delete(s.placementTies, group)
		return
	}
	s.placementTies[group] = tied
}

// tiedPlacementsOf is what the plan lists for the group: nil unless its last scoring had a tie. The caller
// holds s.mu (the plan is read under it, result.go).
func (s *Sim) tiedPlacementsOf(group string) []TiedPlacement {
	return s.placementTies[group]
}

// wrapPlacementScoring puts the adapter's recording wrapper around every profile's framework.
func (s *Sim) wrapPlacementScoring() {
	for name, f := range s.sched.Profiles {
		s.sched.Profiles[name] = s.a.WrapPlacementScoring(f, s.recordPlacements)
	}
}

// PlacementScores reads upstream's placement scores (the same type in both releases) for recordPlacements.
func PlacementScores(scores []fwk.PlacementPluginScores) []PlacementScore {
	out := make([]PlacementScore, 0, len(scores))
	for _, sc := range scores {
		ps := PlacementScore{Total: sc.TotalScore}
		if sc.Placement != nil {
			ps.Name = sc.Placement.Name
			for _, ni := range sc.Placement.Nodes {
				ps.Nodes = append(ps.Nodes, ni.Node().Name)
			}
		}
		out = append(out, ps)
	}
	return out
}

// GroupKey is the namespace/name recordPlacements files a group's scoring under.
func GroupKey(group fwk.PodGroupInfo) string { return group.GetNamespace() + "/" + group.GetName() }
