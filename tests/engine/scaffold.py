"""Scaffolding the engine tests written as manifests share: the YAML of priority classes and nodes, and one
`wasplan plan -o json` run over a snapshot and manifests written into the test's directory (the real CLI,
in-process). The builders write the same flow-style YAML the tests used to spell out one by one."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from wasplan.cli import plan_cmd  # noqa: F401  (registers the command)
from wasplan.cli.app import app


def stream(*documents: str) -> str:
    """YAML documents as one stream, `---` between them."""
    return "---\n".join(documents)


def priority_classes(**values: int) -> str:
    """One PriorityClass per `name=value`."""
    return stream(*(f"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {{name: {name}}}\n"
                    f"value: {value}\n" for name, value in values.items()))


LOW_MID_HIGH = priority_classes(low=10, mid=100, high=1000)


def node(name: str, cpu: str, memory: str = "8Gi", *, zone: str | None = None, capacity: bool = False) -> str:
    """A Node with its hostname label (and zone), the allocatable cpu and memory and 110 pods; `capacity`
    repeats them as its capacity."""
    labels = f"kubernetes.io/hostname: {name}" + (f", topology.kubernetes.io/zone: {zone}" if zone else "")
    room = f'{{cpu: "{cpu}", memory: {memory}, pods: "110"}}'
    status = f"{{allocatable: {room}, capacity: {room}}}" if capacity else f"{{allocatable: {room}}}"
    return f"apiVersion: v1\nkind: Node\nmetadata: {{name: {name}, labels: {{{labels}}}}}\nstatus: {status}\n"


def plan_json(tmp_path, cluster: str, manifests: str, *options: str, code: int | None = 0,
              name: str = "pods.yaml") -> dict:
    """Write the snapshot (cluster.yaml) and the manifests (`name`) into tmp_path, plan them with `options`,
    check the exit code (None: 0 or 1) and return the Plan document."""
    (tmp_path / "cluster.yaml").write_text(cluster)
    (tmp_path / name).write_text(manifests)
    result = CliRunner().invoke(app, ["plan", str(tmp_path / name), "--cluster", str(tmp_path / "cluster.yaml"),
                                      *options, "-o", "json"])
    assert result.exit_code in ((0, 1) if code is None else (code,)), result.output
    return json.loads(result.stdout)


def pod(name: str, cpu: str, *, node: str | None = None, priority: str | None = None, app: str | None = None,
        memory: str | None = None, started: str | None = None) -> str:
    """A Pod in `default` with one container requesting `cpu` (and memory): bound to `node` when given (with
    phase Running since `started`), of PriorityClass `priority`, labelled `app`."""
    labels = f", labels: {{app: {app}}}" if app else ""
    quoted = f'"{cpu}"' if cpu.isdigit() else cpu
    requests = f"cpu: {quoted}" + (f", memory: {memory}" if memory else "")
    spec = (f"  nodeName: {node}\n" if node else "") + (f"  priorityClassName: {priority}\n" if priority else "")
    status = f"status: {{phase: Running, startTime: '{started}'}}\n" if started else ""
    return (f"apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}, namespace: default{labels}}}\nspec:\n{spec}"
            f"  containers: [{{name: main, image: app:1, resources: {{requests: {{{requests}}}}}}}]\n{status}")
