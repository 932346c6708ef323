"""The wheel carries wasplan's schemas where the loader looks for them.

The build runs on a copy of the project files the wheel is made from, so the test neither writes into the
working tree nor depends on files the lead maintains (README.md is written as a one-line file in the copy
when the checkout has none yet).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import jsonschema
import pytest

ROOT = Path(__file__).resolve().parents[1]


def _project_copy(dest: Path) -> Path:
    dest.mkdir()
    shutil.copy2(ROOT / "pyproject.toml", dest)
    shutil.copytree(ROOT / "src", dest / "src", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "schemas", dest / "schemas")
    if (ROOT / "README.md").is_file():
        shutil.copy2(ROOT / "README.md", dest)
    else:
        (dest / "README.md").write_text("wasplan\n", encoding="utf-8")
    return dest


def test_wheel_contains_schemas(tmp_path):
    pytest.importorskip("hatchling")
    project = _project_copy(tmp_path / "project")
    out = tmp_path / "dist"
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", str(project), "--no-deps",
                            "--no-build-isolation", "-q", "-w", str(out)], capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    wheels = list(out.glob("wasplan-*.whl"))
    assert len(wheels) == 1
    with zipfile.ZipFile(wheels[0]) as wheel:
        names = set(wheel.namelist())
        member = "wasplan/schemas/scheduling.k8s.io/v1beta1/PodGroup.json"
        assert member in names
        assert "wasplan/validate/schemas.py" in names
        # the HTML plan report's template and inlined assets (wasplan/report/plan_html.py)
        assert {"wasplan/report/html/plan.html.j2", "wasplan/report/html/plan.css",
                "wasplan/report/html/plan.js"} <= names
        # 1.38's strict upstream schemas, which kubernetes-validate does not ship yet (validate/core_schemas.py)
        assert {"wasplan/validate/upstream_schemas/v1.38.0-local-strict/_definitions.json",
                "wasplan/validate/upstream_schemas/v1.38.0-local-strict/pod-v1.json"} <= names
        assert not any("gen_schemas" in n or "gen_core_schemas" in n for n in names), \
            "the generators are developer tools, not shipped"
        schema = json.loads(wheel.read(member))
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$id"].endswith("/scheduling.k8s.io/v1beta1/PodGroup.json")
