"""`wasplan validate` on DRA objects: the server-side rules and the static CEL checks; prints figures, asserts nothing.

    PYTHONPATH=src python benchmarks/dra_validate.py [--templates 2000] [--slices 200]

Writes ResourceClaimTemplates (two requests, one with two `firstAvailable` subrequests, four CEL selectors each; one
template in ten has selectors of its own text, the rest repeat, as templates of one team do) and ResourceSlices
(128 devices with 8 attributes and 2 capacities each), validates them as the CLI would (schemas, rules, gates,
CEL), and reports CPU seconds; then the static CEL analysis of distinct expressions, uncached.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from wasplan.api.releases import default_gates, get_release
from wasplan.cel.checker import analyse
from wasplan.pipeline.validate import validate_paths

SELECTORS = [
    'device.driver == "gpu.example.com" && device.attributes["gpu.example.com"].model == "a100-{i}"',
    'device.capacity["gpu.example.com"].memory.compareTo(quantity("{i}Gi")) >= 0',
    'cel.bind(g, device.attributes["gpu.example.com"], g.cores >= {i} && g.model.startsWith("a"))',
    '["a100", "h100-{i}"].exists(m, m == device.attributes["gpu.example.com"].model)',
]


def template(n: int) -> str:
    i = n // 10
    sel = "".join(f"          - cel: {{expression: '{s.format(i=i)}'}}\n" for s in SELECTORS)
    return (f"apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {{name: t{n}}}\nspec:\n  spec:\n"
            "    devices:\n      requests:\n      - name: gpu\n        exactly:\n          deviceClassName: gpu.example.com\n"
            f"          selectors:\n{sel}      - name: nic\n        firstAvailable:\n"
            "        - {name: fast, deviceClassName: nic.example.com, count: 2}\n"
            "        - {name: slow, deviceClassName: nic.example.com}\n"
            "      constraints:\n      - {requests: [gpu, nic/fast], matchAttribute: resource.kubernetes.io/pcieRoot}\n")


def slice_(n: int) -> str:
    attrs = "".join(f"      a{k}: {{int: {k}}}\n" for k in range(6))
    devices = "".join(f"  - name: gpu-{d}\n    attributes:\n      model: {{string: a100}}\n"
                      f"      driverVersion: {{version: 1.2.{d}}}\n{attrs}    capacity:\n"
                      "      memory: {value: 80Gi}\n      cores: {value: '108'}\n" for d in range(128))
    return (f"apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {{name: node-{n}}}\nspec:\n"
            f"  driver: gpu.example.com\n  pool: {{name: node-{n}, generation: 1, resourceSliceCount: 1}}\n"
            f"  nodeName: node-{n}\n  devices:\n{devices}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--templates", type=int, default=2000)
    parser.add_argument("--slices", type=int, default=200)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="wasplan-dra-bench-"))
    (root / "templates.yaml").write_text("---\n".join(template(n) for n in range(args.templates)))
    (root / "slices.yaml").write_text("---\n".join(slice_(n) for n in range(args.slices)))
    gates = default_gates(get_release("1.37"))
    validate_paths([str(root / "templates.yaml")], gates, stdin_text=None)  # warm the schema caches
    analyse.cache_clear()
    start = time.process_time()
    report = validate_paths([str(root)], gates)
    cpu = time.process_time() - start
    docs = report.counts()["documents"]
    print(f"validate   documents={docs} ({args.templates} templates, {args.slices} slices of 128 devices) "
          f"errors={report.counts()['errors']} cpu={cpu:.2f}s ({cpu / docs * 1e3:.2f} ms per document)")
    expressions = [s.format(i=i) for i in range(2000) for s in SELECTORS]
    analyse.cache_clear()
    start = time.process_time()
    for expression in expressions:
        analyse(expression)
    cpu = time.process_time() - start
    print(f"cel        {len(expressions)} distinct selectors analysed (parse, types, cost) cpu={cpu:.2f}s "
          f"({cpu / len(expressions) * 1e6:.0f} us each)")


if __name__ == "__main__":
    main()
