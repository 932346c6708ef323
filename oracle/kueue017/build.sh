#!/usr/bin/env bash
# Builds the Kueue oracle, oracle/bin/oracle-kueue, from this module (sigs.k8s.io/kueue v0.17.0); oracle/build
# runs it for the `kueue` target. Kueue's CRD schemas (config/components/crd/bases in the module) are copied
# into crds/ (ignored by git) for go:embed, so the binary applies the CRD defaults without the module cache.
# A module the proxy cannot serve skips the Kueue oracle with one line (exit 0); any other failure exits 1.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bin="$here/../bin"
export GOTOOLCHAIN=local
export GOFLAGS="${GOFLAGS:--mod=mod -buildvcs=false}"
mkdir -p "$bin"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
cd "$here"
if ! go mod download >"$log" 2>&1 || ! kdir="$(go list -m -f '{{.Dir}}' sigs.k8s.io/kueue 2>>"$log")"; then
    if grep -qiE 'proxy|dial tcp|no such host|connection refused|i/o timeout|unknown revision|403 Forbidden|404 Not Found|410 Gone' "$log"; then
        echo "oracle/build: skipping the Kueue oracle: the Go module proxy could not serve a module: $(grep -iE 'proxy|dial tcp|no such host|refused|timeout|revision|403|404|410' "$log" | head -n 1)" >&2
        exit 0
    fi
    echo "oracle/build: resolving the Kueue oracle's modules failed:" >&2
    cat "$log" >&2
    exit 1
fi
rm -rf crds && mkdir crds
cp "$kdir"/config/components/crd/bases/*.yaml crds/
chmod u+w crds/*.yaml
if ! go build -o "$bin/oracle-kueue.new" . >"$log" 2>&1; then
    echo "oracle/build: building the Kueue oracle failed:" >&2
    cat "$log" >&2
    exit 1
fi
mv -f "$bin/oracle-kueue.new" "$bin/oracle-kueue"
