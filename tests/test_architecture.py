"""The lines DESIGN.md draws, held by reading every module's imports (Pygments' test_basic_api idea).

- no import cycles, counting imports inside functions too (a lazy import is still a dependency);
- a format's modules never import another format's; a reader never imports its writer, nor a
  writer its reader (they share the format's vocabulary modules instead);
- the shared layers (model, diagnostics, text, xml, package, schemas, ...) import no format, no
  lint rule and no build machinery; formats import neither lint nor the build machinery;
  what sits above the formats reaches them through the registry (`lmsexport.formats`);
- no module is named after a public function (`read`, `write`, `build`, `validate`, `convert`).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from conftest import ROOT

PACKAGE = ROOT / "lmsexport"
PUBLIC_FUNCTIONS = {"read", "write", "build", "validate", "convert"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def _imports(module: str) -> set[str]:
    """The lmsexport modules `module` imports, anywhere in its body."""
    path = MODULES[module]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            target = _resolve(module, path.name == "__init__.py", node)
            for alias in node.names:
                full = f"{target}.{alias.name}"
                found.add(full if full in MODULES else target)
    return {name for name in found if name in MODULES and name != module}


GRAPH = {module: _imports(module) for module in MODULES}


def _format_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[1] == "formats" else None


def _layer(module: str) -> str:
    parts = module.split(".")
    if module in ("lmsexport", "lmsexport.__main__") or parts[:2] == ["lmsexport", "cli"]:
        return "top"
    if len(parts) > 1 and parts[1] in ("batch", "rules", "preview"):
        return parts[1]
    if module == "lmsexport.formats":
        return "registry"
    if module == "lmsexport.validation":
        return "validation"
    if _format_of(module):
        return "format"
    return "shared"


ALLOWED = {
    "shared": {"shared"},
    "format": {"shared", "format"},
    "registry": {"shared"},
    "validation": {"shared", "registry"},
    "rules": {"shared", "rules", "registry"},
    "batch": {"shared", "batch", "registry", "validation", "rules"},
    "preview": {"shared", "batch", "registry", "validation", "rules", "preview"},
    "top": {"shared", "batch", "registry", "validation", "rules", "preview", "top"},
}
"""Which layers a layer may import. `validation` dispatches to the formats' own validation
modules through the registry, never by naming a format's module. The preview (server, answer
key, watcher) sits beside the build machinery and reaches the formats through the registry too."""


def test_no_import_cycles():
    seen: dict[str, int] = {}
    stack: list[str] = []
    cycles = []

    def visit(module: str) -> None:
        seen[module] = 1
        stack.append(module)
        for target in sorted(GRAPH[module]):
            if seen.get(target) == 1:
                cycles.append(stack[stack.index(target):] + [target])
            elif target not in seen:
                visit(target)
        stack.pop()
        seen[module] = 2

    for module in sorted(GRAPH):
        if module not in seen:
            visit(module)
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(cycle) for cycle in cycles)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_respect_the_layers(module):
    layer = _layer(module)
    wrong = sorted(target for target in GRAPH[module] if _layer(target) not in ALLOWED[layer])
    assert not wrong, f"{module} ({layer}) imports {wrong}; see DESIGN.md, Layout"


@pytest.mark.parametrize("module", sorted(m for m in MODULES if _format_of(m)))
def test_a_format_imports_no_other_format(module):
    own = _format_of(module)
    others = sorted(t for t in GRAPH[module] if _format_of(t) not in (None, own))
    assert not others, f"{module} imports another format's modules: {others}"


def _side(module: str) -> str | None:
    """`reader` or `writer` for a format's reading or writing modules."""
    for part in module.split(".")[3:4]:
        if part.startswith("reader"):
            return "reader"
        if part.startswith("writer"):
            return "writer"
    return None


@pytest.mark.parametrize("module", sorted(m for m in MODULES if _side(m)))
def test_a_reader_never_imports_its_writer(module):
    side = _side(module)
    crossing = sorted(t for t in GRAPH[module] if _format_of(t) == _format_of(module) and _side(t) not in (None, side))
    assert not crossing, f"{module} ({side}) imports {crossing}: share a vocabulary module (names.py, rules.py) instead"


def test_no_module_is_named_after_a_public_function():
    named = sorted(m for m in MODULES if m.rsplit(".", 1)[-1] in PUBLIC_FUNCTIONS)
    assert not named, f"modules named like lmsexport's public functions: {named}"
