package main

// The `kueue` block of wasplan's plan JSON (docs/oracle.md, "The Kueue oracle"), read from the workloads'
// final status in the fake client and the scheduling cache's usage.
//
// status: Admitted (Admitted condition true), QuotaReserved (quota held, admission checks not Ready),
// Preempted (Preempted condition true and no quota held: evicted and not re-admitted), Inadmissible
// (QuotaReserved=False with Kueue's reason Inadmissible: missing or stopped queue), Pending otherwise.
// reason and message are those of the condition that decided the status (for Pending, QuotaReserved=False's).
// clusterQueue is the ClusterQueue holding the quota, else the one the LocalQueue points to, else null.
// borrowing: the workload holds quota of a flavor and resource its ClusterQueue borrows at the end of the
// run (cache usage above nominal). preemptedBy: the preemptor, read from the UID in Kueue's preemption message.
// A ClusterQueue's fairSharing, only with a Configuration enabling fair sharing: its weightedShare as the
// ClusterQueue controller writes it (pkg/controller/core/clusterqueue_controller.go), from the cache's stats.

import (
	"encoding/json"
	"regexp"
	"sort"

	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	"sigs.k8s.io/kueue/pkg/controller/core"
	"sigs.k8s.io/kueue/pkg/workload"
)

type podSetOut struct {
	Name     string                    `json:"name"`
	Count    int32                     `json:"count"`
	Flavors  map[string]string         `json:"flavors"`
	Topology *kueue.TopologyAssignment `json:"topology,omitempty"`
}

type workloadOut struct {
	Namespace    string      `json:"namespace"`
	Name         string      `json:"name"`
	Owner        *ownerRef   `json:"owner"`
	Queue        string      `json:"queue"`
	ClusterQueue *string     `json:"clusterQueue"`
	Priority     int32       `json:"priority"`
	Status       string      `json:"status"`
	Reason       string      `json:"reason"`
	Message      string      `json:"message"`
	PodSets      []podSetOut `json:"podSets"`
	Borrowing    bool        `json:"borrowing"`
	PreemptedBy  string      `json:"preemptedBy,omitempty"`
}

type quotaOut struct {
	Nominal  string `json:"nominal"`
	Used     string `json:"used"`
	Borrowed string `json:"borrowed"`
}

type clusterQueueOut struct {
	Name     string                         `json:"name"`
	Cohort   *string                        `json:"cohort"`
	Usage    map[string]map[string]quotaOut `json:"usage"`
	Admitted int                            `json:"admitted"`
	Pending  int                            `json:"pending"`
	// status.fairSharing as the ClusterQueue controller writes it, with fair sharing enabled
	FairSharing *kueue.FairSharingStatus `json:"fairSharing,omitempty"`
}

type kueueOut struct {
	Workloads     []workloadOut     `json:"workloads"`
	ClusterQueues []clusterQueueOut `json:"clusterQueues"`
}

type runOut struct {
	Kueue  kueueOut `json:"kueue"`
	Oracle struct {
		Kueue   string     `json:"kueue"`
		Cycles  int        `json:"cycles"`
		Settled bool       `json:"settled"`
		Events  []eventOut `json:"events"`
	} `json:"oracle"`
}

var preemptorUID = regexp.MustCompile(`^Preempted to accommodate a workload \(UID: ([^,]+),`)

func condition(wl *kueue.Workload, t string) *metav1.Condition {
	return apimeta.FindStatusCondition(wl.Status.Conditions, t)
}

func (h *harness) report(settled bool) (*runOut, error) {
	var list kueue.WorkloadList
	if err := h.cl.List(h.ctx, &list); err != nil {
		return nil, err
	}
	sort.Slice(list.Items, func(i, j int) bool {
		a, b := list.Items[i], list.Items[j]
		if a.Namespace != b.Namespace {
			return a.Namespace < b.Namespace
		}
		return a.Name < b.Name
	})
	borrowed := map[string]map[[2]string]bool{} // ClusterQueue -> (flavor, resource) borrowing
	out := &runOut{}
	out.Oracle.Kueue, out.Oracle.Cycles, out.Oracle.Settled = "v0.17.0", h.cycles, settled
	out.Oracle.Events = append([]eventOut{}, h.events...)

	names := make([]string, 0, len(h.cqs))
	for n := range h.cqs {
		names = append(names, n)
	}
	sort.Strings(names)
	out.Kueue.ClusterQueues = make([]clusterQueueOut, 0, len(names))
	counts := map[string]int{} // ClusterQueue -> index in out.Kueue.ClusterQueues
	for _, n := range names {
		cq, err := h.clusterQueue(h.cqs[n], borrowed)
		if err != nil {
			return nil, err
		}
		counts[n] = len(out.Kueue.ClusterQueues)
		out.Kueue.ClusterQueues = append(out.Kueue.ClusterQueues, *cq)
	}
	out.Kueue.Workloads = []workloadOut{}
	for i := range list.Items {
		w := h.workload(&list.Items[i], borrowed)
		out.Kueue.Workloads = append(out.Kueue.Workloads, w)
		i, ok := counts[w.clusterQueueName()]
		if !ok {
			continue
		}
		switch w.Status {
		case "Admitted":
			out.Kueue.ClusterQueues[i].Admitted++
		case "Pending", "Preempted", "Inadmissible":
			out.Kueue.ClusterQueues[i].Pending++
		}
	}
	return out, nil
}

