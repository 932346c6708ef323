// Package core is the release-independent part of wasplan's upstream oracle: reading manifests, preparing them
// the way the API server and controllers would, driving the real kube-scheduler in-process on a fake
// clientset, and printing the result in wasplan's Plan JSON shape.
//
// Each Kubernetes release is its own main module (oracle/k8s136, oracle/k8s137) because one Go build list
// holds one version of k8s.io/kubernetes; both compile this package against their own module set and pass an
// Adapter with the few things that differ between releases (docs/oracle.md, ../shared/reference/oracle.md §1).
//
// Subcommands live in a table, one line each, and one file each (plan.go, evaluate.go, ...).
package core

import (
	"fmt"
	"io"
	"math/rand"
	"os"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
)

// Exit codes, the same contract as wasplan's (DESIGN.md §4): 0 nothing to report, 1 findings (pods left
// pending), 2 the tool could not do its job.
const (
	ExitOK       = 0
	ExitFindings = 1
	ExitError    = 2
)

// Command is one subcommand: it gets the release adapter and the arguments after its name and returns the
// exit code. Output goes to stdout, diagnostics to stderr.
type Command struct {
	Summary string
	Run     func(a Adapter, args []string, stdout, stderr io.Writer) int
}

// commands is the subcommand table; add one line per subcommand.
var commands = map[string]Command{
	"plan":     {"schedule manifests on a cluster with the real kube-scheduler; prints Plan JSON", runPlan},
	"evaluate": {"every Filter and Score plugin's verdict for one pending pod on every node", runEvaluate},
	"validate": {"decode, default and validate manifests as the API server does; prints a ValidationReport", runValidate},
	"convert":  {"convert manifests between the versions of one release as the API server does", runConvert},
	"expand":   {"run the Job controller on Jobs; prints the Workloads, PodGroups and Pods it creates", runExpand},
	"default":  {"the objects as plan hands them to the scheduler: defaulted, admitted, stamped; and what admission refuses", runDefault},
}

// Register adds a subcommand to the table (for files that prefer to register themselves in init).
func Register(name string, c Command) { commands[name] = c }

// Main runs the subcommand named by os.Args[1] and returns the process exit code.
func Main(a Adapter) int {
	// Upstream breaks ties with math/rand (placement scores, preemption candidates, node scores only when an
	// extender scores: oracle.md §4); a
	// fixed seed (go.mod: godebug randseednop=0) makes reruns repeat, best effort, and ORACLE_SEED picks another
	// draw, so a comparison can ask whether some draw of upstream's gives the plan wasplan's tie order gives.
	seed := int64(1)
	if v, err := strconv.ParseInt(os.Getenv("ORACLE_SEED"), 10, 64); err == nil {
		seed = v
	}
	rand.Seed(seed) //nolint:staticcheck
	tuneGC()
	return dispatch(a, os.Args[1:], os.Stdout, os.Stderr)
}

// tuneGC trades memory for time unless GOGC or GOMEMLIMIT say otherwise: upstream's filtering and scoring
// allocate per node, and at Go's default (a collection each time the heap doubles) the collector took a third
// of a SchedulingBasic run's CPU (docs/performance.md). A collection at four times the live heap, with a soft
// limit of 4 GiB that brings collections back as the heap approaches it.
func tuneGC() {
	if os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetGCPercent(400)
		debug.SetMemoryLimit(4 << 30)
	}
}

func dispatch(a Adapter, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(a, stderr)
		if len(args) == 0 {
			return ExitError
		}
		return ExitOK
	}
	if args[0] == "version" || args[0] == "--version" {
		fmt.Fprintf(stdout, "wasplan oracle for Kubernetes %s (k8s.io/kubernetes %s)\n", a.Release(), a.Kubernetes())
		return ExitOK
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "oracle: unknown command %q (commands: %s)\n", args[0], strings.Join(commandNames(), ", "))
		return ExitError
	}
	return cmd.Run(a, args[1:], stdout, stderr)
}

func commandNames() []string {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func usage(a Adapter, w io.Writer) {
	fmt.Fprintf(w, "usage: oracle COMMAND [flags]   (Kubernetes %s, k8s.io/kubernetes %s)\n\ncommands:\n",
		a.Release(), a.Kubernetes())
	for _, n := range commandNames() {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].Summary)
	}
}

// UsageError is a bad flag or argument: exit 2 with one line.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// InputError is input the oracle cannot run on (unreadable file, unsupported kind, invalid object): exit 2,
// the message names the file and the object.
type InputError struct{ Msg string }

func (e *InputError) Error() string { return e.Msg }

func fail(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "oracle: %v\n", err)
	return ExitError
}
