package core

// Reading the outcome back from the fake cluster into wasplan's Plan shape (docs/plan-json.md):
//
//   pods[]   Bound (placed by this run; reason Scheduled and the scheduler's event text), AlreadyBound (had
//            spec.nodeName in the input), Preempted (deleted by preemption; the DisruptionTarget condition's
//            reason and message), Pending (the scheduler wrote PodScheduled=False: its reason and message),
//            Gated (never attempted: no PodScheduled condition, or SchedulingGated); nominatedNode is the
//            last status.nominatedNodeName the pod had while unbound; tiedNodes for Bound pods.
//   podGroups[]  policy and minCount from the spec, status from the condition the scheduler writes
//            (Scheduled / Unschedulable; without one, Scheduled when its members bound before the plan meet
//            its minCount, else WaitingForPods), placement as the domain of the group's first topology key
//            that all its placed members share.
//   compositePodGroups[]  from their children's state (compositeTree): upstream writes no condition on a
//            CompositePodGroup before 1.38 (1.38: CompositePodGroupInitiallyScheduled, read as the condition);
//            children in creation order with result Scheduled, Failed or NotTried.
//   preemptions[]  the scheduler's "Preempted" events, one entry per preemptor per scheduling cycle.
//   resourceClaims[]  every claim: AlreadyAllocated / Allocated / Pending, the node of a node-local
//            allocation, the devices, reservedFor; a Pending claim's message is the scheduling failure of a
//            pending pod that needs it (claimFailures).

import (
	"fmt"
	"runtime/debug"
	"sort"

	corev1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

func goVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		return bi.GoVersion
	}
	return ""
}

func (s *Sim) list(gvr schema.GroupVersionResource) []map[string]interface{} {
	l, err := s.client.Tracker().List(gvr, gvr.GroupVersion().WithKind(s.gvrs[gvr]), "")
	if err != nil {
		return nil
	}
	items, err := meta.ExtractList(l)
	if err != nil {
		return nil
	}
	var out []map[string]interface{}
	for _, it := range items {
		u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(it)
		if err == nil {
			out = append(out, u)
		}
	}
	return out
}

func nsName(u map[string]interface{}) (string, string) {
	ns, _, _ := unstructured.NestedString(u, "metadata", "namespace")
	n, _, _ := unstructured.NestedString(u, "metadata", "name")
	return ns, n
}

func condition(u map[string]interface{}, typ string) map[string]interface{} {
	conds, _, _ := unstructured.NestedSlice(u, "status", "conditions")
	for _, c := range conds {
		m, _ := c.(map[string]interface{})
		if m["type"] == typ {
			return m
		}
	}
	return nil
}

func str(m map[string]interface{}, k string) string {
	s, _ := m[k].(string)
	return s
}