func (h *harness) clusterQueue(cq *kueue.ClusterQueue, borrowed map[string]map[[2]string]bool) (*clusterQueueOut, error) {
	out := &clusterQueueOut{Name: cq.Name, Usage: map[string]map[string]quotaOut{}}
	if cq.Spec.CohortName != "" {
		out.Cohort = ptr.To(string(cq.Spec.CohortName))
	}
	stats, err := h.cache.Usage(cq)
	if err != nil {
		return nil, err
	}
	used := map[[2]string]kueue.ResourceUsage{}
	for _, fu := range stats.ReservedResources {
		for _, r := range fu.Resources {
			used[[2]string{string(fu.Name), string(r.Name)}] = r
		}
	}
	if h.fairSharing {
		out.FairSharing = &kueue.FairSharingStatus{WeightedShare: core.WeightedShare(stats.WeightedShare)}
	}
	borrowed[cq.Name] = map[[2]string]bool{}
	for _, rg := range cq.Spec.ResourceGroups {
		for _, fq := range rg.Flavors {
			m := map[string]quotaOut{}
			for _, rq := range fq.Resources {
				key := [2]string{string(fq.Name), string(rq.Name)}
				u := used[key]
				m[string(rq.Name)] = quotaOut{Nominal: rq.NominalQuota.String(), Used: u.Total.String(), Borrowed: u.Borrowed.String()}
				if u.Borrowed.Sign() > 0 {
					borrowed[cq.Name][key] = true
				}
			}
			out.Usage[string(fq.Name)] = m
		}
	}
	return out, nil
}

func (h *harness) workload(wl *kueue.Workload, borrowed map[string]map[[2]string]bool) workloadOut {
	out := workloadOut{Namespace: wl.Namespace, Name: wl.Name, Queue: string(wl.Spec.QueueName),
		Priority: ptr.Deref(wl.Spec.Priority, 0), Owner: h.owners[types.NamespacedName{Namespace: wl.Namespace, Name: wl.Name}]}
	if wl.Status.Admission != nil {
		out.ClusterQueue = ptr.To(string(wl.Status.Admission.ClusterQueue))
	} else {
		var lq kueue.LocalQueue
		if err := h.cl.Get(h.ctx, types.NamespacedName{Namespace: wl.Namespace, Name: string(wl.Spec.QueueName)}, &lq); err == nil && lq.Spec.ClusterQueue != "" {
			out.ClusterQueue = ptr.To(string(lq.Spec.ClusterQueue))
		}
	}
	var decided *metav1.Condition
	qr := condition(wl, kueue.WorkloadQuotaReserved)
	pre := condition(wl, kueue.WorkloadPreempted)
	switch {
	case workload.IsAdmitted(wl):
		out.Status, decided = "Admitted", condition(wl, kueue.WorkloadAdmitted)
	case workload.HasQuotaReservation(wl):
		out.Status, decided = "QuotaReserved", qr
	case pre != nil && pre.Status == metav1.ConditionTrue:
		out.Status, decided = "Preempted", pre
	case qr != nil && qr.Reason == kueue.WorkloadInadmissible:
		out.Status, decided = "Inadmissible", qr
	default:
		out.Status, decided = "Pending", qr
	}
	if decided != nil {
		out.Reason, out.Message = decided.Reason, decided.Message
	}
	if pre != nil && pre.Status == metav1.ConditionTrue {
		if m := preemptorUID.FindStringSubmatch(pre.Message); m != nil {
			out.PreemptedBy = h.uids[types.UID(m[1])]
		}
	}
	out.PodSets = []podSetOut{}
	for _, ps := range wl.Spec.PodSets {
		p := podSetOut{Name: string(ps.Name), Count: ps.Count, Flavors: map[string]string{}}
		if wl.Status.Admission != nil {
			for _, a := range wl.Status.Admission.PodSetAssignments {
				if a.Name != ps.Name {
					continue
				}
				p.Count = ptr.Deref(a.Count, ps.Count)
				for r, f := range a.Flavors {
					p.Flavors[string(r)] = string(f)
					if borrowed[out.clusterQueueName()][[2]string{string(f), string(r)}] {
						out.Borrowing = true
					}
				}
				p.Topology = a.TopologyAssignment
			}
		}
		out.PodSets = append(out.PodSets, p)
	}
	return out
}

func (w workloadOut) clusterQueueName() string { return ptr.Deref(w.ClusterQueue, "") }

func encode(out *runOut) ([]byte, error) {
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
