"""Issue 33's workload: a realistic `kubectl get nodes,pods -A -o json|yaml` dump of a busy GPU cluster, and one
16-pod gang Job planned against it, measured beside a bare `json.load` of the same dump in one run.

The dump holds what the API server returns for each object, not only what the scheduler reads: every pod has
several containers (and init containers) with env, volume mounts, probes, resources, security context; projected
service-account volumes, tolerations, owner references, managedFields, conditions and container statuses. Nodes
carry their labels, annotations, taints, images, conditions, addresses and managedFields. The pods are a mix of
DaemonSet pods (one per node per DaemonSet), training workers, inference replicas and notebooks.

    PYTHONPATH=src python benchmarks/bigdump.py                 # 3,000 nodes, 21,000 pods (about 400 MB of JSON)
    PYTHONPATH=src python benchmarks/bigdump.py --scale 0.1     # a tenth of both counts
    PYTHONPATH=src python benchmarks/bigdump.py --write DIR     # only write DIR/cluster.json, cluster.yaml, job.yaml

Each measured command runs as a subprocess (start to exit); CPU is user+sys from getrusage(RUSAGE_CHILDREN)
and peak memory its own ru_maxrss (os.wait4), both read after each child. The ratios are each command against the bare
`json.load` of the JSON dump, measured in the same run. Prints figures, asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NODES, PODS = 3000, 21000
DAEMONSETS = ("node-exporter", "nvidia-device-plugin", "kube-proxy")
STAMP = "2026-11-30T08:15:42Z"

JOB = """apiVersion: batch/v1
kind: Job
metadata:
  name: gang-train
  namespace: research
spec:
  completionMode: Indexed
  completions: 16
  parallelism: 16
  scheduling:
    schedulingPolicy:
      gang: {}
  template:
    spec:
      restartPolicy: Never
      tolerations:
      - {key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}
      containers:
      - name: worker
        image: registry.example.com/research/trainer:2026.11
        resources:
          requests: {cpu: "16", memory: 200Gi, nvidia.com/gpu: "4"}
          limits: {nvidia.com/gpu: "4"}
