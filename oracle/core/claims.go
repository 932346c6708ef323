package core

// The ResourceClaim controller's part, done before the scheduler sees the objects
// (k8s.io/kubernetes pkg/controller/resourceclaim/controller.go; KEP-5729 for PodGroup claims;
// k8s.io/dynamic-resource-allocation resourceclaim.BindTo for which pod entries are the group's):
//
//   - a pod entry naming a ResourceClaimTemplate gets a claim with the template's spec, labels and
//     annotations, the annotation resource.kubernetes.io/pod-claim-name: <entry>, the pod as controller owner,
//     and the pod's status.resourceClaimStatuses entry; the claim is created right before the pod;
//   - with DRAWorkloadResourceClaims, a PodGroup entry naming a template gets one claim owned by the PodGroup
//     (created right after it), recorded in the PodGroup's status.resourceClaimStatuses, and every member pod
//     entry that equals the group's entry in name and template (BindTo) records that same claim;
//   - a template that does not exist creates nothing: the pod then waits at DynamicResources' PreEnqueue, as
//     it would in a cluster.
//
// Names: upstream appends five random characters to "<owner>-<entry>-"; the oracle derives them as wasplan
// does (src/wasplan/cluster/claims.py generated_name: sha256 of "<namespace>/<Kind>/<owner>/<entry>", the first
// five bytes mod 27 into the API server's alphabet; a base over 57 characters is shortened per part in
// proportion), so both name a generated claim the same way.

import (
	"crypto/sha256"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
)

const (
	PodClaimNameAnnotation = "resource.kubernetes.io/pod-claim-name"
	nameAlphabet           = "bcdfghjklmnpqrstvwxz2456789"
	maxClaimBase           = 57
)

// GeneratedClaimName is the deterministic name of the claim for `entry` of owner `kind`/`owner`.
func GeneratedClaimName(namespace, kind, owner, entry string) string {
	bo, be := owner, entry
	total := len(bo) + 1 + len(be)
	if total > maxClaimBase {
		bo = bo[:len(bo)*maxClaimBase/total]
		be = be[:len(be)*maxClaimBase/total]
	}
	sum := sha256.Sum256([]byte(namespace + "/" + kind + "/" + owner + "/" + entry))
	suffix := make([]byte, 5)
	for i := range suffix {
		suffix[i] = nameAlphabet[int(sum[i])%len(nameAlphabet)]
	}
	return bo + "-" + be + "-" + string(suffix)
}

type groupEntry struct{ name, claim, template string }

// groupEntries reads spec.resourceClaims of a PodGroup.
func groupEntries(o *Object) []groupEntry {
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(o.Obj)
	if err != nil {
		return nil
	}
	list, _, _ := unstructured.NestedSlice(u, "spec", "resourceClaims")
	var out []groupEntry
	for _, it := range list {
		m, _ := it.(map[string]interface{})
		n, _ := m["name"].(string)
		c, _ := m["resourceClaimName"].(string)
		t, _ := m["resourceClaimTemplateName"].(string)
		out = append(out, groupEntry{n, c, t})
	}
	return out
}

// setGroupClaimStatuses writes status.resourceClaimStatuses of a PodGroup through its unstructured form, so
// the code does not depend on the release's Go type.
func setGroupClaimStatuses(o *Object, statuses []interface{}) error {
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(o.Obj)
	if err != nil {
		return err
	}
	if err := unstructured.SetNestedSlice(u, statuses, "status", "resourceClaimStatuses"); err != nil {
		return err
	}
	fresh, err := legacyscheme.Scheme.New(o.Obj.GetObjectKind().GroupVersionKind())
	if err != nil {
		return err
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u, fresh); err != nil {
		return err
	}
	o.Obj = fresh
	return nil
}

func claimFromTemplate(t *resourcev1.ResourceClaimTemplate, name, entry string, owner metav1.OwnerReference) *resourcev1.ResourceClaim {
	c := &resourcev1.ResourceClaim{
		TypeMeta: metav1.TypeMeta{APIVersion: "resource.k8s.io/v1", Kind: "ResourceClaim"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: t.Namespace, Labels: map[string]string{},
			Annotations: map[string]string{}, OwnerReferences: []metav1.OwnerReference{owner}},
		Spec: *t.Spec.Spec.DeepCopy(),
	}
	for k, v := range t.Spec.Labels {
		c.Labels[k] = v
	}
	for k, v := range t.Spec.Annotations {
		c.Annotations[k] = v
	}
	c.Annotations[PodClaimNameAnnotation] = entry
	return c
}

var claimsGVR = schema.GroupVersionResource{Group: "resource.k8s.io", Version: "v1", Resource: "resourceclaims"}

func boolp(b bool) *bool { return &b }

