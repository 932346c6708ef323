//go:build !k8s138

// Built for the 1.36 and 1.37 oracles only (oracle/build passes the tag k8s<release>): in
// k8s.io/dynamic-resource-allocation v0.38 the api Device's attributes and capacities are the package's own
// interned types, converted from resource.k8s.io/v1 only inside that package, so this file does not compile
// there; wasplan does not plan 1.38 yet, and the CEL differential runs for 1.36 and 1.37.

package core

// `oracle cel FILE`: compile DRA device selectors with upstream's own CEL environment and evaluate each against
// every device of the file, as the scheduler's allocator does (k8s.io/dynamic-resource-allocation cel/compile.go:
// GetCompiler(Features).CompileCELExpression with the stored-expressions environment of
// environment.MustBaseEnvSet, then CompilationResult.DeviceMatches). wasplan's CEL environment
// (src/wasplan/cel/) is compared with it by tests/oracle/test_cel_oracle.py.
//
// Input (JSON or YAML):
//
//	features: {consumableCapacity: true, listTypeAttributes: false}
//	expressions: ["device.driver == 'a'", ...]
//	devices:
//	- driver: gpu.example.com
//	  allowMultipleAllocations: false
//	  attributes: {model: {string: a100}, cores: {int: 108}}   # resource.k8s.io/v1 DeviceAttribute
//	  capacity: {memory: {value: 80Gi}}                          # resource.k8s.io/v1 DeviceCapacity
//
// Output: one JSON document, per expression its compile error (absent when it compiles), the estimated
// worst-case cost and per device the verdict: {"match": bool} or {"error": "<upstream's message>"}.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/util/yaml"
	dracel "k8s.io/dynamic-resource-allocation/cel"
)

type celInput struct {
	Features struct {
		ConsumableCapacity bool `json:"consumableCapacity"`
		ListTypeAttributes bool `json:"listTypeAttributes"`
	} `json:"features"`
	Expressions []string    `json:"expressions"`
	Devices     []celDevice `json:"devices"`
}

type celDevice struct {
	Driver                   string                                                    `json:"driver"`
	AllowMultipleAllocations *bool                                                     `json:"allowMultipleAllocations"`
	Attributes               map[resourceapi.QualifiedName]resourceapi.DeviceAttribute `json:"attributes"`
	Capacity                 map[resourceapi.QualifiedName]resourceapi.DeviceCapacity  `json:"capacity"`
}

type celVerdict struct {
	Match *bool  `json:"match,omitempty"`
	Error string `json:"error,omitempty"`
}

type celResult struct {
	Expression   string       `json:"expression"`
	CompileError string       `json:"compileError,omitempty"`
	MaxCost      *uint64      `json:"maxCost,omitempty"`
	Verdicts     []celVerdict `json:"verdicts,omitempty"`
}

type celOutput struct {
	Release string      `json:"release"`
	Results []celResult `json:"results"`
}

func init() {
	Register("cel", Command{"compile DRA CEL selectors with upstream's environment and evaluate them on devices", runCel})
}

func runCel(a Adapter, args []string, stdout, stderr io.Writer) int {
	args = withoutVersionFlag(args)
	if len(args) != 1 {
		return fail(stderr, &UsageError{"usage: oracle cel FILE (JSON or YAML: features, expressions, devices)"})
	}
	raw, err := os.ReadFile(args[0])
	if err != nil {
		return fail(stderr, &InputError{fmt.Sprintf("%s: %v", args[0], err)})
	}
	var in celInput
	if err := yaml.Unmarshal(raw, &in); err != nil {
		return fail(stderr, &InputError{fmt.Sprintf("%s: %v", args[0], err)})
	}
	out := celOutput{Release: a.Release(), Results: evaluateCel(in)}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", " ")
	if err := enc.Encode(out); err != nil {
		return fail(stderr, err)
	}
	return ExitOK
}

func evaluateCel(in celInput) []celResult {
	compiler := dracel.GetCompiler(dracel.Features{
		EnableConsumableCapacity: in.Features.ConsumableCapacity,
		EnableListTypeAttributes: in.Features.ListTypeAttributes,
	})
	ctx := context.Background()
	results := make([]celResult, 0, len(in.Expressions))
	for _, expression := range in.Expressions {
		compiled := compiler.CompileCELExpression(expression, dracel.Options{})
		result := celResult{Expression: expression}
		if compiled.Error != nil {
			result.CompileError = compiled.Error.Detail
			results = append(results, result)
			continue
		}
		cost := compiled.MaxCost
		result.MaxCost = &cost
		for _, d := range in.Devices {
			match, _, err := compiled.DeviceMatches(ctx, dracel.Device{
				Driver:                   d.Driver,
				AllowMultipleAllocations: d.AllowMultipleAllocations,
				Attributes:               d.Attributes,
				Capacity:                 d.Capacity,
			})
			if err != nil {
				result.Verdicts = append(result.Verdicts, celVerdict{Error: err.Error()})
			} else {
				m := match
				result.Verdicts = append(result.Verdicts, celVerdict{Match: &m})
			}
		}
		results = append(results, result)
	}
	return results
}

// withoutVersionFlag drops --k8s-version (read by the bin/oracle dispatcher to pick the release binary).
func withoutVersionFlag(args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		switch {
		case args[i] == "--k8s-version" && i+1 < len(args):
			i++
		case strings.HasPrefix(args[i], "--k8s-version="):
		default:
			out = append(out, args[i])
		}
	}
	return out
}
