"""The readers that could read a big dump (issue 33), each in its own process on the same files, measured in
one run: CPU seconds (getrusage of the child) and peak memory (the child's ru_maxrss, os.wait4), beside a bare
`json.load` of the JSON form. Readers that are not installed are skipped with a line saying so, so the script
runs with the project's dependencies alone; the others were measured from a scratch virtualenv.

    PYTHONPATH=src python benchmarks/readers.py DIR   # DIR from `benchmarks/bigdump.py --write DIR`

What each line reads: the YAML form (`cluster.yaml`) unless it says JSON; "values" means plain dicts and lists
come out, "marks" that every node keeps its line and column (what a finding needs), "tree" a parse tree that
Python code still has to walk.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bigdump import measured  # noqa: E402

READERS = {
    "json.load (JSON, values)": ("json", "import json; json.load(open(P))"),
    "orjson.loads (JSON, values)": ("orjson", "import orjson; orjson.loads(open(P, 'rb').read())"),
    "wasplan reader (JSON)": ("wasplan", "from wasplan.documents.reader import read_paths; read_paths([P])"),
    "wasplan reader (YAML, marks)": ("wasplan", "from wasplan.documents.reader import read_paths; read_paths([Y])"),
    "PyYAML CSafeLoader (values)": ("yaml", "import yaml; list(yaml.load_all(open(Y).read(), Loader=yaml.CSafeLoader))"),
    "PyYAML CParser compose (marks)": ("yaml", "import yaml; list(yaml.compose_all(open(Y).read(), Loader=yaml.CSafeLoader))"),
    "ruamel.yaml C loader (values)": ("ruamel.yaml", "from ruamel.yaml import YAML; list(YAML(typ='safe', pure=False)"
                                                     ".load_all(open(Y).read()))"),
    "rapidyaml parse_in_arena (tree)": ("ryml", "import ryml; ryml.parse_in_arena(open(Y, 'rb').read())"),
    "yaml-rs loads (values, YAML 1.2)": ("yaml_rs", "import yaml_rs; yaml_rs.loads(open(Y).read())"),
    "ryaml loads (values, YAML 1.2)": ("ryaml", "import ryaml; ryaml.loads(open(Y).read())"),
    "pyyaml-rs safe_load (values, YAML 1.2)": ("pyyaml_rs", "import pyyaml_rs; pyyaml_rs.safe_load(open(Y).read())"),
    "fastyaml-rs safe_load (values, YAML 1.2)": ("fast_yaml", "import fast_yaml; fast_yaml.safe_load(open(Y).read())"),
}


def main(argv: list[str]) -> None:
    if len(argv) != 1:
        print(__doc__)
        raise SystemExit(2)
    root = Path(argv[0])
    json_path, yaml_path = root / "cluster.json", root / "cluster.yaml"
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores; JSON {json_path.stat().st_size / 2**20:.0f} MiB, "
          f"YAML {yaml_path.stat().st_size / 2**20:.0f} MiB")
    base = None
    with tempfile.TemporaryDirectory():
        for label, (module, code) in READERS.items():
            probe = measured([sys.executable, "-c", f"import {module}"])
            if probe[3] != 0:
                print(f"  {label:42s} not installed ({module})")
                continue
            program = f"import gc, sys; gc.disable(); P, Y = sys.argv[1:3]; {code}"
            wall, cpu, peak, code_ = measured([sys.executable, "-c", program, str(json_path), str(yaml_path)])
            base = base or (cpu, peak)
            print(f"  {label:42s} cpu={cpu:7.2f}s peak={peak:6d} MiB  {cpu / base[0]:5.1f}x CPU "
                  f"{peak / base[1]:4.1f}x peak of json.load{'' if code_ == 0 else f'  exit={code_}'}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
