package core

// The Plan JSON the oracle prints: wasplan's shape (docs/plan-json.md, DESIGN.md §4) with two additions,
// `tiedNodes` on bound pods and the `oracle` block. Struct field order is the key order; every array is sorted
// by namespace, then name (preemptions keep the order they happened in), so the same input gives the same bytes.

import (
	"bytes"
	"encoding/json"
	"io"
)

type Plan struct {
	APIVersion         string              `json:"apiVersion"`
	Kind               string              `json:"kind"`
	K8sVersion         string              `json:"k8sVersion"`
	Summary            Summary             `json:"summary"`
	PodGroups          []PodGroupOut       `json:"podGroups"`
	Pods               []PodOut            `json:"pods"`
	Preemptions        []Preemption        `json:"preemptions"`
	CompositePodGroups []CompositeGroupOut `json:"compositePodGroups"`
	ResourceClaims     []ClaimOut          `json:"resourceClaims"`
	Unplanned          []interface{}       `json:"unplanned"`
	Oracle             OracleInfo          `json:"oracle"`
}

type Summary struct {
	Pods                   int `json:"pods"`
	Bound                  int `json:"bound"`
	AlreadyBound           int `json:"alreadyBound"`
	Pending                int `json:"pending"`
	Preempted              int `json:"preempted"`
	PodGroups              int `json:"podGroups"`
	PodGroupsScheduled     int `json:"podGroupsScheduled"`
	PodGroupsUnschedulable int `json:"podGroupsUnschedulable"`
	Unplanned              int `json:"unplanned"`
}

type Owner struct {
	Kind string `json:"kind"`
	Name string `json:"name"`
}

type PodOut struct {
	Namespace     string   `json:"namespace"`
	Name          string   `json:"name"`
	PodGroup      *string  `json:"podGroup"`
	Owner         *Owner   `json:"owner"`
	Status        string   `json:"status"`
	Node          *string  `json:"node"`
	NominatedNode *string  `json:"nominatedNode"`
	Reason        string   `json:"reason"`
	Message       string   `json:"message"`
	TiedNodes     []string `json:"tiedNodes,omitempty"`
}

type Placement struct {
	TopologyKey string `json:"topologyKey"`
	Domain      string `json:"domain"`
}

type Condition struct {
	Type   string `json:"type"`
	Status string `json:"status"`
	Reason string `json:"reason"`
}

type PodGroupOut struct {
	Namespace string     `json:"namespace"`
	Name      string     `json:"name"`
	Policy    string     `json:"policy"`
	MinCount  int64      `json:"minCount"`
	Status    string     `json:"status"`
	Placement *Placement `json:"placement"`
	Pods      []string   `json:"pods"`
	Reason    string     `json:"reason"`
	Message   string     `json:"message"`
	Condition *Condition `json:"condition"`
	// TiedPlacements: the placements that shared the best total at the group's last placement scoring
	// (placementties.go), when more than one did
	TiedPlacements []TiedPlacement `json:"tiedPlacements,omitempty"`
}

type CompositeGroupOut struct {
	Namespace     string     `json:"namespace"`
	Name          string     `json:"name"`
	Policy        string     `json:"policy"`
	MinGroupCount int64      `json:"minGroupCount"`
	Status        string     `json:"status"`
	Parent        *string    `json:"parent"`
	Placement     *Placement `json:"placement"`
	Message       string     `json:"message"`
	Condition     *Condition `json:"condition"`
	Children      []ChildOut `json:"children"`
	// TiedPlacements: as for a PodGroup, for the tree this composite is the root of
	TiedPlacements []TiedPlacement `json:"tiedPlacements,omitempty"`
}

// ChildOut is a child of a CompositePodGroup, read from its own state (result Scheduled, Failed or NotTried).
type ChildOut struct {
	Kind    string `json:"kind"`
	Name    string `json:"name"`
	Result  string `json:"result"`
	Message string `json:"message"`
}

type Ref struct {
	Kind      string `json:"kind"`
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
}

type Victim struct {
	Namespace string  `json:"namespace"`
	Name      string  `json:"name"`
	Node      string  `json:"node"`
	Priority  int32   `json:"priority"`
	PodGroup  *string `json:"podGroup"`
}

type Preemption struct {
	Preemptor Ref      `json:"preemptor"`
	Victims   []Victim `json:"victims"`
}

type ClaimOwner struct {
	Kind  string `json:"kind"`
	Name  string `json:"name"`
	Claim string `json:"claim"`
}

type Device struct {
	Request     string `json:"request"`
	Driver      string `json:"driver"`
	Pool        string `json:"pool"`
	Device      string `json:"device"`
	AdminAccess bool   `json:"adminAccess"`
}

type ClaimOut struct {
	Namespace   string      `json:"namespace"`
	Name        string      `json:"name"`
	Owner       *ClaimOwner `json:"owner"`
	Status      string      `json:"status"`
	Node        *string     `json:"node"`
	Devices     []Device    `json:"devices"`
	ReservedFor []Ref       `json:"reservedFor"`
	Message     string      `json:"message"`
}

// OracleInfo says what produced the plan: the release, every gate that differs from upstream's default for
// it, and the effective scheduler profiles with their plugins and weights.
type OracleInfo struct {
	Kubernetes               string          `json:"kubernetes"`
	Go                       string          `json:"go"`
	Arrival                  string          `json:"arrival"`
	Gates                    map[string]bool `json:"gates"`
	Parallelism              int32           `json:"parallelism"`
	PercentageOfNodesToScore int32           `json:"percentageOfNodesToScore"`
	Profiles                 []ProfileOut    `json:"profiles"`
	Cycles                   int             `json:"cycles"`                 // ScheduleOne calls the run made
	BackoffWaits             int             `json:"backoffWaits,omitempty"` // waits for an error backoff to complete (drive.go)
	Watchdog                 string          `json:"watchdog,omitempty"`
}

type PluginOut struct {
	Name   string `json:"name"`
	Weight int32  `json:"weight,omitempty"`
}

type ProfileOut struct {
	SchedulerName string                 `json:"schedulerName"`
	Plugins       map[string][]PluginOut `json:"plugins"`
}

// WriteJSON prints v as indented JSON with a final newline; HTML characters are not escaped.
func WriteJSON(w io.Writer, v interface{}) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

func strp(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
