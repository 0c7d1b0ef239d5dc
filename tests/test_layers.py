"""The package's layers (docs/architecture.md): import-linter's contracts hold, they catch an
upward import, no import cycle remains (imports inside functions counted), nothing reaches package
code by a string, and the light commands load no game."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

import mathhammer

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "python" / "mathhammer"
SANITIZED = os.environ.get("MATHHAMMER_SANITIZED") == "1"


def _lint(source_root: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(source_root)}
    return subprocess.run([sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command;"
                           " sys.exit(lint_imports_command())", "--config", str(ROOT / "pyproject.toml"),
                           "--no-cache"], capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)


def _copy(tmp_path: Path) -> Path:
    """The package's Python sources in a folder of their own, to be edited."""
    target = tmp_path / "src"
    shutil.copytree(PACKAGE, target / "mathhammer", ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    return target


def test_the_contracts_hold() -> None:
    done = _lint(ROOT / "python")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "4 kept, 0 broken" in done.stdout


@pytest.mark.parametrize("module, line, contract", [
    ("core/options.py", "from mathhammer.files import library", "nothing imports upward"),
    ("report/tables.py", "def f():\n    from mathhammer.core import present\n", "nothing imports upward"),
    ("killteam/shooting.py", "from mathhammer import starcraft  # a sibling game", "nothing imports upward"),
    ("killteam/report.py", "def f():\n    import rich\n", "Typer, Rich and Click only under mathhammer.cli"),
    ("files/library.py", "import typer", "Typer, Rich and Click only under mathhammer.cli"),
    ("core/plots.py", "def f():\n    import matplotlib.pyplot\n", "matplotlib only in mathhammer.report.plot"),
    ("web/app.py", "from mathhammer.cli import options", "nothing imports upward"),
    ("files/library.py", "def f():\n    import pydantic\n", "FastAPI, Starlette, Pydantic and uvicorn only under"),
])
def test_the_contracts_catch_a_forbidden_import(tmp_path: Path, module: str, line: str, contract: str) -> None:
    src = _copy(tmp_path)
    path = src / "mathhammer" / module
    path.write_text(path.read_text(encoding="utf-8") + "\n\n" + line + "\n", encoding="utf-8")
    done = _lint(src)
    assert done.returncode != 0, done.stdout
    broken = [part for part in done.stdout.split("\n") if "BROKEN" in part]
    assert any(contract in part for part in broken), done.stdout


def _imports(path: Path) -> list[tuple[int, str, list[str]]]:
    """(line, module, names) of every import in a file, inside functions too."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module, [alias.name for alias in node.names]))
    return found


def _sources() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def test_nothing_imports_the_package_root_but_the_compiled_core() -> None:
    # the layers contract ignores imports of the root, which is how `from mathhammer import _core`
    # reads to import-linter: here every other import from the root is refused
    # the compiled core and the package's submodules, never a name the facade defines but the version
    # (a constant written there, read by the command line, the web API and the meta's manifests)
    allowed = {"_core", "__version__"} | {p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__"}
    allowed |= {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()}
    problems = []
    for path in _sources():
        if path == PACKAGE / "__init__.py":
            continue
        for line, module, names in _imports(path):
            if module == "mathhammer":
                extra = set(names) - allowed
                if extra:
                    problems.append(f"{path.relative_to(ROOT)}:{line}: from mathhammer import {', '.join(sorted(extra))}")
    assert not problems, problems


def test_no_package_code_is_imported_by_a_string() -> None:
    problems = []
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "import_module":
                problems.append(f"{path.relative_to(ROOT)}:{node.lineno}")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "__import__":
                problems.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not problems, problems


def test_no_import_cycle_remains() -> None:
    sys.path.insert(0, str(ROOT / "python"))
    try:
        graph = grimp.build_graph("mathhammer", cache_dir=None)
    finally:
        sys.path.remove(str(ROOT / "python"))
    # the edges into the root are the compiled core's imports (see the test above), not the facade's
    for module in graph.modules:
        if module != "mathhammer" and graph.direct_import_exists(importer=module, imported="mathhammer"):
            graph.remove_import(importer=module, imported="mathhammer")
    cycles = []
    for module in sorted(graph.modules):
        for imported in graph.find_modules_directly_imported_by(module):
            if imported != module and graph.chain_exists(importer=imported, imported=module):
                cycles.append(" -> ".join(graph.find_shortest_chain(importer=imported, imported=module) or ())
                              + f" -> {imported}")
    assert not cycles, cycles[:10]


def _loaded(code: str) -> set[str]:
    """The modules a fresh interpreter has loaded after ``code``, importing the same mathhammer as
    these tests (the working tree with its built core in development, the installed package in CI)."""
    here = str(Path(mathhammer.__file__).resolve().parent.parent)
    done = subprocess.run([sys.executable, "-c", code + "\nimport sys\nprint(' '.join(sorted(sys.modules)))"],
                          capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHONPATH": here})
    assert done.returncode == 0, done.stderr
    return set(done.stdout.split())


GAMES = {"mathhammer.killteam", "mathhammer.starcraft", "mathhammer.deathburgh", "mathhammer.force_melee"}


def test_a_result_renders_without_the_command_line_libraries() -> None:
    loaded = _loaded("from mathhammer import killteam as kt\n"
                     "text = kt.shoot(kt.Weapon(4, 3, (3, 4)), kt.Operative(3, 12)).to_markdown()\n"
                     "assert text.startswith('### Damage')")
    assert not loaded & {"typer", "rich", "click", "matplotlib"}


@pytest.mark.parametrize("argument", ["--version", "--help"])
def test_version_and_help_load_no_game(argument: str) -> None:
    loaded = _loaded("import contextlib, io\nfrom mathhammer.cli import main\n"
                     f"with contextlib.redirect_stdout(io.StringIO()):\n    assert main([{argument!r}]) == 0")
    assert not loaded & (GAMES | {"numpy", "mathhammer._core", "mathhammer.games"})
