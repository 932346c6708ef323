// Command oracle-1.38 is wasplan's upstream oracle built from k8s.io/kubernetes v1.38.0-beta.0 with Go 1.27:
// the real kube-scheduler of Kubernetes 1.38 driven in-process on a fake clientset (see docs/oracle.md).
// Everything but the release differences in adapter.go and apiserver.go is in wasplan.local/oracle/core.
package main

import (
	"os"

	"wasplan.local/oracle/core"
)

func main() { os.Exit(core.Main(adapter{})) }
