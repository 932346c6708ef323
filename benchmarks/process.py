"""Whole-process figures: each command run as a user runs it (`python -m wasplan ...` in a subprocess, start to
exit), beside the same use case called in-process (the library figure, no start-up) on issue 14's shapes.
Prints figures, asserts nothing.

    PYTHONPATH=src python benchmarks/process.py              # every shape
    PYTHONPATH=src python benchmarks/process.py plan-jobs    # one shape

Shapes:
* plan-jobs        1,000 Indexed Jobs x 10 pods with 1.37 `spec.scheduling` gang (10,000 pods) on 5,000 nodes
                   given as `kubectl get nodes -o json`; `-o json` output
* validate-2000    benchmarks/corpus.py's training runs, 2,000 documents (one file per run), next to
                   kubernetes-validate --strict on the same files and a bare libyaml parse
* validate-20000   the same corpus with 20,000 documents in one file, next to a bare libyaml parse
* migrate-file     one file of 2,000 documents (benchmarks/migrate.py's mixed kinds), next to ruamel's load+dump
* migrate-file-all the worst case: one file of 2,000 Workloads, PodGroups and Jobs, every one of them edited
* migrate-tree     120 files x 20 documents, next to ruamel's load+dump of the same files
* explain-NAME     benchmarks/explain.py's scenarios (short-5000, taint-5000, pending-5000, zone-5000) as files:
                   5,000 nodes and ~35,000 running pods as `kubectl get -o json` output, the manifests as a List;
                   `wasplan explain [podgroup/train/big] ...` with the default verification budget

CPU seconds (user+sys of the child) are the steady figure on a shared machine; wall seconds are what a user sees.
"""

from __future__ import annotations

import gc
import io
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bytecode import compile_src  # noqa: E402
from corpus import write_corpus  # noqa: E402
from migrate import generate as generate_migrate  # noqa: E402

JOB = """apiVersion: batch/v1
kind: Job
metadata:
  name: train-{i:04d}
  namespace: ml
spec:
  completionMode: Indexed
  completions: 10
  parallelism: 10
  scheduling:
    schedulingPolicy:
      gang: {{}}
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: worker
        image: trainer:1
        resources:
          requests: {{cpu: "1", memory: 2Gi}}
"""


def kubectl_nodes(count: int) -> dict:
    """What `kubectl get nodes -o json` prints for `count` plain 32-core nodes in three zones."""
    def node(i: int) -> dict:
        name = f"node-{i:05d}"
        capacity = {"cpu": "32", "memory": "128Gi", "pods": "110", "ephemeral-storage": "500Gi"}
        return {"apiVersion": "v1", "kind": "Node",
                "metadata": {"name": name, "labels": {"kubernetes.io/hostname": name,
                                                      "topology.kubernetes.io/zone": f"zone-{i % 3}"}},
                "spec": {}, "status": {"capacity": capacity, "allocatable": dict(capacity)}}
    return {"apiVersion": "v1", "kind": "List", "items": [node(i) for i in range(count)], "metadata": {}}


