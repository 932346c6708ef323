"""What the visual plan reports cost: the HTML page's size and the time to write it and to open it, and the
Markdown summary's, on generated GPU clusters of 600, 5,000 and 15,000 nodes. Prints figures, asserts nothing.

    PYTHONPATH=src python benchmarks/report_html.py          # every size
    PYTHONPATH=src python benchmarks/report_html.py 5000     # one size

Each cluster is `kubectl get -o json` output: 8-GPU nodes in 3 zones and racks of 16 (the racks as the
`topology.kubernetes.io/rack` label), one node in ten tainted and one in a hundred cordoned, a running 4-GPU pod
on every third node; the manifests are 1.37 Indexed Jobs of 8 pods with a gang and a rack constraint through a
Workload, enough to take about half the free GPUs, and two Jobs too big to fit (pending with reasons).

Figures per size:
* `plan -o json` and `plan -o json --report plan.html`, each a whole process as a user runs it (wall and CPU
  seconds, the fastest of three runs up to 5,000 nodes; the difference is what the HTML adds, also as a
  fraction of `plan`'s CPU time; on a shared machine it is within the noise, read the in-process figures);
* importing Jinja2 and compiling the template (once per process), then building the PlanView and rendering the
  page in-process (CPU seconds), the page's size;
* the same for the Markdown summary;
* headless Chromium opening the page from disk: wall seconds of `--dump-dom` against the same for an empty page,
  and the page's own clock (`performance.now()`) when its script has finished.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from process import child, in_process  # noqa: E402

SIZES = (600, 5000, 15000)
GANG = 8
FIXED: list[float] = []
REPEAT = 3  # whole-process runs per variant up to 5,000 nodes (the fastest counts); one at 15,000

WORKLOAD = """apiVersion: scheduling.k8s.io/v1beta1
kind: Workload
metadata: {{name: train-{i:04d}, namespace: ml}}
spec:
  podGroupTemplates:
  - name: workers
    schedulingPolicy:
      gang: {{minCount: {n}}}
    schedulingConstraints:
      topology:
      - key: topology.kubernetes.io/rack
---
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {{name: train-{i:04d}-workers, namespace: ml}}
spec:
  workloadRef: {{workloadName: train-{i:04d}, templateName: workers}}
  schedulingPolicy:
    gang: {{minCount: {n}}}
  schedulingConstraints:
    topology:
    - key: topology.kubernetes.io/rack
---
apiVersion: batch/v1
kind: Job
metadata: {{name: train-{i:04d}, namespace: ml}}
spec:
  completionMode: Indexed
  completions: {n}
  parallelism: {n}
  template:
    spec:
      schedulingGroup: {{podGroupName: train-{i:04d}-workers}}
      restartPolicy: Never
      containers:
      - name: worker
        image: trainer:1
        resources:
          requests: {{cpu: "16", memory: 200Gi, nvidia.com/gpu: "{gpus}"}}
          limits: {{nvidia.com/gpu: "{gpus}"}}
"""


def snapshot(count: int) -> dict:
    items = []
    for i in range(count):
        name = f"gpu-{i:05d}"
        capacity = {"cpu": "96", "memory": "1Ti", "pods": "110", "nvidia.com/gpu": "8"}
        spec: dict = {}
        if i % 10 == 9:
            spec["taints"] = [{"key": "reserved", "value": "inference", "effect": "NoSchedule"}]
        if i % 100 == 42:
            spec["unschedulable"] = True
        labels = {"kubernetes.io/hostname": name, "topology.kubernetes.io/zone": f"zone-{i * 3 // count}",
                  "topology.kubernetes.io/rack": f"rack-{i // 16:04d}"}
        items.append({"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": labels}, "spec": spec,
                      "status": {"capacity": capacity, "allocatable": dict(capacity)}})
    for i in range(0, count, 3):
        requests = {"cpu": "8", "memory": "64Gi", "nvidia.com/gpu": "4"}
        items.append({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": f"serve-{i:05d}", "namespace": "serving"},
                      "spec": {"nodeName": f"gpu-{i:05d}", "containers": [{"name": "s", "image": "serve:1",
                               "resources": {"requests": requests, "limits": {"nvidia.com/gpu": "4"}}}],
                               "tolerations": [{"key": "reserved", "operator": "Exists"}]},
                      "status": {"phase": "Running"}})
    return {"apiVersion": "v1", "kind": "List", "metadata": {}, "items": items}


def manifests(count: int) -> str:
    jobs = max(count // (2 * GANG), 1)
    docs = [WORKLOAD.format(i=i, n=GANG, gpus=4) for i in range(jobs)]
    docs += [WORKLOAD.format(i=jobs + k, n=64, gpus=8) for k in range(2)]  # 64 whole nodes in one rack of 16
    return "---\n".join(docs)


def chromium() -> str | None:
    return next((p for p in (os.environ.get("WASPLAN_CHROMIUM"), shutil.which("chromium"),
                             shutil.which("google-chrome")) if p), None)


def browser(page: Path, profile: Path) -> tuple[float, int | None]:
    """Wall seconds of opening `page` headless until the DOM is dumped, and the page's clock at script end."""
    argv = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
            f"--user-data-dir={profile}", "--dump-dom", page.as_uri()]
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    wall = time.perf_counter() - start
    found = re.search(r'data-ready-ms="(\d+)"', done.stdout)
    return wall, int(found.group(1)) if found else None


