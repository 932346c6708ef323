package core

// `oracle plan`: the manifests and the cluster through the real kube-scheduler, printed as Plan JSON.

import (
	"io"
)

func runPlan(a Adapter, args []string, stdout, stderr io.Writer) int {
	o, err := parseRunFlags(a, "plan", args, stderr, false)
	if err != nil {
		return fail(stderr, err)
	}
	var docs []Doc
	for _, c := range o.clusters {
		got, err := ReadDocs([]string{c}, true)
		if err != nil {
			return fail(stderr, err)
		}
		docs = append(docs, got...)
	}
	got, err := ReadDocs(o.paths, false)
	if err != nil {
		return fail(stderr, err)
	}
	docs = append(docs, got...)
	plan := Plan{APIVersion: "wasplan.io/v1alpha1", Kind: "Plan", K8sVersion: a.Release(),
		PodGroups: []PodGroupOut{}, Pods: []PodOut{}, Preemptions: []Preemption{},
		CompositePodGroups: []CompositeGroupOut{}, ResourceClaims: []ClaimOut{}, Unplanned: []interface{}{},
		Oracle: OracleInfo{Kubernetes: a.Kubernetes(), Arrival: o.arrival}}
	if err := WriteJSON(stdout, plan); err != nil {
		return fail(stderr, err)
	}
	return ExitOK
}