func withClaims(a Adapter, objs []*Object, gates map[string]bool) ([]*Object, error) {
	templates := map[string]*resourcev1.ResourceClaimTemplate{}
	existing := map[string]bool{}
	groups := map[string]*Object{}
	for _, o := range objs {
		switch v := o.Obj.(type) {
		case *resourcev1.ResourceClaimTemplate:
			templates[v.Namespace+"/"+v.Name] = v
		case *resourcev1.ResourceClaim:
			existing[v.Namespace+"/"+v.Name] = true
		}
		if o.Kind == "PodGroup" {
			groups[o.Meta().GetNamespace()+"/"+o.Meta().GetName()] = o
		}
	}
	groupClaims := gates["DRAWorkloadResourceClaims"]
	// claim name per "ns/group/entry" for group entries
	groupClaim := map[string]string{}
	var out []*Object
	cluster := false
	add := func(c *resourcev1.ResourceClaim) {
		if existing[c.Namespace+"/"+c.Name] {
			return
		}
		existing[c.Namespace+"/"+c.Name] = true
		out = append(out, &Object{Doc: Doc{File: "<resourceclaim controller>", Cluster: cluster}, Kind: "ResourceClaim", GVR: claimsGVR, Obj: c, Created: true})
	}
	for _, o := range objs {
		cluster = o.Doc.Cluster
		if o.Kind == "PodGroup" && groupClaims {
			m := o.Meta()
			var statuses []interface{}
			var made []*resourcev1.ResourceClaim
			for _, e := range groupEntries(o) {
				name := e.claim
				if e.template != "" {
					t := templates[m.GetNamespace()+"/"+e.template]
					if t == nil {
						continue
					}
					name = GeneratedClaimName(m.GetNamespace(), "PodGroup", m.GetName(), e.name)
					gvk := o.Obj.GetObjectKind().GroupVersionKind()
					made = append(made, claimFromTemplate(t, name, e.name, metav1.OwnerReference{
						APIVersion: gvk.GroupVersion().String(), Kind: "PodGroup", Name: m.GetName(), UID: m.GetUID(),
						Controller: boolp(true), BlockOwnerDeletion: boolp(true)}))
					statuses = append(statuses, map[string]interface{}{"name": e.name, "resourceClaimName": name})
				}
				groupClaim[m.GetNamespace()+"/"+m.GetName()+"/"+e.name+"/"+e.claim+"/"+e.template] = name
			}
			if len(statuses) > 0 {
				if err := setGroupClaimStatuses(o, statuses); err != nil {
					return nil, err
				}
			}
			out = append(out, o)
			for _, c := range made {
				add(c)
			}
			continue
		}
		p, ok := o.Obj.(*corev1.Pod)
		if !ok {
			out = append(out, o)
			continue
		}
		have := map[string]bool{}
		for _, s := range p.Status.ResourceClaimStatuses {
			have[s.Name] = true
		}
		group := ""
		if p.Spec.SchedulingGroup != nil && p.Spec.SchedulingGroup.PodGroupName != nil {
			group = p.Namespace + "/" + *p.Spec.SchedulingGroup.PodGroupName
		}
		for _, e := range p.Spec.ResourceClaims {
			if have[e.Name] {
				continue
			}
			claim, tmpl := "", ""
			if e.ResourceClaimName != nil {
				claim = *e.ResourceClaimName
			}
			if e.ResourceClaimTemplateName != nil {
				tmpl = *e.ResourceClaimTemplateName
			}
			if groupClaims && group != "" {
				if name, ok := groupClaim[group+"/"+e.Name+"/"+claim+"/"+tmpl]; ok && tmpl != "" {
					n := name
					p.Status.ResourceClaimStatuses = append(p.Status.ResourceClaimStatuses,
						corev1.PodResourceClaimStatus{Name: e.Name, ResourceClaimName: &n})
					continue
				}
			}
			if tmpl == "" {
				continue
			}
			t := templates[p.Namespace+"/"+tmpl]
			if t == nil {
				continue
			}
			name := GeneratedClaimName(p.Namespace, "Pod", p.Name, e.Name)
			add(claimFromTemplate(t, name, e.Name, metav1.OwnerReference{APIVersion: "v1", Kind: "Pod", Name: p.Name,
				UID: p.UID, Controller: boolp(true), BlockOwnerDeletion: boolp(true)}))
			n := name
			p.Status.ResourceClaimStatuses = append(p.Status.ResourceClaimStatuses,
				corev1.PodResourceClaimStatus{Name: e.Name, ResourceClaimName: &n})
		}
		out = append(out, o)
	}
	for i, o := range out {
		if o.Created && o.Kind == "ResourceClaim" {
			stamp(o.Meta(), i+1, fmt.Sprintf("00000000-0000-4000-9000-%012d", i+1))
		}
	}
	return out, nil
}