def timed_process(argv: list[str]) -> tuple[float, float, int]:
    """Runs `argv`; returns wall seconds, CPU seconds (user+sys of the child) and the exit code."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    env = {**os.environ, "PYTHONPATH": str(HERE.parent / "src")}
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode == 2:
        print(done.stderr.decode()[-2000:], file=sys.stderr)
    return wall, cpu, done.returncode


def child(args: list[str]) -> tuple[float, float, int]:
    """`python -m wasplan ARGS` as a user runs it."""
    return timed_process([sys.executable, "-m", "wasplan", *args])


def child_median(args: list[str], runs: int = 5) -> tuple[float, float, int]:
    """`child` after one untimed run, `runs` times: the median wall and CPU seconds. The first process after the
    inputs are written is slower here by up to a third (measured: 1.22 s and 1.32 s, then 1.00-1.08 s)."""
    child(args)
    done = [child(args) for _ in range(runs)]
    return (statistics.median(d[0] for d in done), statistics.median(d[1] for d in done),
            max(d[2] for d in done))


def in_process(fn) -> float:
    """CPU seconds of `fn()` with the cyclic garbage collector paused, as the CLI runs (wasplan.cli.collector)."""
    gc.disable()
    try:
        start = time.process_time()
        fn()
        return time.process_time() - start
    finally:
        gc.enable()


def line(label: str, wall: float | None, cpu: float, count: int, unit: str, extra: str = "") -> None:
    wall_text = f"wall={wall:6.2f}s " if wall is not None else " " * 13
    rate = f"{count / cpu:9.0f} {unit}/cpu-s " if unit else ""
    print(f"  {label:36s} {wall_text}cpu={cpu:6.2f}s {rate}{extra}", flush=True)


def plan_jobs(root: Path) -> None:
    from wasplan.api.releases import default_gates, get_release
    from wasplan.pipeline.plan import run_plan
    from wasplan.pipeline.requests import PlanRequest
    from wasplan.report.plan_json import render_plan_json as render

    (root / "nodes.json").write_text(json.dumps(kubectl_nodes(5000), indent=2))
    (root / "jobs.yaml").write_text("---\n".join(JOB.format(i=i) for i in range(1000)))
    print("plan-jobs: 10,000 gang pods (1,000 Jobs x 10) on 5,000 nodes (kubectl JSON), -o json")
    args = ["plan", str(root / "jobs.yaml"), "--cluster", str(root / "nodes.json"), "-o", "json"]
    wall, cpu, code = child_median(args)
    line("wasplan plan (process, median of 5)", wall, cpu, 10_000, "pods",
         f"exit={code} pods/s(wall)={10_000 / wall:.0f}")
    gates = default_gates(get_release("1.37"))
    holder: dict = {}
    paths = ([str(root / "jobs.yaml")], [str(root / "nodes.json")])
    cpu = in_process(lambda: holder.setdefault("run", run_plan(PlanRequest(*paths, gates))))
    line("run_plan (library)", None, cpu, 10_000, "pods")
    cpu = in_process(lambda: render(holder["run"].plan))
    line("JSON rendering", None, cpu, 10_000, "pods")


def bare_parse(files: list[Path]) -> float:
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return in_process(lambda: [list(yaml.load_all(f.read_text(), Loader=loader)) for f in files])


def validate(root: Path, documents: int, one_file: bool) -> None:
    from wasplan.api.releases import default_gates, get_release
    from wasplan.pipeline.validate import validate_paths

    corpus = root / "corpus"
    n = write_corpus(corpus, documents)
    if one_file:
        files = sorted(corpus.glob("*.yaml"))
        (root / "all.yaml").write_text("\n---\n".join(f.read_text() for f in files))
        shutil.rmtree(corpus)
        corpus = root / "all.yaml"
    files = [corpus] if one_file else sorted(corpus.glob("*.yaml"))
    print(f"validate-{documents}: {n} documents in {len(files)} file(s)")
    wall, cpu, code = child(["validate", str(corpus)])
    line("wasplan validate (process)", wall, cpu, n, "docs", f"exit={code}")
    ours = in_process(lambda: validate_paths([str(corpus)], default_gates(get_release("1.37"))))
    line("validate_paths (library)", None, ours, n, "docs")
    bare = bare_parse(files)
    line("bare libyaml parse", None, bare, n, "docs", f"process/bare={cpu / bare:.2f}x library/bare={ours / bare:.2f}x")
    exe = Path(sys.executable).parent / "kubernetes-validate"
    if not one_file and exe.exists():
        theirs_wall, theirs, _ = timed_process([str(exe), "--strict", "--quiet", "-k", "1.37.0", *map(str, files)])
        line("kubernetes-validate --strict", theirs_wall, theirs, n, "docs",
             f"wasplan is {theirs / cpu:.0f}x faster (cpu)")


def ruamel_floor(paths: list[Path]) -> float:
    from ruamel.yaml import YAML

    def run() -> None:
        y = YAML()
        for p in paths:
            y.dump_all(list(y.load_all(p.read_text())), io.StringIO())
    return in_process(run)


def migrate(root: Path, files: int, per_file: int, only_scheduling: bool = False) -> None:
    from wasplan.migrate.plan import Options
    from wasplan.migrate.targets import Target
    from wasplan.pipeline.migrate import migrate as run_migrate

    n = generate_migrate(root, files, per_file, only_scheduling)
    paths = sorted(root.glob("*.yaml"))
    print(f"migrate: {n} documents in {len(paths)} file(s), --to-k8s 1.37 (migrated stream to stdout)")
    wall, cpu, code = child(["migrate", str(root), "--to-k8s", "1.37"])
    ours = in_process(lambda: run_migrate([str(root)], Target.parse("1.37", None), Options()))
    floor = ruamel_floor(paths)
    line("wasplan migrate (process)", wall, cpu, n, "docs", f"exit={code} process/floor={cpu / floor:.2f}x")
    line("migrate() (library)", None, ours, n, "docs", f"library/floor={ours / floor:.2f}x (target <= 1.5x)")
    line("ruamel load+dump (floor)", None, floor, n, "docs")


def explain_shape(root: Path, name: str) -> None:
    """benchmarks/explain.py's scenario `name` as files: the cluster as kubectl JSON, the manifests as YAML."""
    from explain import SCENARIOS as EXPLAIN

    from wasplan.api.releases import get_release
    from wasplan.cluster.model import Group, Node, Pod, PriorityClass
    from wasplan.cluster.snapshot_objects import group_object, node_object, pod_object, priority_class_object

    release = get_release("1.37")
    existing, arrivals, units = EXPLAIN[name]()
    objects = {Node: node_object, Pod: pod_object, PriorityClass: priority_class_object}
    items = [objects[type(r)](r) for r in existing]
    (root / "cluster.json").write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": items}))
    manifests = [group_object(r, release) if isinstance(r, Group) else pod_object(r) for r in arrivals]
    (root / "arrivals.yaml").write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": manifests},
                                                   indent=2))
    target = [f"{units[0].kind.lower()}/{units[0].key}"] if units else []
    print(f"explain-{name}: {len(items)} cluster objects (kubectl JSON), {len(manifests)} manifests, "
          f"target {target[0] if target else '(every pending group)'}")
    wall, cpu, code = child(["explain", *target, str(root / "arrivals.yaml"), "--cluster", str(root / "cluster.json")])
    line("wasplan explain (process)", wall, cpu, 1, "", f"exit={code} (1: it does not fit, as expected)")


SHAPES = {
    "plan-jobs": plan_jobs,
    "validate-2000": lambda root: validate(root, 2000, one_file=False),
    "validate-20000": lambda root: validate(root, 20_000, one_file=True),
    "migrate-file": lambda root: migrate(root, 1, 2000),
    "migrate-file-all": lambda root: migrate(root, 1, 2000, only_scheduling=True),
    "migrate-tree": lambda root: migrate(root, 120, 20),
    **{f"explain-{name}": (lambda root, name=name: explain_shape(root, name))
       for name in ("short-5000", "taint-5000", "pending-5000", "zone-5000")},
}


def main(argv: list[str]) -> None:
    compile_src()
    wanted = argv or list(SHAPES)
    if any(w not in SHAPES for w in wanted):
        print(__doc__)
        raise SystemExit(0 if argv == ["--help"] else 2)
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    for name in wanted:
        with tempfile.TemporaryDirectory() as tmp:
            SHAPES[name](Path(tmp))


if __name__ == "__main__":
    main(sys.argv[1:])
