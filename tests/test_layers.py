"""The import layers of docs/layers.md, read from its table, hold over every module of src/wasplan: no module imports
a layer above its own, the engine imports no YAML or terminal code, the plugins do not import each other, and
explain reaches the engine through engine/facade.py only. Every import counts, inside functions and under
TYPE_CHECKING too (a type-level dependency is still a dependency)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "wasplan"
TABLE = ROOT / "docs" / "layers.md"
YAML_OR_TERMINAL = ("yaml", "yaml_rs", "ruamel", "rich", "typer", "click", "wasplan.documents")


ENGINE_SECTION = "## Inside the engine"


def layer_ranks(text: str) -> dict[str, int]:
    """Top-level package or module -> its rank, from the table's rows `| rank | layer | `a`, `b` |` (the engine's
    own table, after ENGINE_SECTION, is read by `engine_ranks`)."""
    return _ranks(text.split(ENGINE_SECTION)[0])


def engine_ranks(text: str) -> dict[str, int]:
    """The engine's parts (subpackages, and root modules by name) -> their rank in the section's table."""
    return _ranks(text.split(ENGINE_SECTION)[1])


def engine_exceptions(text: str) -> set[tuple[str, str]]:
    """(importer file under engine/, imported part.module) pairs the section names as known exceptions."""
    return set(re.findall(r"^\| `([\w/]+\.py)` \| `([\w.]+)` \| [^|]+ \|$", text.split(ENGINE_SECTION)[1], re.M))


def _ranks(text: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for rank, names in re.findall(r"^\| (\d+) \| [^|]+ \| ([^|]+) \|$", text, re.M):
        for name in re.findall(r"`([^`]+)`", names):
            out[name] = int(rank)
    return out


def module_name(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, text: str | None = None) -> list[tuple[int, str]]:
    """(line, imported module) for every import of the file (or of `text` as that file), relative ones resolved,
    `from pkg import name` giving `pkg.name` (a module or a name in it: the top-level package is what the layers
    compare)."""
    tree = ast.parse(path.read_text() if text is None else text, str(path))
    here = module_name(path).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[:len(package) - node.level + 1] + ([base] if base else []))
            out += [(node.lineno, f"{base}.{a.name}") for a in node.names]
    return out


def top(module: str) -> str | None:
    """The top-level package or module of src/wasplan that `module` names (`__init__` for the package root)."""
    parts = module.split(".")
    if parts[0] != "wasplan":
        return None
    if len(parts) == 1 or not ((SRC / parts[1]).is_dir() or (SRC / f"{parts[1]}.py").exists()):
        return "__init__"
    return parts[1]


def sources() -> list[Path]:
    return sorted(SRC.rglob("*.py"))


def upward(ranks: dict[str, int], files: list[tuple[Path, str | None]]) -> list[str]:
    found = []
    for path, text in files:
        own = top(module_name(path))
        for line, module in imports(path, text):
            target = top(module)
            if target is not None and target != own and ranks[target] > ranks[own]:
                found.append(f"{path.relative_to(ROOT)}:{line}: {own} (layer {ranks[own]}) imports {module} "
                             f"(layer {ranks[target]})")
    return found


def test_every_package_and_module_has_a_layer():
    ranks = layer_ranks(TABLE.read_text())
    names = {p.name if p.is_dir() else p.stem for p in SRC.iterdir()
             if (p.is_dir() and (p / "__init__.py").exists()) or p.suffix == ".py"}
    assert names <= set(ranks), sorted(names - set(ranks))
    assert ranks["engine"] > ranks["cluster"] > ranks["api"] and ranks["cli"] == max(ranks.values())


def test_no_module_imports_a_layer_above_its_own():
    assert upward(layer_ranks(TABLE.read_text()), [(p, None) for p in sources()]) == []


def test_the_check_finds_an_upward_import():
    # the cel layer importing the cluster layer (what cel/compiler.py once did), at module level or inside a
    # function, and a relative import that climbs out of the package, each reported with file and line
    probe = SRC / "cel" / "compiler.py"
    text = ("import re\nfrom wasplan.cel import info\nfrom wasplan.cluster.devices import Attribute\n"
            "def f():\n    from ..engine import registry\n")
    found = upward(layer_ranks(TABLE.read_text()), [(probe, text)])
    assert found == ["src/wasplan/cel/compiler.py:3: cel (layer 3) imports wasplan.cluster.devices.Attribute (layer 4)",
                     "src/wasplan/cel/compiler.py:5: cel (layer 3) imports wasplan.engine.registry (layer 8)"]


@pytest.mark.parametrize("path", [p for p in sources() if "engine" in p.relative_to(SRC).parts[:1]],
                         ids=lambda p: str(p.relative_to(SRC)))
def test_the_engine_imports_no_yaml_or_terminal_code(path):
    bad = [(line, m) for line, m in imports(path) if m.startswith(YAML_OR_TERMINAL)]
    assert bad == []


def test_plugins_never_import_each_other():
    """A plugin is a module of engine/plugins or a package there (dynamic_resources: its face and its stateful
    object); the modules of one package may import each other."""
    plugins = SRC / "engine" / "plugins"
    own = {p.relative_to(plugins).parts[0].removesuffix(".py") for p in plugins.rglob("*.py")} - {"__init__"}
    assert {"dynamic_resources", "resources_fit"} <= own
    for path in plugins.rglob("*.py"):
        plugin = path.relative_to(plugins).parts[0].removesuffix(".py")
        others = [(line, m) for line, m in imports(path)
                  if m.startswith("wasplan.engine.plugins.") and m.split(".")[3] in own - {plugin}]
        assert others == [], path.name


def test_explain_reaches_the_engine_through_the_facade_only():
    found = [f"{path.relative_to(ROOT)}:{line}: {m}" for path in (SRC / "explain").rglob("*.py")
             for line, m in imports(path)
             if m.startswith("wasplan.engine") and not m.startswith("wasplan.engine.facade.")]
    assert found == []


ENGINE = SRC / "engine"


def part(module: str) -> str | None:
    """The engine part (subpackage, or root module) a `wasplan.engine...` module belongs to."""
    parts = module.split(".")
    if parts[:2] != ["wasplan", "engine"]:
        return None
    return parts[2] if len(parts) > 2 else "__init__"


def engine_upward(ranks: dict[str, int], files: list[tuple[Path, str | None]]) -> list[tuple[str, str, int]]:
    """(importer under engine/, imported part.module, line) for every import of a higher engine part."""
    found = []
    for path, text in files:
        rel = path.relative_to(ENGINE)
        own = rel.parts[0] if len(rel.parts) > 1 else rel.stem
        for line, module in imports(path, text):
            target = part(module)
            if target is not None and target != own and ranks[target] > ranks[own]:
                found.append((rel.as_posix(), ".".join(module.split(".")[2:4]), line))
    return found


def test_every_engine_part_has_a_rank_and_a_docstring():
    ranks = engine_ranks(TABLE.read_text())
    parts = {p.name if p.is_dir() else p.stem for p in ENGINE.iterdir()
             if (p.is_dir() and (p / "__init__.py").exists()) or p.suffix == ".py"}
    assert parts == set(ranks), (sorted(parts - set(ranks)), sorted(set(ranks) - parts))
    for package in (p for p in ENGINE.iterdir() if (p / "__init__.py").exists()):
        assert ast.get_docstring(ast.parse((package / "__init__.py").read_text())), package.name


def test_no_engine_part_imports_a_higher_one_but_the_named_exceptions():
    text = TABLE.read_text()
    found = engine_upward(engine_ranks(text), [(p, None) for p in ENGINE.rglob("*.py")])
    assert {(f, m) for f, m, _ in found} == engine_exceptions(text), found


def test_the_engine_check_finds_an_upward_import():
    # the plugin API importing the cluster state, at module level and inside a function
    probe = ENGINE / "pluginapi" / "status.py"
    text = "from wasplan.engine.cache.world import World\ndef f():\n    from wasplan.engine.cycle import framework\n"
    found = engine_upward(engine_ranks(TABLE.read_text()), [(probe, text)])
    assert found == [("pluginapi/status.py", "cache.world", 1), ("pluginapi/status.py", "cycle.framework", 3)]