// Result assembles the Plan from the final state of the run and the input objects.
func (s *Sim) Result(objs []*Object) Plan {
	plan := Plan{APIVersion: "wasplan.io/v1alpha1", Kind: "Plan", K8sVersion: s.a.Release(),
		PodGroups: []PodGroupOut{}, Pods: []PodOut{}, Preemptions: []Preemption{},
		CompositePodGroups: []CompositeGroupOut{}, ResourceClaims: []ClaimOut{}, Unplanned: []interface{}{}}
	pods, _ := s.pods()
	live := map[string]*corev1.Pod{}
	for _, p := range pods {
		live[p.Namespace+"/"+p.Name] = p
	}
	inputPod := map[string]*corev1.Pod{}
	nodeLabels := map[string]map[string]string{}
	for _, o := range objs {
		switch v := o.Obj.(type) {
		case *corev1.Pod:
			inputPod[v.Namespace+"/"+v.Name] = v
		case *corev1.Node:
			nodeLabels[v.Name] = v.Labels
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	members := map[string][]string{}
	for key, in := range inputPod {
		out := PodOut{Namespace: in.Namespace, Name: in.Name}
		if sg := in.Spec.SchedulingGroup; sg != nil && sg.PodGroupName != nil {
			g := in.Namespace + "/" + *sg.PodGroupName
			out.PodGroup = &g
			members[g] = append(members[g], key)
		}
		if ref := metav1.GetControllerOf(in); ref != nil {
			out.Owner = &Owner{Kind: ref.Kind, Name: ref.Name}
		}
		if n := s.nominated[key]; n != "" {
			out.NominatedNode = strp(n)
		}
		p, alive := live[key]
		switch {
		case !alive && s.victims[key] != nil:
			v := s.victims[key]
			out.Status, out.Node = "Preempted", strp(v.Spec.NodeName)
			for _, c := range v.Status.Conditions {
				if c.Type == corev1.DisruptionTarget {
					out.Reason, out.Message = c.Reason, c.Message
				}
			}
		case !alive:
			out.Status, out.Reason, out.Message = "Pending", "Deleted", "the pod was deleted during the run"
		case in.Spec.NodeName != "":
			out.Status, out.Node = "AlreadyBound", strp(p.Spec.NodeName)
		case p.Spec.NodeName != "":
			out.Status, out.Node = "Bound", strp(p.Spec.NodeName)
			out.Reason, out.Message = "Scheduled", fmt.Sprintf("Successfully assigned %s to %s", key, p.Spec.NodeName)
			out.TiedNodes = s.ties[p.UID][p.Spec.NodeName]
		default:
			out.Status = "Gated"
			for _, c := range p.Status.Conditions {
				if c.Type == corev1.PodScheduled && c.Status == corev1.ConditionFalse {
					out.Reason, out.Message = c.Reason, c.Message
					if c.Reason != corev1.PodReasonSchedulingGated {
						out.Status = "Pending"
					}
				}
			}
		}
		plan.Pods = append(plan.Pods, out)
	}
	sort.Slice(plan.Pods, func(i, j int) bool {
		a, b := plan.Pods[i], plan.Pods[j]
		return a.Namespace+"/"+a.Name < b.Namespace+"/"+b.Name
	})
	groupPriority := map[string]int64{}
	current := map[schema.GroupVersionResource]map[string]map[string]interface{}{} // the groups as the scheduler left them
	var composites []map[string]interface{}
	groupOut := map[string]PodGroupOut{}
	children := map[string][]childRef{} // composite ns/name -> its children in creation order
	for _, o := range objs {
		if o.Kind != "PodGroup" && o.Kind != "CompositePodGroup" {
			continue
		}
		u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(o.Obj)
		if err != nil {
			continue
		}
		ns, name := nsName(u)
		if v, ok, _ := unstructured.NestedInt64(u, "spec", "priority"); ok {
			groupPriority[ns+"/"+name] = v
		}
		if current[o.GVR] == nil {
			current[o.GVR] = map[string]map[string]interface{}{}
			for _, g := range s.list(o.GVR) {
				gns, gn := nsName(g)
				current[o.GVR][gns+"/"+gn] = g
			}
		}
		cur := current[o.GVR][ns+"/"+name]
		if cur == nil {
			cur = u
		}
		if p, ok, _ := unstructured.NestedString(cur, "spec", "parentCompositePodGroupName"); ok && p != "" {
			children[ns+"/"+p] = append(children[ns+"/"+p], childRef{kind: o.Kind, key: ns + "/" + name})
		}
		if o.Kind == "PodGroup" {
			g := s.podGroup(cur, members[ns+"/"+name], live, nodeLabels)
			groupOut[ns+"/"+name] = g
			plan.PodGroups = append(plan.PodGroups, g)
		} else {
			composites = append(composites, cur)
		}
	}
	tree := compositeTree{groups: groupOut, children: children, composites: map[string]map[string]interface{}{}}
	for _, c := range composites {
		ns, name := nsName(c)
		tree.composites[ns+"/"+name] = c
	}
	for _, c := range composites {
		out := tree.out(c)
		out.TiedPlacements = s.tiedPlacementsOf(out.Namespace + "/" + out.Name)
		plan.CompositePodGroups = append(plan.CompositePodGroups, out)
	}
	sort.Slice(plan.PodGroups, func(i, j int) bool {
		a, b := plan.PodGroups[i], plan.PodGroups[j]
		return a.Namespace+"/"+a.Name < b.Namespace+"/"+b.Name
	})
	sort.Slice(plan.CompositePodGroups, func(i, j int) bool {
		a, b := plan.CompositePodGroups[i], plan.CompositePodGroups[j]
		return a.Namespace+"/"+a.Name < b.Namespace+"/"+b.Name
	})
	plan.Preemptions = s.preemptions(groupPriority)
	plan.ResourceClaims = s.claims(objs, claimFailures(live, plan.Pods))
	sm := &plan.Summary
	for _, p := range plan.Pods {
		sm.Pods++
		switch p.Status {
		case "Bound":
			sm.Bound++
		case "AlreadyBound":
			sm.AlreadyBound++
		case "Pending", "Gated":
			sm.Pending++
		case "Preempted":
			sm.Preempted++
		}
	}
	for _, g := range plan.PodGroups {
		sm.PodGroups++
		if g.Status == "Scheduled" {
			sm.PodGroupsScheduled++
		} else {
			sm.PodGroupsUnschedulable++
		}
	}
	return plan
}

func policyOf(u map[string]interface{}, countField string) (string, int64) {
	if gang, ok, _ := unstructured.NestedMap(u, "spec", "schedulingPolicy", "gang"); ok {
		n, _, _ := unstructured.NestedInt64(gang, countField)
		return "gang", n
	}
	return "basic", 0
}

func groupStatus(cond map[string]interface{}) (string, *Condition, string, string) {
	if cond == nil {
		return "WaitingForPods", nil, "", ""
	}
	c := &Condition{Type: str(cond, "type"), Status: str(cond, "status"), Reason: str(cond, "reason")}
	status := "Unschedulable"
	if c.Status == "True" {
		status = "Scheduled"
	}
	return status, c, c.Reason, str(cond, "message")
}

func (s *Sim) podGroup(u map[string]interface{}, members []string, live map[string]*corev1.Pod, nodeLabels map[string]map[string]string) PodGroupOut {
	ns, name := nsName(u)
	out := PodGroupOut{Namespace: ns, Name: name, Pods: []string{}}
	out.Policy, out.MinCount = policyOf(u, "minCount")
	out.Status, out.Condition, out.Reason, out.Message = groupStatus(condition(u, s.a.GroupConditionType()))
	sort.Strings(members)
	out.Pods = append(out.Pods, members...)
	out.TiedPlacements = s.tiedPlacementsOf(ns + "/" + name)
	if out.Condition == nil && quorumBound(out, members, live) {
		// bound before the plan with its quorum met: upstream writes the condition when it schedules the
		// group, which it never needs to here (nothing of it is queued), so the input's state is the answer
		out.Status = "Scheduled"
	}
	if keys, ok, _ := unstructured.NestedSlice(u, "spec", "schedulingConstraints", "topology"); ok && len(keys) > 0 && GateValue("TopologyAwareWorkloadScheduling") {
		key := str(keys[0].(map[string]interface{}), "key")
		domain, same := "", true
		for _, m := range members {
			p := live[m]
			if p == nil || p.Spec.NodeName == "" {
				continue
			}
			d := nodeLabels[p.Spec.NodeName][key]
			if domain == "" {
				domain = d
			} else if d != domain {
				same = false
			}
		}
		if domain != "" && same {
			out.Placement = &Placement{TopologyKey: key, Domain: domain}
		}
	}
	return out
}

// quorumBound: the group's bound members meet its minCount (one member for a basic group).
func quorumBound(g PodGroupOut, members []string, live map[string]*corev1.Pod) bool {
	need := int(g.MinCount)
	if g.Policy == "basic" || need < 1 {
		need = 1
	}
	bound := 0
	for _, m := range members {
		if p := live[m]; p != nil && p.Spec.NodeName != "" {
			bound++
		}
	}
	return bound >= need
}

// childRef is a child of a CompositePodGroup: a PodGroup or a CompositePodGroup, by ns/name.
type childRef struct {
	kind string
	key  string
}

// compositeTree reads CompositePodGroups from their children. Upstream v1.37.2 writes the
// PodGroupInitiallyScheduled condition only on PodGroups (schedule_one_podgroup.go updatePodGroupCondition is
// called for the tree's PodGroups; a composite has no PodGroup object of its own), so a composite's state is
// its children's: Scheduled when enough children are (minGroupCount for a gang, one for basic), Unschedulable
// when a cycle concerned a child (it has a condition) and the quorum is not met, WaitingForPods when no
// cycle ever concerned the tree. Its message is its first failed child's (the tree's failure is written on
// the PodGroups), or from 1.38 the message of the condition the scheduler wrote on it.
type compositeTree struct {
	groups     map[string]PodGroupOut
	composites map[string]map[string]interface{}
	children   map[string][]childRef
}

func (t compositeTree) out(u map[string]interface{}) CompositeGroupOut {
	ns, name := nsName(u)
	out := CompositeGroupOut{Namespace: ns, Name: name, Children: []ChildOut{}}
	out.Policy, out.MinGroupCount = policyOf(u, "minGroupCount")
	// 1.38 writes CompositePodGroupInitiallyScheduled (schedule_one_podgroup.go updateInitiallyScheduledCondition);
	// before it, an input's own condition, if any
	cond := condition(u, "CompositePodGroupInitiallyScheduled")
	if cond == nil {
		cond = condition(u, "PodGroupInitiallyScheduled")
	}
	_, out.Condition, _, _ = groupStatus(cond)
	if p, ok, _ := unstructured.NestedString(u, "spec", "parentCompositePodGroupName"); ok && p != "" {
		parent := ns + "/" + p
		out.Parent = &parent
	}
	scheduled, attempted := 0, false
	for _, c := range t.children[ns+"/"+name] {
		var status, message string
		if c.kind == "PodGroup" {
			g := t.groups[c.key]
			status, message = g.Status, g.Message
		} else if cu := t.composites[c.key]; cu != nil {
			sub := t.out(cu)
			status, message = sub.Status, sub.Message
		}
		child := ChildOut{Kind: c.kind, Name: c.key[len(ns)+1:], Message: message}
		switch status {
		case "Scheduled":
			child.Result, child.Message = "Scheduled", ""
			scheduled++
			attempted = true
		case "Unschedulable":
			child.Result = "Failed"
			attempted = true
			if out.Message == "" {
				out.Message = message
			}
		default:
			child.Result, child.Message = "NotTried", ""
		}
		out.Children = append(out.Children, child)
	}
	need := int(out.MinGroupCount)
	if out.Policy == "basic" || need < 1 {
		need = 1
	}
	switch {
	case scheduled >= need:
		out.Status, out.Message = "Scheduled", ""
	case attempted:
		out.Status = "Unschedulable"
	default:
		out.Status = "WaitingForPods"
	}
	// 1.38 writes the composite's own status in its condition: that is its message, not a child's
	if _, _, _, msg := groupStatus(cond); cond != nil && str(cond, "status") == "False" && msg != "" {
		out.Message = msg
	}
	return out
}

func (s *Sim) preemptions(groupPriority map[string]int64) []Preemption {
	out := []Preemption{}
	index := map[string]int{}
	for _, ev := range s.events {
		key := fmt.Sprintf("%d/%s/%s/%s", ev.step, ev.preemptor.Kind, ev.preemptor.Namespace, ev.preemptor.Name)
		i, ok := index[key]
		if !ok {
			i = len(out)
			index[key] = i
			out = append(out, Preemption{Preemptor: ev.preemptor, Victims: []Victim{}})
		}
		v := s.victims[ev.victim]
		if v == nil {
			continue
		}
		vic := Victim{Namespace: v.Namespace, Name: v.Name, Node: v.Spec.NodeName}
		if v.Spec.Priority != nil {
			vic.Priority = *v.Spec.Priority
		}
		if sg := v.Spec.SchedulingGroup; sg != nil && sg.PodGroupName != nil {
			g := v.Namespace + "/" + *sg.PodGroupName
			vic.PodGroup = &g
			if p, ok := groupPriority[g]; ok && s.a.Release() != "1.36" {
				vic.Priority = int32(p)
			}
		}
		out[i].Victims = append(out[i].Victims, vic)
	}
	for i := range out {
		sort.Slice(out[i].Victims, func(a, b int) bool {
			x, y := out[i].Victims[a], out[i].Victims[b]
			return x.Namespace+"/"+x.Name < y.Namespace+"/"+y.Name
		})
	}
	return out
}

// claimFailures maps a claim (ns/name) to the scheduling failure of a pending pod that needs it: the
// pod's PodScheduled=False message, of the first such pod by namespace and name. Upstream keeps no message
// on a ResourceClaim (ResourceClaimStatus has allocation, reservedFor and the drivers' device statuses); the
// reason a claim is not allocated is the failure of the pods waiting for it, which is what wasplan's
// claim message says.
func claimFailures(live map[string]*corev1.Pod, pods []PodOut) map[string]string {
	var keys []string
	out := map[string]string{}
	for _, p := range pods {
		if p.Status == "Pending" && p.Message != "" && live[p.Namespace+"/"+p.Name] != nil {
			keys = append(keys, p.Namespace+"/"+p.Name)
			out["pod:"+p.Namespace+"/"+p.Name] = p.Message
		}
	}
	sort.Strings(keys)
	failures := map[string]string{}
	for _, key := range keys {
		pod := live[key]
		var names []string
		for _, rc := range pod.Spec.ResourceClaims {
			if rc.ResourceClaimName != nil {
				names = append(names, *rc.ResourceClaimName)
			}
		}
		for _, st := range pod.Status.ResourceClaimStatuses {
			if st.ResourceClaimName != nil {
				names = append(names, *st.ResourceClaimName)
			}
		}
		for _, n := range names {
			if c := pod.Namespace + "/" + n; failures[c] == "" {
				failures[c] = out["pod:"+key]
			}
		}
	}
	return failures
}

func (s *Sim) claims(objs []*Object, failures map[string]string) []ClaimOut {
	allocatedBefore := map[string]bool{}
	for _, o := range objs {
		if c, ok := o.Obj.(*resourcev1.ResourceClaim); ok && c.Status.Allocation != nil {
			allocatedBefore[c.Namespace+"/"+c.Name] = true
		}
	}
	out := []ClaimOut{}
	l, err := s.client.Tracker().List(claimsGVR, resourcev1.SchemeGroupVersion.WithKind("ResourceClaim"), "")
	if err != nil {
		return out
	}
	for _, c := range l.(*resourcev1.ResourceClaimList).Items {
		co := ClaimOut{Namespace: c.Namespace, Name: c.Name, Devices: []Device{}, ReservedFor: []Ref{}}
		if ref := metav1.GetControllerOf(&c); ref != nil && (ref.Kind == "Pod" || ref.Kind == "PodGroup") {
			if entry, ok := c.Annotations[PodClaimNameAnnotation]; ok {
				co.Owner = &ClaimOwner{Kind: ref.Kind, Name: ref.Name, Claim: entry}
			} else if ref.Kind == "Pod" && c.Annotations[extendedClaimAnnotation] == "true" {
				// the claim for extended resources: its entry is upstream's in-memory name for it
				co.Owner = &ClaimOwner{Kind: ref.Kind, Name: ref.Name, Claim: extendedClaimInMemName}
			}
		}
		switch {
		case c.Status.Allocation == nil:
			co.Status = "Pending"
			co.Message = failures[c.Namespace+"/"+c.Name]
		case allocatedBefore[c.Namespace+"/"+c.Name]:
			co.Status = "AlreadyAllocated"
		default:
			co.Status = "Allocated"
		}
		if a := c.Status.Allocation; a != nil {
			co.Node = allocationNode(a.NodeSelector)
			for _, r := range a.Devices.Results {
				co.Devices = append(co.Devices, Device{Request: r.Request, Driver: r.Driver, Pool: r.Pool,
					Device: r.Device, AdminAccess: r.AdminAccess != nil && *r.AdminAccess})
			}
		}
		for _, r := range c.Status.ReservedFor {
			kind := "Pod"
			if r.Resource == "podgroups" {
				kind = "PodGroup"
			}
			co.ReservedFor = append(co.ReservedFor, Ref{Kind: kind, Namespace: c.Namespace, Name: r.Name})
		}
		sort.Slice(co.ReservedFor, func(i, j int) bool { return co.ReservedFor[i].Name < co.ReservedFor[j].Name })
		out = append(out, co)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Namespace+"/"+out[i].Name < out[j].Namespace+"/"+out[j].Name })
	return out
}

// allocationNode is the node of a node-local allocation (matchFields metadata.name In [node]).
func allocationNode(sel *corev1.NodeSelector) *string {
	if sel == nil || len(sel.NodeSelectorTerms) != 1 {
		return nil
	}
	t := sel.NodeSelectorTerms[0]
	for _, f := range t.MatchFields {
		if f.Key == "metadata.name" && f.Operator == corev1.NodeSelectorOpIn && len(f.Values) == 1 && len(t.MatchExpressions) == 0 {
			return strp(f.Values[0])
		}
	}
	return nil
}