"""


def _uid(rng: random.Random) -> str:
    h = f"{rng.getrandbits(128):032x}"
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def _managed(manager: str, operation: str, fields: dict) -> dict:
    return {"apiVersion": "v1", "fieldsType": "FieldsV1", "fieldsV1": fields, "manager": manager,
            "operation": operation, "time": STAMP}


def node(i: int, rng: random.Random) -> dict:
    name = f"gpu-node-{i:05d}"
    zone = f"us-east-1{'abc'[i % 3]}"
    capacity = {"cpu": "96", "ephemeral-storage": "3844640564Ki", "hugepages-1Gi": "0", "hugepages-2Mi": "0",
                "memory": "1056613888Ki", "nvidia.com/gpu": "8", "pods": "110"}
    allocatable = {**capacity, "cpu": "95690m", "memory": "1045055488Ki", "ephemeral-storage": "3543201058Ki"}
    labels = {"beta.kubernetes.io/arch": "amd64", "beta.kubernetes.io/os": "linux",
              "kubernetes.io/arch": "amd64", "kubernetes.io/hostname": name, "kubernetes.io/os": "linux",
              "node.kubernetes.io/instance-type": "p5.48xlarge", "topology.kubernetes.io/region": "us-east-1",
              "topology.kubernetes.io/zone": zone, "nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3",
              "nvidia.com/gpu.count": "8", "example.com/rack": f"rack-{i // 16:04d}",
              "example.com/pool": "training" if i % 4 else "inference"}
    conditions = [{"lastHeartbeatTime": STAMP, "lastTransitionTime": STAMP, "message": m, "reason": r,
                   "status": s, "type": t} for t, r, m, s in (
        ("MemoryPressure", "KubeletHasSufficientMemory", "kubelet has sufficient memory available", "False"),
        ("DiskPressure", "KubeletHasNoDiskPressure", "kubelet has no disk pressure", "False"),
        ("PIDPressure", "KubeletHasSufficientPID", "kubelet has sufficient PID available", "False"),
        ("Ready", "KubeletReady", "kubelet is posting ready status", "True"))]
    images = [{"names": [f"registry.example.com/{repo}@sha256:{rng.getrandbits(256):064x}",
                         f"registry.example.com/{repo}:{tag}"], "sizeBytes": rng.randrange(10**8, 10**10)}
              for repo, tag in (("research/trainer", "2026.11"), ("serving/llm", "v3.2.1"),
                                ("notebooks/jupyter", "lab-4.2"), ("monitoring/node-exporter", "v1.8.2"),
                                ("nvidia/k8s-device-plugin", "v0.16.2"), ("kube-proxy", "v1.37.2"))]
    return {
        "apiVersion": "v1", "kind": "Node",
        "metadata": {
            "annotations": {"node.alpha.kubernetes.io/ttl": "0",
                            "volumes.kubernetes.io/controller-managed-attach-detach": "true",
                            "csi.volume.kubernetes.io/nodeid": json.dumps({"ebs.csi.aws.com": f"i-{i:017x}"})},
            "creationTimestamp": "2026-10-01T00:00:00Z", "labels": labels,
            "managedFields": [
                _managed("kubelet", "Update", {"f:metadata": {"f:annotations": {".": {}, "f:node.alpha.kubernetes.io/ttl": {}},
                                                              "f:labels": {f"f:{k}": {} for k in labels}}}),
                _managed("kubelet", "Update", {"f:status": {"f:conditions": {f'k:{{"type":"{c["type"]}"}}':
                                                                             {"f:lastHeartbeatTime": {}} for c in conditions},
                                                            "f:images": {}, "f:nodeInfo": {"f:bootID": {}}}})],
            "name": name, "resourceVersion": str(10**8 + i), "uid": _uid(rng)},
        "spec": {"providerID": f"aws:///{zone}/i-{i:017x}", "podCIDR": f"10.{i // 256}.{i % 256}.0/24",
                 "taints": [{"effect": "NoSchedule", "key": "nvidia.com/gpu", "value": "present"}]},
        "status": {
            "addresses": [{"address": f"10.1.{i // 256}.{i % 256}", "type": "InternalIP"},
                          {"address": f"ip-10-1-{i // 256}-{i % 256}.ec2.internal", "type": "InternalDNS"},
                          {"address": name, "type": "Hostname"}],
            "allocatable": allocatable, "capacity": capacity, "conditions": conditions,
            "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}}, "images": images,
            "nodeInfo": {"architecture": "amd64", "bootID": _uid(rng), "containerRuntimeVersion": "containerd://2.0.4",
                         "kernelVersion": "6.8.0-1019-aws", "kubeProxyVersion": "", "kubeletVersion": "v1.37.2",
                         "machineID": f"{rng.getrandbits(128):032x}", "operatingSystem": "linux",
                         "osImage": "Ubuntu 24.04.1 LTS", "systemUUID": _uid(rng)}}}


def _container(name: str, image: str, requests: dict, limits: dict, rng: random.Random, env: int) -> dict:
    return {
        "name": name, "image": image, "imagePullPolicy": "IfNotPresent",
        "args": ["--config=/etc/app/config.yaml", f"--port={8000 + env}", "--log-format=json"],
        "env": [{"name": f"APP_SETTING_{k:02d}", "value": f"value-{rng.getrandbits(32):08x}"} for k in range(env)]
        + [{"name": "POD_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}}},
           {"name": "POD_IP", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "status.podIP"}}}],
        "ports": [{"containerPort": 8000 + env, "name": "http", "protocol": "TCP"}],
        "livenessProbe": {"failureThreshold": 3, "httpGet": {"path": "/healthz", "port": "http", "scheme": "HTTP"},
                          "periodSeconds": 10, "successThreshold": 1, "timeoutSeconds": 1},
        "readinessProbe": {"failureThreshold": 3, "httpGet": {"path": "/ready", "port": "http", "scheme": "HTTP"},
                           "periodSeconds": 5, "successThreshold": 1, "timeoutSeconds": 1},
        "resources": {"limits": limits, "requests": requests},
        "securityContext": {"allowPrivilegeEscalation": False, "capabilities": {"drop": ["ALL"]},
                            "readOnlyRootFilesystem": True, "runAsNonRoot": True},
        "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File",
        "volumeMounts": [{"mountPath": "/etc/app", "name": "config", "readOnly": True},
                         {"mountPath": "/data", "name": "data"},
                         {"mountPath": "/var/run/secrets/kubernetes.io/serviceaccount",
                          "name": "kube-api-access", "readOnly": True}]}


def _status(containers: list[dict], node_name: str, i: int, rng: random.Random) -> dict:
    def state(c: dict) -> dict:
        return {"containerID": f"containerd://{rng.getrandbits(256):064x}", "image": c["image"],
                "imageID": f"{c['image'].split(':')[0]}@sha256:{rng.getrandbits(256):064x}",
                "lastState": {}, "name": c["name"], "ready": True, "restartCount": 0, "started": True,
                "state": {"running": {"startedAt": STAMP}},
                "volumeMounts": [{"mountPath": m["mountPath"], "name": m["name"]} for m in c["volumeMounts"]]}
    return {"conditions": [{"lastProbeTime": None, "lastTransitionTime": STAMP, "status": "True", "type": t}
                           for t in ("PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady",
                                     "PodScheduled")],
            "containerStatuses": [state(c) for c in containers], "hostIP": f"10.1.{i // 256 % 256}.{i % 256}",
            "hostIPs": [{"ip": f"10.1.{i // 256 % 256}.{i % 256}"}], "phase": "Running",
            "podIP": f"10.2.{i // 256 % 256}.{i % 256}", "podIPs": [{"ip": f"10.2.{i // 256 % 256}.{i % 256}"}],
            "qosClass": "Burstable", "startTime": STAMP}


def pod(i: int, role: str, node_name: str, rng: random.Random) -> dict:
    """One running pod of `role` (a DaemonSet name, "train", "infer" or "notebook") bound to `node_name`."""
    if role in DAEMONSETS:
        namespace, owner_kind, owner = "kube-system", "DaemonSet", role
        name, gpu, cpu, memory, count = f"{role}-{i:06x}", 0, "100m", "128Mi", 1
    else:
        namespace = {"train": "research", "infer": "serving", "notebook": "notebooks"}[role]
        owner_kind = {"train": "Job", "infer": "ReplicaSet", "notebook": "StatefulSet"}[role]
        owner = f"{role}-{i // 8:05d}"
        name = f"{owner}-{i % 8}-{i:06x}"
        gpu, cpu, memory, count = {"train": (2, "8", "64Gi", 2), "infer": (1, "4", "32Gi", 2),
                                   "notebook": (0, "2", "8Gi", 1)}[role]
    requests = {"cpu": cpu, "memory": memory, **({"nvidia.com/gpu": str(gpu)} if gpu else {})}
    limits = {"memory": memory, **({"nvidia.com/gpu": str(gpu)} if gpu else {})}
    image = {"train": "registry.example.com/research/trainer:2026.11",
             "infer": "registry.example.com/serving/llm:v3.2.1",
             "notebook": "registry.example.com/notebooks/jupyter:lab-4.2"}.get(role, f"registry.example.com/{role}:v1")
    containers = [_container("main", image, requests, limits, rng, 2 if role in DAEMONSETS else 5)]
    containers += [_container(f"sidecar-{k}", "registry.example.com/mesh/proxy:1.24", {"cpu": "50m", "memory": "64Mi"},
                              {"memory": "128Mi"}, rng, 1) for k in range(count - 1)]
    init = [_container("init-config", "registry.example.com/tools/init:1.2", {"cpu": "10m", "memory": "16Mi"},
                       {"memory": "32Mi"}, rng, 2)] if role not in DAEMONSETS else []
    labels = {"app.kubernetes.io/name": owner, "app.kubernetes.io/part-of": namespace,
              "pod-template-hash": f"{rng.getrandbits(40):010x}", "team": f"team-{i % 23}"}
    return {
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {
            "annotations": {"kubectl.kubernetes.io/default-container": "main",
                            "prometheus.io/scrape": "true", "prometheus.io/port": "9090"},
            "creationTimestamp": STAMP, "generateName": f"{owner}-", "labels": labels,
            "managedFields": [
                _managed("kube-controller-manager", "Update",
                         {"f:metadata": {"f:generateName": {}, "f:labels": {f"f:{k}": {} for k in labels},
                                         "f:ownerReferences": {".": {}}},
                          "f:spec": {"f:containers": {f'k:{{"name":"{c["name"]}"}}': {
                              ".": {}, "f:env": {f'k:{{"name":"{e["name"]}"}}': {".": {}, "f:name": {}, "f:value": {}}
                                                 for e in c["env"]},
                              "f:image": {}, "f:resources": {"f:requests": {}}} for c in containers}}}),
                _managed("kubelet", "Update", {"f:status": {"f:conditions": {}, "f:containerStatuses": {},
                                                            "f:hostIP": {}, "f:phase": {}, "f:podIP": {},
                                                            "f:startTime": {}}})],
            "name": name, "namespace": namespace,
            "ownerReferences": [{"apiVersion": "apps/v1" if owner_kind != "Job" else "batch/v1",
                                 "blockOwnerDeletion": True, "controller": True, "kind": owner_kind,
                                 "name": owner, "uid": _uid(rng)}],
            "resourceVersion": str(2 * 10**8 + i), "uid": _uid(rng)},
        "spec": {
            "containers": containers, "initContainers": init, "dnsPolicy": "ClusterFirst",
            "enableServiceLinks": True, "nodeName": node_name, "preemptionPolicy": "PreemptLowerPriority",
            "priority": 0, "restartPolicy": "Always" if role != "train" else "Never",
            "schedulerName": "default-scheduler", "securityContext": {"fsGroup": 1000, "runAsUser": 1000},
            "serviceAccount": "default", "serviceAccountName": "default", "terminationGracePeriodSeconds": 30,
            "tolerations": [{"effect": "NoExecute", "key": "node.kubernetes.io/not-ready", "operator": "Exists",
                             "tolerationSeconds": 300},
                            {"effect": "NoExecute", "key": "node.kubernetes.io/unreachable", "operator": "Exists",
                             "tolerationSeconds": 300},
                            {"effect": "NoSchedule", "key": "nvidia.com/gpu", "operator": "Exists"}],
            "volumes": [{"configMap": {"defaultMode": 420, "name": f"{owner}-config"}, "name": "config"},
                        {"emptyDir": {}, "name": "data"},
                        {"name": "kube-api-access", "projected": {"defaultMode": 420, "sources": [
                            {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
                            {"configMap": {"items": [{"key": "ca.crt", "path": "ca.crt"}], "name": "kube-root-ca.crt"}},
                            {"downwardAPI": {"items": [{"fieldRef": {"apiVersion": "v1",
                                                                     "fieldPath": "metadata.namespace"},
                                                        "path": "namespace"}]}}]}}]},
        "status": _status(containers, node_name, i, rng)}


def dump(nodes: int, pods: int) -> dict:
    """The kubectl List: nodes first, then pods (kubectl's order for `get nodes,pods`)."""
    rng = random.Random(33)
    items = [node(i, rng) for i in range(nodes)]
    daemon = [(role, n) for n in range(nodes) for role in DAEMONSETS][:pods]
    roles = ("train", "train", "infer", "notebook")
    # two GPUs per training worker, one per inference replica: at most 3 of those per node keeps 8-GPU nodes
    # with room, so the 4-GPU gang workers fit on part of the fleet only
    work = [(roles[i % 4], f"gpu-node-{(i * 7) % nodes:05d}") for i in range(pods - len(daemon))]
    for i, (role, where) in enumerate([(r, f"gpu-node-{n:05d}") for r, n in daemon] + work):
        items.append(pod(i, role, where, rng))
    return {"apiVersion": "v1", "items": items, "kind": "List", "metadata": {"resourceVersion": ""}}


_PLAIN = re.compile(r"^[A-Za-z_/][A-Za-z0-9_./\-]*$")
_YAML11_WORDS = frozenset("y n yes no on off true false null".split())


def _scalar(value) -> str:
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return json.dumps(value)
    if _PLAIN.match(value) and value.lower() not in _YAML11_WORDS:
        return value
    return json.dumps(value)  # a JSON string is a YAML double-quoted scalar


def _yaml(value, indent: int, out: list[str]) -> None:
    """kubectl's YAML layout: two-space mappings, list items at their key's indentation."""
    pad = " " * indent
    if isinstance(value, dict):
        for key, item in value.items():
            k = _scalar(key)
            if isinstance(item, dict) and item:
                out.append(f"{pad}{k}:\n")
                _yaml(item, indent + 2, out)
            elif isinstance(item, list) and item:
                out.append(f"{pad}{k}:\n")
                _yaml(item, indent, out)
            else:
                out.append(f"{pad}{k}: {'{}' if item == {} else '[]' if item == [] else _scalar(item)}\n")
    else:
        for item in value:
            if isinstance(item, (dict, list)) and item:
                lines: list[str] = []
                _yaml(item, indent + 2, lines)
                first = lines[0]
                out.append(f"{pad}- {first[indent + 2:]}")
                out.extend(lines[1:])
            else:
                out.append(f"{pad}- {'{}' if item == {} else '[]' if item == [] else _scalar(item)}\n")


def write(root: Path, scale: float) -> tuple[Path, Path, Path]:
    data = dump(max(1, int(NODES * scale)), max(1, int(PODS * scale)))
    json_path, yaml_path, job_path = root / "cluster.json", root / "cluster.yaml", root / "job.yaml"
    json_path.write_text(json.dumps(data, indent=4) + "\n")  # kubectl's JSON is indented by four spaces
    out: list[str] = []
    _yaml(data, 0, out)
    yaml_path.write_text("".join(out))
    job_path.write_text(JOB)
    return json_path, yaml_path, job_path


def measured(argv: list[str]) -> tuple[float, float, int, int]:
    """(wall s, CPU s, peak RSS MiB, exit code) of one child process: CPU from getrusage(RUSAGE_CHILDREN)
    before and after, the peak from the child's own ru_maxrss (wait4), so one run's order does not matter."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    with tempfile.TemporaryFile() as err:
        child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=err, env=env)
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if child.returncode not in (0, 1):
            err.seek(0)
            print(err.read().decode()[-1500:], file=sys.stderr)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu, usage.ru_maxrss // 1024, child.returncode


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=1.0, help="fraction of 3,000 nodes / 21,000 pods")
    parser.add_argument("--write", metavar="DIR", help="only write the inputs into DIR")
    parser.add_argument("--only", choices=("json", "yaml"), help="plan only this form of the dump")
    parser.add_argument("--inputs", metavar="DIR", help="measure the inputs --write put into DIR (no new dump)")
    args = parser.parse_args(argv)
    from bytecode import compile_src  # benchmarks/bytecode.py (here: tests import this module by path)

    compile_src()
    if args.write:
        Path(args.write).mkdir(parents=True, exist_ok=True)
        for path in write(Path(args.write), args.scale):
            print(f"{path}: {path.stat().st_size / 2**20:.0f} MiB")
        return
    with tempfile.TemporaryDirectory() as tmp:
        inputs = Path(args.inputs or tmp)
        if not args.inputs:
            # written by a child: a child's peak RSS counts the parent's at the moment it is started (Linux keeps
            # the larger of the old and new memory's high-water marks across exec), so a parent that had held the
            # dump would lend every measured command its own peak
            subprocess.run([sys.executable, __file__, "--write", tmp, "--scale", str(args.scale)], check=True,
                           stdout=subprocess.DEVNULL)
        json_path, yaml_path, job_path = (inputs / n for n in ("cluster.json", "cluster.yaml", "job.yaml"))
        print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}; dump: "
              f"{json_path.stat().st_size / 2**20:.0f} MiB of JSON, {yaml_path.stat().st_size / 2**20:.0f} MiB of YAML")
        bare = measured([sys.executable, "-c", "import json,sys; json.load(open(sys.argv[1]))", str(json_path)])
        print(f"  {'bare json.load (JSON)':28s} wall={bare[0]:6.2f}s cpu={bare[1]:6.2f}s peak={bare[2]:6d} MiB")
        goals = {"json": (json_path, 2.5, 2.0), "yaml": (yaml_path, 4.0, 3.0)}
        for form in ([args.only] if args.only else ("json", "yaml")):
            path, cpu_goal, mem_goal = goals[form]
            wall, cpu, peak, code = measured([sys.executable, "-m", "wasplan", "plan", str(job_path),
                                              "--cluster", str(path), "-o", "json"])
            print(f"  {'wasplan plan (' + form.upper() + ')':28s} wall={wall:6.2f}s cpu={cpu:6.2f}s peak={peak:6d} "
                  f"MiB exit={code}  CPU {cpu / bare[1]:.2f}x (goal <= {cpu_goal}x), "
                  f"peak {peak / bare[2]:.2f}x (goal <= {mem_goal}x)", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