def measure(count: int, root: Path) -> None:
    from wasplan.api.releases import default_gates, get_release
    from wasplan.pipeline.plan import run_plan
    from wasplan.pipeline.requests import PlanRequest
    from wasplan.planview import build_view
    from wasplan.report.plan_html import render_html
    from wasplan.report.plan_markdown import render_markdown

    (root / "snap.json").write_text(json.dumps(snapshot(count)))
    (root / "jobs.yaml").write_text(manifests(count))
    page = root / "plan.html"
    base = ["plan", str(root / "jobs.yaml"), "--cluster", str(root / "snap.json"), "-o", "json", "--fail-on", "never"]
    runs = REPEAT if count <= 5000 else 1
    plain = min((child(base) for _ in range(runs)), key=lambda r: r[1])
    with_page = min((child([*base, "--report", str(page)]) for _ in range(runs)), key=lambda r: r[1])
    (wall, cpu, code), (wall_r, cpu_r, code_r) = plain, with_page
    print(f"{count:,} nodes (whole processes: the fastest of {runs}):")
    print(f"  plan -o json                        wall={wall:6.2f}s cpu={cpu:6.2f}s exit={code}")
    print(f"  plan -o json --report plan.html     wall={wall_r:6.2f}s cpu={cpu_r:6.2f}s exit={code_r} "
          f"({cpu_r - cpu:+.2f} cpu-s, {(cpu_r - cpu) / cpu:+.1%} of plan)")
    run = run_plan(PlanRequest([str(root / "jobs.yaml")], [str(root / "snap.json")],
                               default_gates(get_release("1.37"))))
    s = run.plan.summary()
    print(f"  the plan: {s['pods']:,} pods, {s['bound']:,} bound, {s['pending']:,} pending, "
          f"{s['podGroups']:,} PodGroups")
    holder: dict = {}
    if not FIXED:  # once per process: importing Jinja2 and compiling the page's template
        from wasplan.report.plan_html import _environment

        FIXED.append(in_process(lambda: _environment().get_template("plan.html.j2")))
        print(f"  Jinja2 import + template compile    cpu={FIXED[0]:6.3f}s (once per process)")
    view_cpu = in_process(lambda: holder.setdefault("view", build_view(run.plan, run.final)))
    html_cpu = in_process(lambda: holder.setdefault("html", render_html(holder["view"])))
    md_cpu = in_process(lambda: holder.setdefault("md", render_markdown(holder["view"])))
    size = len(holder["html"].encode())
    print(f"  PlanView                            cpu={view_cpu:6.3f}s")
    print(f"  HTML                                cpu={html_cpu:6.3f}s size={size / 1024:,.0f} KiB "
          f"({size / count:,.0f} bytes/node); the file --report wrote: {page.stat().st_size / 1024:,.0f} KiB")
    print(f"  Markdown                            cpu={md_cpu:6.3f}s size={len(holder['md'].encode()) / 1024:,.0f} KiB")
    print(f"  view + HTML against plan's process CPU: {(view_cpu + html_cpu) / cpu:.1%} "
          f"(with the once-per-process cost: {(view_cpu + html_cpu + FIXED[0]) / cpu:.1%})")
    if chromium():
        empty = root / "empty.html"
        empty.write_text("<!DOCTYPE html><title>empty</title>")
        floor, _ = browser(empty, root / "profile")
        opened, ready = browser(page, root / "profile")
        print(f"  Chromium opens the page             wall={opened:6.2f}s (empty page {floor:.2f}s: "
              f"+{opened - floor:.2f}s); script done at {ready} ms on the page's clock")
    else:
        print("  Chromium: not found, browser timing skipped")


def main(argv: list[str]) -> None:
    sizes = [int(a) for a in argv] or list(SIZES)
    for count in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            measure(count, Path(tmp))


if __name__ == "__main__":
    main(sys.argv[1:])
