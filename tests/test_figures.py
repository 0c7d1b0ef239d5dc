"""Every speed figure comes from benchmarks/figures.toml (issue: the figures in README.md, docs/ and
benchmarks/README.md once disagreed). The pages show them only in blocks that tools/figures.py
writes; these tests fail when a block is stale, a page states a figure outside a block, or a figure
names a benchmark that does not exist."""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("figures_tool", ROOT / "tools" / "figures.py")
assert spec and spec.loader
figures_tool = importlib.util.module_from_spec(spec)
spec.loader.exec_module(figures_tool)


def test_every_block_is_up_to_date(capsys: pytest.CaptureFixture[str]) -> None:
    assert figures_tool.main(["--check"]) == 0, capsys.readouterr().out


@pytest.mark.parametrize("page", figures_tool.pages(), ids=lambda page: str(page.relative_to(ROOT)))
def test_no_speed_figure_outside_a_block(page: Path) -> None:
    assert figures_tool.stray_figures(page.read_text(encoding="utf-8")) == []


def test_every_figure_is_in_the_benchmarks_table() -> None:
    text = (ROOT / "benchmarks" / "README.md").read_text(encoding="utf-8")
    shown = {key for match in figures_tool.BLOCK.finditer(text) for key in match["keys"].split()}
    assert set(figures_tool.load()) <= shown


def _benchmark_tests(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name for node in tree.body if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")}


def test_every_figure_names_an_existing_benchmark() -> None:
    for key, figure in figures_tool.load().items():
        if "bench" not in figure:
            continue
        file, test = figure["bench"].split("::")
        assert test.split("[")[0] in _benchmark_tests(ROOT / "benchmarks" / file), key


FAKE = {"a": {"what": "a shot", "value": "3.1 µs", "target": "≤ 10 µs"}, "b": {"what": "a fight", "value": "12 M fights/s"}}


def test_a_block_is_rewritten_from_the_figures() -> None:
    page = ('intro\n<!-- figures keys="b a" columns="what=scenario|value=figure|reference=for comparison" -->\n'
            "| stale |\n<!-- /figures -->\nend\n")
    assert figures_tool.render(page, FAKE, "page") == (
        'intro\n<!-- figures keys="b a" columns="what=scenario|value=figure|reference=for comparison" -->\n'
        "| scenario | figure | for comparison |\n|---|---|---|\n"
        "| a fight | **12 M fights/s** | — |\n| a shot | **3.1 µs** | — |\n<!-- /figures -->\nend\n")


def test_an_unknown_figure_or_column_is_refused() -> None:
    with pytest.raises(SystemExit, match="no figure named zz"):
        figures_tool.render('<!-- figures keys="zz" columns="what" -->\n<!-- /figures -->', FAKE, "page")
    with pytest.raises(SystemExit, match="unknown column 'speed'"):
        figures_tool.render('<!-- figures keys="a" columns="speed" -->\n<!-- /figures -->', FAKE, "page")


@pytest.mark.parametrize("line", ["runs about 26 M fights/s", "takes 0.3 ms exact", "about 2 µs a cell",
                                  "60–80 million combats/s", "120,000 shots/s"])
def test_a_figure_outside_a_block_is_found(line: str) -> None:
    assert figures_tool.stray_figures(f"text\n{line}\n") == [line]
    inside = f'<!-- figures keys="a" columns="what" -->\n{line}\n<!-- /figures -->\n'
    assert figures_tool.stray_figures(inside) == []


def test_numbers_print_with_three_significant_digits() -> None:
    assert [figures_tool._significant(x) for x in (0.02134, 4.271, 18654.2, 123456.0)] == [
        "0.0213", "4.27", "18,700", "123,000"]
    bench = {"x::t": {"stats": {"median": 1.5e-5}, "extra_info": {"fights_per_second": 2.563e7,
                                                                 "microseconds_per_cell": 1.3}}}
    def shown(stat: str, unit: str) -> str:
        return str(figures_tool.measured("k", {"bench": "x::t", "stat": stat, "unit": unit}, bench, None))
    assert shown("median", "µs") == "15 µs"
    assert shown("fights_per_second", "M fights/s") == "25.6 M fights/s"
    assert shown("microseconds_per_cell", "µs") == "1.3 µs"
