#!/usr/bin/env python3
"""Generate wasplan's JSON Schemas for Kueue's Configuration (config.kueue.x-k8s.io v1beta1 and v1beta2).

Source: Kueue v0.17.0's Go types themselves (`apis/config/<version>/configuration_types.go`): the Kueue oracle's
`config-schema` command (oracle/kueue017/configschema.go) walks the type Kueue decodes its configuration file
into and prints its fields by json name; Kueue decodes that file strictly (pkg/config/config.go,
`serializer.EnableStrict`), so a field the type lacks is an error and the schemas refuse it. Values of Kueue's
enumerations and ranges are checked by wasplan.validate.rules.kueue_config (pkg/config/validation.go).

Usage: python tools/gen_kueue_config_schemas.py [--oracle oracle/bin/oracle-kueue] [--out schemas]
(oracle/build kueue builds the binary). The output is byte-identical on every run (sorted keys, indentation 2).
"""

from __future__ import annotations

import argparse
import json
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GROUP = "config.kueue.x-k8s.io"
VERSIONS = ("v1beta1", "v1beta2")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--oracle", default=str(ROOT / "oracle" / "bin" / "oracle-kueue"))
    parser.add_argument("--out", default=str(ROOT / "schemas"))
    args = parser.parse_args()
    for version in VERSIONS:
        raw = subprocess.run([args.oracle, "config-schema", version], capture_output=True, text=True, check=True)
        schema = json.loads(raw.stdout)
        target = Path(args.out) / GROUP / version / "Configuration.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {target.relative_to(ROOT) if target.is_relative_to(ROOT) else target}")


if __name__ == "__main__":
    main()
